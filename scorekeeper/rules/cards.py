"""Card codes: parsing, canonical printing and point values.

A card is a small immutable value so that two identical cards from two decks compare equal
and a hand can be counted with a Counter.
"""

from __future__ import annotations

from typing import NamedTuple

from scorekeeper.rules.errors import RulesError, malformed, shown

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13

_SUIT_ALIASES = {"C": "C", "D": "D", "H": "H", "S": "S", "♣": "C", "♦": "D", "♥": "H", "♠": "S",
                 "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
_RANK_ALIASES = {r: i + 1 for i, r in enumerate(RANKS)} | {"T": 10}


class CardError(RulesError):
    """A card code that names no card, or a card that cannot exist in the game's decks."""


class Card(NamedTuple):
    rank: int  # 1 (ace) .. 13 (king); 0 for a joker
    suit: str  # one of SUITS; "" for a joker

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        return "JK" if self.is_joker else f"{RANKS[self.rank - 1]}{self.suit}"

    def __repr__(self) -> str:
        return f"Card({self})"


JOKER = Card(JOKER_RANK, "")


def parse_card(code: object) -> Card:
    """Parse a card code such as ``10H``, ``th``, ``Q♠`` or ``JK``."""
    if isinstance(code, Card):
        return code
    if not isinstance(code, str):
        raise malformed(f"card codes are strings, got {shown(code)}", "card", "text",
                        kind=CardError)
    text = code.strip().upper()
    if text in ("JK", "JOKER"):
        return JOKER
    if len(text) < 2 or text[-1] not in _SUIT_ALIASES or text[:-1] not in _RANK_ALIASES:
        raise CardError(f"unknown card {shown(code)}", "card_unknown", card=code[:12])
    return Card(_RANK_ALIASES[text[:-1]], _SUIT_ALIASES[text[-1]])


def parse_cards(codes: object) -> list[Card]:
    if not isinstance(codes, list):
        raise malformed(f"expected a list of card codes, got {shown(codes)}", "cards", "list",
                        kind=CardError)
    return [parse_card(c) for c in codes]


def card_codes(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def pip_value(card: Card) -> int:
    """The common point value: A = 1, 2..10 = pips, J/Q/K = 10 (jokers have no pip value)."""
    return min(card.rank, 10)


def full_deck() -> list[Card]:
    return [Card(r, s) for s in SUITS for r in range(1, 14)]
