"""The rules sheet of a game: what its variant and settings say, and a hand explained.

One entry point, `rules_sheet`, from a game as the store shows it. The statements shared by
every variant (the deal, the card values, wild cards, aces, sets, laying off, how the game
ends) are read off the variant's record here; the rest is the variant's explainer's. The
hand explained is the game's last, as the store scored it; before any hand, the variant's
example hand, scored by the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cards import JOKER, RANKS, Card
from scorekeeper.rules.explain import Breakdown, Line, Section
from scorekeeper.rules.hand import parse_players
from scorekeeper.rules.variants import Variant, variant

SECTIONS = ("play", "scoring", "cards", "end")  # the order the page shows them in
FACE = range(2, 11)  # ranks worth their number, when all of them are ("as marked")


@dataclass(frozen=True)
class ValueGroup:
    """Ranks `first`..`last` in a row, each worth `points` (None: the number it shows)."""

    first: str
    last: str
    points: int | None


@dataclass(frozen=True)
class RulesSheet:
    variant: str
    sections: list[Section]
    card_values: list[ValueGroup]
    example: Breakdown


def card_values(rules: Variant[Any], s: Any) -> list[ValueGroup]:
    """A card's points in hand, ranks worth alike grouped: A 1 · 2–10 as marked · J–K 10."""
    groups: list[ValueGroup] = []
    marked = all(rules.points(Card(rank, "S"), s) == rank for rank in FACE)
    for rank in range(1, len(RANKS) + 1):
        worth = rules.points(Card(rank, "S"), s)
        points = None if marked and rank in FACE else worth
        last = groups[-1] if groups else None
        if last is not None and last.points == points:
            groups[-1] = ValueGroup(last.first, RANKS[rank - 1], points)
        else:
            groups.append(ValueGroup(RANKS[rank - 1], RANKS[rank - 1], points))
    if rules.deck(s).jokers:
        groups.append(ValueGroup("JK", "JK", rules.points(JOKER, s)))
    return groups


def _shared(rules: Variant[Any], s: Any, players: int) -> dict[str, list[Line]]:
    shape, melds, deck = rules.hand, rules.meld_rules(s), rules.deck(s)
    dealt = shape.cards if shape.cards is not None else (
        shape.dealt(players) if shape.dealt is not None else None)
    play = [Line("deal", {"n": dealt})] if dealt is not None else []
    wild = ("wild.twos" if melds.wild_twos else
            "wild.jokers" if melds.jokers_wild and deck.jokers else "wild.none")
    cards = [Line("melds"), Line(wild), Line("ace.both" if melds.ace_high else "ace.low")]
    if deck.decks > 1:
        cards.append(Line("duplicates.yes" if melds.duplicates_in_set else "duplicates.no"))
    if melds.min_naturals:
        cards.append(Line("naturals", {"n": melds.min_naturals}))
    cards.append(Line(f"layoff.{rules.lay_off}"))
    return {"play": play, "cards": cards, "end": [_game_end(rules, s)]}


def _game_end(rules: Variant[Any], s: Any) -> Line:
    hands = rules.hand_limit(s) if rules.hand_limit is not None else None
    if rules.low_wins and rules.goal_key is not None:
        return Line("end.elimination", {"n": getattr(s, rules.goal_key)})
    if hands is not None:
        return Line("end.hands", {"n": hands})
    if rules.target is None:
        raise TypeError(f"{rules.name} has no end of game to explain")
    return Line("end.target", {"n": rules.target(s)})


def sections(rules: Variant[Any], s: Any, players: int) -> list[Section]:
    """The statements that apply, shared ones first within each section."""
    lines = _shared(rules, s, players)
    for own in rules.explain.lines(s):
        lines.setdefault(own.key, []).extend(own.lines)
    return [Section(key, lines[key]) for key in SECTIONS if lines.get(key)]  # type: ignore[arg-type]


def explain_hand(rules: Variant[Any], s: Any, entered: object, result: dict[str, Any],
                 n: int | None) -> Breakdown:
    """A hand the rules scored, card by card (`entered`: the players as entered)."""
    players = parse_players(entered, with_total=False)
    order = [row["name"] for row in result["players"]]
    players.sort(key=lambda p: order.index(p.name) if p.name in order else len(order))
    ending, ender, rows = rules.explain.breakdown(players, s, result,
                                                  lambda card: rules.points(card, s))
    return Breakdown(n, ending, ender, rows, result.get("knock"))


def example(rules: Variant[Any], s: Any, names: list[str]) -> Breakdown:
    """The variant's example hand between the first two players, scored as a first hand."""
    entered = rules.explain.example(s, names[:2])
    result = rules.score(parse_players(entered), s, None, True)
    return explain_hand(rules, s, entered, result, None)


def rules_sheet(view: dict[str, Any]) -> RulesSheet:
    """The sheet of a game as `GET /api/games/{id}` shows it."""
    rules = variant(view["variant"])
    s = rules.parse(view.get("settings"), lenient=True)
    names = [p["name"] for p in view["players"]]
    hands = view.get("hands") or []
    last = hands[-1] if hands else None
    shown = (explain_hand(rules, s, last["players"], last["result"], last["n"]) if last
             else example(rules, s, names))
    return RulesSheet(rules.name, sections(rules, s, len(names)), card_values(rules, s), shown)


__all__ = ["RulesSheet", "ValueGroup", "card_values", "example", "explain_hand",
           "rules_sheet", "sections"]
