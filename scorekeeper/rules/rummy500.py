"""Rummy 500 (§4): every player scores the cards in front of them minus the cards held."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.cards import ACE, Card
from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.hand import MeldEntry, PlayerHand
from scorekeeper.rules.melds import MeldRules, ace_is_low
from scorekeeper.rules.result import hand_result, player_result
from scorekeeper.rules.settings import Rummy500Settings

LABEL = "Rummy 500"
MIN_PLAYERS = 2
MAX_PLAYERS = 8


def meld_rules(s: Rummy500Settings) -> MeldRules:
    return MeldRules(jokers_wild=True, ace_high=s.ace == "high_or_low", duplicates_in_set=False)


def deck(s: Rummy500Settings) -> DeckSpec:
    return DeckSpec(decks=s.decks, jokers=s.jokers * s.decks)


def card_points(card: Card, s: Rummy500Settings, *, low_ace: bool = False) -> int:
    five = s.scoring == "5-10-15"
    if card.is_joker:
        return 15
    if card.rank == ACE:
        return (5 if five else 1) if low_ace else 15
    if card.rank >= 10:
        return 10
    return 5 if five else card.rank


def entry_values(entry: MeldEntry, s: Rummy500Settings) -> list[int]:
    """Each card of a meld or lay-off in front of a player; aces are low only in A-2-3."""
    low = ace_is_low(list(entry.on) + list(entry.cards), meld_rules(s))
    return [card_points(c, s, low_ace=low) for c in entry.cards]


def entry_points(entry: MeldEntry, s: Rummy500Settings) -> int:
    """A meld or lay-off in front of a player: what its cards add up to."""
    return sum(entry_values(entry, s))


def score(players: list[PlayerHand], s: Rummy500Settings) -> dict[str, Any]:
    _check(players, s)
    rows = []
    for p in players:
        melded = sum(entry_points(m, s) for m in p.melds) + (p.melded or 0)
        held = sum(card_points(c, s) for c in p.hand) + (p.held or 0)
        points = melded - held
        rows.append(player_result(p.name, points, p.total + points, deadwood=held,
                                  melds=[m.cards for m in p.melds], unmelded=p.hand,
                                  melded=melded, held=held,
                                  **({"typed": True} if p.typed else {})))
    top = max(r["total"] for r in rows)
    leaders = [r["name"] for r in rows if r["total"] == top]
    over = top >= s.target and len(leaders) == 1
    tied = top >= s.target and len(leaders) > 1
    tie: dict[str, Any] = {"tie_at_top": leaders} if tied else {}
    return hand_result(rows, game_over=over, winner=leaders[0] if over else None, **tie)


def _check(players: list[PlayerHand], s: Rummy500Settings) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RulesError(f"{LABEL} needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"got {len(players)}", "players_count", variant="rummy500",
                         min=MIN_PLAYERS, max=MAX_PLAYERS, count=len(players))
    for p in players:
        if p.knocked:
            raise RulesError(f"{p.name}: nobody knocks in {LABEL}", "no_knock", player=p.name,
                             variant="rummy500")
        for typed in (p.held, p.melded):
            if s.scoring == "5-10-15" and typed is not None and typed % 5:
                raise RulesError(f"{p.name}: {typed} points cannot be made of cards worth "
                                 "5, 10 and 15; check the points typed", "points_not_5_10_15",
                                 player=p.name, points=typed)
    deck(s).check(c for p in players for c in p.all_cards())
