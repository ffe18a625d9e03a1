"""Rummy (§2) and Rummy 10-card (§3): the player who goes out collects the others' hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cards import ACE, Card, pip_value
from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.hand import PlayerHand
from scorekeeper.rules.melds import MeldRules
from scorekeeper.rules.result import hand_result, player_result
from scorekeeper.rules.settings import Rummy10Settings, RummySettings

DECK = DeckSpec(decks=1, jokers=0)
MIN_PLAYERS = 2
MAX_PLAYERS = {"rummy": 6, "rummy10": 5}  # 10-card: 5 × 10 cards is all one deck allows
HIGH_ACE_POINTS = 15
RUMMY_FACTOR = 2  # going rummy (out in one turn, nothing melded before) doubles the hand
LABELS = {"rummy": "Rummy", "rummy10": "Rummy 10-card"}
# The two variants share this module; their settings answer the same questions
# (`variant`, `high_ace`, `hand_limit`, `lowest_collects`), so nothing here asks which it is.
RummyFamily = RummySettings | Rummy10Settings


def card_points(card: Card, s: RummyFamily) -> int:
    if card.rank == ACE and s.high_ace:
        return HIGH_ACE_POINTS
    return pip_value(card)


def meld_rules(s: RummyFamily) -> MeldRules:
    """No wild cards; Q-K-A counts as a run where the ace may be high."""
    return MeldRules(jokers_wild=False, ace_high=s.high_ace)


def score(players: list[PlayerHand], s: RummyFamily,
          hand_number: int | None = None, *, complete: bool = True) -> dict[str, Any]:
    variant = s.variant
    winner = _check(players, variant, complete, s)
    held = {p.name: held_points(p, s) for p in players}
    took = collect(held, winner.name if winner else None, bool(winner and winner.rummy),
                   lowest_collects=s.lowest_collects)
    gains = dict.fromkeys(held, 0)
    if took.collector is not None:
        gains[took.collector] = took.points
    extra: dict[str, Any] = ({"went_out": winner.name, "rummy": winner.rummy} if winner
                             else {"exhausted": True})  # 10-card: the stock ran out a third time
    rows = [player_result(p.name, gains[p.name], p.total + gains[p.name], deadwood=held[p.name],
                          melds=[], unmelded=p.hand, **({"typed": True} if p.typed else {}))
            for p in players]
    return hand_result(rows, **_outcome(rows, s, hand_number), **extra)


@dataclass(frozen=True)
class Collection:
    """Who collects the hand and from whom: the scoring and the rules sheet both read it."""

    collector: str | None  # None: a hand that ran dry with no single lowest (or nobody collects)
    taken: dict[str, int]  # each other player's hand, worth to the collector
    factor: int  # RUMMY_FACTOR for going rummy, else 1

    @property
    def base(self) -> int:
        return sum(self.taken.values())

    @property
    def bonus(self) -> int:
        return (self.factor - 1) * self.base

    @property
    def points(self) -> int:
        return self.base + self.bonus


def collect(held: dict[str, int], went_out: str | None, rummy: bool, *,
            lowest_collects: bool) -> Collection:
    """The collector takes every other hand (`held`: what each is worth): the player who went
    out (doubled for going rummy), or where the stock ran dry the single lowest hand when the
    settings say so."""
    collector = went_out
    if collector is None and lowest_collects:
        low = min(held.values())
        lowest = [n for n, v in held.items() if v == low]
        collector = lowest[0] if len(lowest) == 1 else None
    taken = {n: v for n, v in held.items() if n != collector} if collector is not None else {}
    return Collection(collector, taken, RUMMY_FACTOR if went_out is not None and rummy else 1)


def held_points(p: PlayerHand, s: RummyFamily) -> int:
    """What a player's leftover hand is worth: its cards, or the points typed for it."""
    if p.held is not None:
        return p.held
    return sum(card_points(c, s) for c in p.hand)


