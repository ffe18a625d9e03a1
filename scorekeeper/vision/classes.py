"""The 53 card identities the models name, in one fixed order (52 cards, then the joker)."""

from __future__ import annotations

from scorekeeper.rules.cards import RANKS, SUITS

CARD_CODES: tuple[str, ...] = (*(f"{r}{s}" for s in SUITS for r in RANKS), "JK")
NONE = len(CARD_CODES)  # the classifier's "not a card index" class
CLASSIFIER_CLASSES: tuple[str, ...] = (*CARD_CODES, "none")
DETECTOR_CLASSES: tuple[str, ...] = ("index", "card")
INDEX, CARD = 0, 1
RANK_NAMES = {"9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def rank_of(code: str) -> str:
    return "JK" if code == "JK" else code[:-1]
