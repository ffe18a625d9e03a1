"""The 53 card identities the models name, in one fixed order (52 cards, then the joker)."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.rules.cards import RANKS, SUITS

JOKER = "JK"
CARD_CODES: tuple[str, ...] = (*(f"{r}{s}" for s in SUITS for r in RANKS), JOKER)
NONE = len(CARD_CODES)  # the classifier's "not a card index" class
CLASSIFIER_CLASSES: tuple[str, ...] = (*CARD_CODES, "none")
DETECTOR_CLASSES: tuple[str, ...] = ("index", "card")
# a detector that names the card itself: each index boxed as its card, then the whole card
CARD_DETECTOR_CLASSES: tuple[str, ...] = (*CARD_CODES, "card")
INDEX, CARD = 0, 1


def names_cards(names: Sequence[str]) -> bool:
    """Whether a detector of these classes names the cards (`CARD_DETECTOR_CLASSES`): it
    needs one NMS over all its classes, and its boxes are read by their names."""
    return tuple(names) == CARD_DETECTOR_CLASSES

RANK_NAMES = {"9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def rank_of(code: str) -> str:
    return JOKER if code == JOKER else code[:-1]
