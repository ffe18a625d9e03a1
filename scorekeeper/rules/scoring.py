"""One entry point that scores a hand of any variant: what `scorekeeper score` runs."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import chicago, rummy, rummy500
from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.errors import RulesError, shown
from scorekeeper.rules.hand import PlayerHand, parse_players
from scorekeeper.rules.melds import MeldRules
from scorekeeper.rules.settings import (
    ChicagoSettings,
    Rummy10Settings,
    Rummy500Settings,
    RummySettings,
    parse_settings,
)

_LINE_KEYS = {"variant", "settings", "players", "hand_number"}
LABELS = {"chicago": "Chicago Rummy", "rummy": "Rummy", "rummy10": "Rummy 10-card",
          "rummy500": "Rummy 500"}
MIN_PLAYERS = 2
MOST_PLAYERS = {"chicago": chicago.MAX_PLAYERS, **rummy.MAX_PLAYERS,
                "rummy500": rummy500.MAX_PLAYERS}


def player_limits(variant: str) -> tuple[int, int]:
    """Fewest and most players of a variant, from its rules: a game outside them could be
    created but never scored."""
    return MIN_PLAYERS, MOST_PLAYERS[variant]


def score_hand(settings: Any, players: list[PlayerHand], hand_number: int | None = None,
               *, complete: bool = True) -> dict[str, Any]:
    """Score one hand from the totals each player brings into it.

    `complete=False` skips the complete-hand check, for a hand stored before it existed.
    """
    if isinstance(settings, ChicagoSettings):
        return chicago.score(players, settings, complete=complete)
    if isinstance(settings, RummySettings | Rummy10Settings):
        return rummy.score(players, settings, hand_number, complete=complete)
    if isinstance(settings, Rummy500Settings):
        return rummy500.score(players, settings)
    raise TypeError(f"not a variant's settings: {settings!r}")


def deck_for(settings: Any) -> DeckSpec:
    """The decks a game is played with, so a reading can be checked against them."""
    if isinstance(settings, ChicagoSettings):
        return chicago.DECK
    if isinstance(settings, Rummy500Settings):
        return rummy500.deck(settings)
    return rummy.DECK


def meld_rules_for(settings: Any) -> MeldRules:
    """What counts as a meld in a game (Rummy and Rummy 10-card: no wild cards)."""
    if isinstance(settings, ChicagoSettings):
        return chicago.meld_rules(settings)
    if isinstance(settings, Rummy500Settings):
        return rummy500.meld_rules(settings)
    high = isinstance(settings, RummySettings) and settings.ace == "high_or_low"
    return MeldRules(jokers_wild=False, ace_high=high)


def score_line(line: object) -> dict[str, Any]:
    """Score one parsed input line of the `score` contract."""
    if not isinstance(line, dict):
        raise RulesError(f"each line must be a JSON object, got {type(line).__name__}")
    unknown = set(line) - _LINE_KEYS
    if unknown:
        raise RulesError(f"unknown key {shown(sorted(unknown)[0])}")
    if "variant" not in line:
        raise RulesError("missing 'variant'")
    settings = parse_settings(line["variant"], line.get("settings"))
    hand_number = line.get("hand_number")
    if hand_number is not None and (isinstance(hand_number, bool)
                                    or not isinstance(hand_number, int)):
        raise RulesError(f"hand_number must be a whole number, got {shown(hand_number)}")
    return score_hand(settings, parse_players(line.get("players")), hand_number)
