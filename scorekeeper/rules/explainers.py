"""Each variant's part of the rules sheet: its statements, its hands explained, its example.

The numbers come from the variant's own modules (the knock limit, the rummy factor, an
ace's points inside A-2-3), so the sheet says what the scoring does. The example hands are
valid under every setting: the tests score each under all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.rules import chicago, rummy, rummy500
from scorekeeper.rules.cards import ACE, Card, parse_cards
from scorekeeper.rules.explain import (
    Counted,
    Explained,
    Explainer,
    HandEnding,
    Line,
    Part,
    PlayerBreakdown,
    Scored,
    Section,
    cards_part,
    counted,
    rows_by_name,
    typed_part,
)
from scorekeeper.rules.hand import PlayerHand
from scorekeeper.rules.settings import (
    ChicagoSettings,
    Rummy10Settings,
    Rummy500Settings,
    RummySettings,
)

Value = Callable[[Card], int]


# ---- Chicago ------------------------------------------------------------------------------

def _chicago_lines(s: ChicagoSettings) -> list[Section]:
    scoring = [Line("chicago.knockLimit", {"ceiling": chicago.KNOCK_CEILING,
                                           "base": chicago.KNOCK_BASE})]
    if s.elimination_total > chicago.KNOCK_BASE:  # a player at the base is still in
        scoring.append(Line("chicago.noKnock", {"n": chicago.KNOCK_BASE}))
    scoring.append(Line("chicago.score"))
    if s.knock_penalty:
        scoring.append(Line("chicago.penalty", {"n": s.knock_penalty}))
        scoring.append(Line(f"chicago.tie.{s.knocker_tie}"))
    else:
        scoring.append(Line("chicago.noPenalty"))
    scoring += [Line("chicago.rummy"), Line(f"chicago.shows.{s.knocker_shows}")]
    end = [] if s.instant_win == "off" else [Line(f"chicago.instant.{s.instant_win}")]
    return [Section("play", [Line("chicago.end")]), Section("scoring", scoring),
            Section("end", end)]


def _chicago_breakdown(players: list[PlayerHand], s: ChicagoSettings, result: Scored,
                       value: Value) -> Explained:
    rows = rows_by_name(result)
    knock = result.get("knock")
    ender = next((p.name for p in players if chicago.ends_hand(p)), None)
    out = []
    for p in players:
        row = rows[p.name]
        parts = [typed_part("deadwood", row["deadwood"]) if p.typed else
                 cards_part("deadwood", counted(parse_cards(row["unmelded"]), value))]
        if row.get("penalty"):
            parts.append(Part("penalty", row["penalty"], row["penalty"]))
        out.append(PlayerBreakdown(p.name, row["points"], row["total"], parts,
                                   melds=row["melds"], dropped=row.get("dropped")))
    return ("knocked" if knock else "rummy"), ender, out


def _chicago_example(s: ChicagoSettings, names: list[str]) -> list[dict[str, Any]]:
    """A knock with 9 that another player undercuts with 1: the knocker pays the penalty."""
    return [{"name": names[0], "knocked": True,
             "hand": ["7H", "7S", "7D", "9C", "KC", "KS", "2C"]},
            {"name": names[1], "hand": ["4H", "5H", "6H", "8S", "8D", "8C", "AD"]}]


CHICAGO = Explainer[ChicagoSettings](_chicago_lines, _chicago_breakdown, _chicago_example)


# ---- Rummy and Rummy 10-card --------------------------------------------------------------

def _rummy_lines(s: rummy.RummyFamily) -> list[Section]:
    play = [Line("rummy.end")]
    scoring = [Line("rummy.score"), Line("rummy.bonus", {"n": rummy.RUMMY_FACTOR})]
    if isinstance(s, Rummy10Settings):
        scoring.append(Line(f"rummy.exhausted.{s.exhausted_hand}"))
    elif s.final_discard_required:
        play.append(Line("rummy.finalDiscard"))
    return [Section("play", play), Section("scoring", scoring)]


def _held(p: PlayerHand, value: Value, *, counts: bool, sign: int = 1) -> list[Part]:
    """What a player holds: the cards, or the points typed for them; nothing: no part."""
    if p.held is not None:
        return [typed_part("held", p.held, sign, counts=counts)]
    return [cards_part("held", counted(p.hand, value), sign, counts=counts)] if p.hand else []


def _rummy_breakdown(players: list[PlayerHand], s: rummy.RummyFamily, result: Scored,
                     value: Value) -> Explained:
    rows = rows_by_name(result)
    out_player = result.get("went_out")
    # the scoring's own arithmetic on the hands' worth as scored: who collects, and what
    took = rummy.collect({n: r["deadwood"] for n, r in rows.items()}, out_player,
                         bool(result.get("rummy")), lowest_collects=s.lowest_collects)
    out = []
    for p in players:
        parts = _held(p, value, counts=False)
        if p.name == took.collector:
            parts += [Part("collected", took.taken[q.name], took.taken[q.name], source=q.name)
                      for q in players if q.name != p.name]
            if result.get("rummy"):
                parts.append(Part("rummy_bonus", took.bonus, took.base))
        row = rows[p.name]
        out.append(PlayerBreakdown(p.name, row["points"], row["total"], parts))
    ending: HandEnding = (("rummy" if result.get("rummy") else "went_out") if out_player
                          else "exhausted")
    return ending, out_player, out


def _rummy_example(s: rummy.RummyFamily, names: list[str]) -> list[dict[str, Any]]:
    """One player goes out; the other is left with four cards, an ace among them."""
    return [{"name": names[0], "went_out": True, "hand": []},
            {"name": names[1], "hand": ["7C", "9D", "KS", "AH"]}]


RUMMY = Explainer[RummySettings](_rummy_lines, _rummy_breakdown, _rummy_example)
RUMMY10 = Explainer[Rummy10Settings](_rummy_lines, _rummy_breakdown, _rummy_example)


# ---- Rummy 500 ----------------------------------------------------------------------------

def _rummy500_lines(s: Rummy500Settings) -> list[Section]:
    play = [Line("r500.end")] + ([Line("r500.floating")] if s.floating else [])
    low = rummy500.card_points(Card(ACE, "S"), s, low_ace=True)
    return [Section("play", play),
            Section("scoring", [Line("r500.score"), Line("r500.lowAce", {"n": low})])]


def _rummy500_breakdown(players: list[PlayerHand], s: Rummy500Settings, result: Scored,
                        value: Value) -> Explained:
    rows = rows_by_name(result)
    out = []
    for p in players:
        parts = [cards_part("melded", [Counted(str(c), v) for c, v in
                                       zip(m.cards, rummy500.entry_values(m, s), strict=True)])
                 for m in p.melds if m.cards]
        if p.melded is not None:
            parts.append(typed_part("melded", p.melded))
        if p.hand:
            parts.append(cards_part("held", counted(p.hand, value), -1))
        if p.held is not None:
            parts.append(typed_part("held", p.held, -1))
        row = rows[p.name]
        out.append(PlayerBreakdown(p.name, row["points"], row["total"], parts))
    return "shown", None, out


def _rummy500_example(s: Rummy500Settings, names: list[str]) -> list[dict[str, Any]]:
    """Two melds (one an A-2-3 run) and a lay-off on them by the other player, who still
    holds an ace: the ace is worth less in the run than in the hand."""
    sevens = ["7H", "7S", "7D"]
    return [{"name": names[0], "melds": [sevens, ["AC", "2C", "3C"]], "hand": ["KD"]},
            {"name": names[1], "melds": [{"cards": ["7C"], "on": sevens}],
             "hand": ["AS", "5D"]}]


RUMMY500 = Explainer[Rummy500Settings](_rummy500_lines, _rummy500_breakdown,
                                       _rummy500_example)

__all__ = ["CHICAGO", "RUMMY", "RUMMY10", "RUMMY500"]
