"""One entry point that scores a hand of any variant: what `scorekeeper score` runs.

What differs between variants is read from their records (`scorekeeper.rules.variants`).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.errors import malformed, shown
from scorekeeper.rules.hand import PlayerHand, parse_players
from scorekeeper.rules.melds import MeldRules
from scorekeeper.rules.settings import VariantSettings
from scorekeeper.rules.variants import VARIANTS, parse_settings, variant, variant_for

_LINE_KEYS = {"variant", "settings", "players", "hand_number"}
LABELS = {v.name: v.label for v in VARIANTS.entries()}  # what players call each variant


def player_limits(name: str) -> tuple[int, int]:
    """Fewest and most players of a variant, from its rules: a game outside them could be
    created but never scored."""
    return variant(name).players


def score_hand(settings: VariantSettings, players: list[PlayerHand],
               hand_number: int | None = None, *, complete: bool = True) -> dict[str, Any]:
    """Score one hand from the totals each player brings into it.

    `complete=False` skips the complete-hand check, for a hand stored before it existed.
    """
    return variant_for(settings).score(players, settings, hand_number, complete)


def deck_for(settings: VariantSettings) -> DeckSpec:
    """The decks a game is played with, so a reading can be checked against them."""
    return variant_for(settings).deck(settings)


def meld_rules_for(settings: VariantSettings) -> MeldRules:
    """What counts as a meld in a game (Rummy and Rummy 10-card: no wild cards)."""
    return variant_for(settings).meld_rules(settings)


def score_line(line: object) -> dict[str, Any]:
    """Score one parsed input line of the `score` contract."""
    if not isinstance(line, dict):
        raise malformed(f"each line must be a JSON object, got {type(line).__name__}",
                        "line", "object")
    unknown = set(line) - _LINE_KEYS
    if unknown:
        raise malformed(f"unknown key {shown(sorted(unknown)[0])}", "line", "unknown_key")
    if "variant" not in line:
        raise malformed("missing 'variant'", "variant", "missing")
    settings = parse_settings(line["variant"], line.get("settings"))
    hand_number = line.get("hand_number")
    if hand_number is not None and (isinstance(hand_number, bool)
                                    or not isinstance(hand_number, int)):
        raise malformed(f"hand_number must be a whole number, got {shown(hand_number)}",
                        "hand_number", "whole")
    return score_hand(settings, parse_players(line.get("players")), hand_number)