def _check(players: list[PlayerHand], variant: str, complete: bool,
           s: RummyFamily) -> PlayerHand | None:
    top = MAX_PLAYERS[variant]
    if not MIN_PLAYERS <= len(players) <= top:
        raise RulesError(f"{variant} needs {MIN_PLAYERS} to {top} players, got {len(players)}",
                         "players_count", variant=variant, min=MIN_PLAYERS, max=top,
                         count=len(players))
    out = [p for p in players if p.went_out]
    for p in players:
        if p.melds:
            raise RulesError(f"{p.name}: melds on the table do not score in {variant}; "
                             "send only the cards left in 'hand'", "melds_not_scored",
                             player=p.name, variant=variant)
        if p.knocked:
            raise RulesError(f"{p.name}: nobody knocks in {variant}; use 'went_out'", "no_knock",
                             player=p.name, variant=variant)
        if p.rummy and not p.went_out:
            raise RulesError(f"{p.name} went rummy but did not go out", "rummy_not_out",
                             player=p.name)
        if p.melded is not None:
            raise RulesError(f"{p.name}: melded points score only in Rummy 500; "
                             "type the points left in the hand", "melded_points_unused",
                             player=p.name, variant=variant)
    if len(out) > 1:
        raise RulesError(f"only one player can go out, got {', '.join(p.name for p in out)}",
                         "out_several", players=[p.name for p in out])
    if not out and variant == "rummy":
        raise RulesError("no winner: one player must have 'went_out'", "out_missing")
    if out and out[0].hand:
        raise RulesError(f"{out[0].name} went out but still holds "
                         f"{' '.join(map(str, out[0].hand))}", "out_holds_cards",
                         player=out[0].name, cards=[str(c) for c in out[0].hand])
    if out and out[0].held:
        raise RulesError(f"{out[0].name} went out but still holds {out[0].held} points",
                         "out_holds_points", player=out[0].name, points=out[0].held)
    DECK.check(c for p in players for c in p.hand)
    deal = deal_size(variant, len(players))
    for p in players:
        if p.held is not None and not p.went_out:
            _check_typed(p, variant, deal, s)
        elif complete and not p.went_out:
            _check_left(p, variant, deal)
    return out[0] if out else None


def deal_size(variant: str, players: int) -> int:
    """Cards dealt to each player: 10 in Rummy 10-card; Rummy by the number of players."""
    if variant == "rummy10" or players <= 2:
        return 10
    return 7 if players <= 4 else 6


def _check_left(p: PlayerHand, variant: str, deal: int) -> None:
    """A player who did not go out holds 1 to `deal` cards: with none they went out, and
    each turn ends with a discard, so nobody ends a hand holding more than the deal."""
    n = len(p.hand)
    label = LABELS[variant]
    if n == 0:
        raise RulesError(f"{p.name} holds no cards; in {label} only the player who went out "
                         "holds none (enter the cards left in the hand)", "hand_empty",
                         player=p.name, variant=variant)
    if n > deal:
        raise RulesError(f"{p.name} holds {n} cards; in {label} a hand left at the end "
                         f"is at most the {deal} dealt", "hand_over_deal", player=p.name,
                         count=n, variant=variant, deal=deal)


def _check_typed(p: PlayerHand, variant: str, deal: int, s: RummyFamily) -> None:
    """Typed points must be what 1 to `deal` leftover cards can be worth."""
    top_card = HIGH_ACE_POINTS if s.high_ace else 10
    held = p.held or 0
    if held == 0:
        raise RulesError(f"{p.name} holds 0 points; in {LABELS[variant]} only the player who "
                         "went out holds nothing (type the points left in the hand)",
                         "points_zero", player=p.name, variant=variant)
    if held > deal * top_card:
        raise RulesError(f"{p.name} holds {held} points, more than the {deal} cards dealt "
                         f"can be worth ({deal * top_card})", "points_over_deal",
                         player=p.name, points=held, deal=deal, max=deal * top_card)


def _outcome(rows: list[dict[str, Any]], s: RummyFamily,
             hand_number: int | None) -> dict[str, Any]:
    top = max(r["total"] for r in rows)
    leaders = [r["name"] for r in rows if r["total"] == top]
    if s.hand_limit is not None:
        over = hand_number is not None and hand_number >= s.hand_limit and len(leaders) == 1
    else:
        over = top >= s.target
    return {"game_over": over, "winner": leaders[0] if over else None}
