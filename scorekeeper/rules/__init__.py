"""The rules of the four variants: pure functions and a replayable Game, no I/O.

Each variant is a record in `VARIANTS` (`variants.py`); `variant(name)` finds one.

Importing this package never imports torch, OpenCV or FastAPI, so `scorekeeper score`
starts fast.
"""

from scorekeeper.rules.cards import Card, CardError, parse_card, parse_cards
from scorekeeper.rules.chicago import KnockHandSize
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.game import Game, GameDeleted, game_from_events
from scorekeeper.rules.scoring import score_hand, score_line
from scorekeeper.rules.variants import VARIANTS, Variant, parse_settings, variant

__all__ = [
    "VARIANTS",
    "Card",
    "CardError",
    "Game",
    "GameDeleted",
    "KnockHandSize",
    "RulesError",
    "Variant",
    "game_from_events",
    "parse_card",
    "parse_cards",
    "parse_settings",
    "score_hand",
    "score_line",
    "variant",
]
