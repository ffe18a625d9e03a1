"""What counts as a meld, under every meld setting of RULES.md.

This is the direct, readable definition. The solver enumerates melds its own faster way and
the property tests check the two agree.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules.cards import ACE, SUITS, Card

MAX_RUN = 13


@dataclass(frozen=True)
class MeldRules:
    wild_twos: bool = False  # Chicago: every 2 is wild
    jokers_wild: bool = False  # Rummy 500; where jokers are not wild, a joker melds nowhere
    ace_high: bool = False  # Q-K-A allowed as well as A-2-3 (never wrapping)
    duplicates_in_set: bool = False  # two identical cards in one set; sets of any size
    min_naturals: int = 0  # cards in a meld that are not wild

    def is_wild(self, card: Card) -> bool:
        if card.is_joker:
            return self.jokers_wild
        return self.wild_twos and card.rank == 2

    @property
    def max_set(self) -> int:
        """Without duplicates a set holds each suit at most once, so at most four cards."""
        return sys.maxsize if self.duplicates_in_set else len(SUITS)


def natural_cards(cards: Sequence[Card], rules: MeldRules) -> list[Card]:
    return [c for c in cards if not rules.is_wild(c)]


def is_set(cards: Sequence[Card], rules: MeldRules) -> bool:
    naturals = natural_cards(cards, rules)
    if len(cards) < 3 or len(cards) > rules.max_set or len(naturals) < rules.min_naturals:
        return False
    if len({c.rank for c in naturals}) > 1:
        return False
    return rules.duplicates_in_set or len({c.suit for c in naturals}) == len(naturals)


def run_fits(ranks: Sequence[int], length: int, low: int) -> bool:
    """Whether distinct ranks fit in some run of `length` cards within low..low+12."""
    if not ranks:
        return length <= MAX_RUN
    lo, hi = min(ranks), max(ranks)
    return max(low, hi - length + 1) <= min(lo, low + MAX_RUN - length)


def is_run(cards: Sequence[Card], rules: MeldRules, ace: str = "any") -> bool:
    """A run; `ace` = "low" or "high" restricts where an ace may sit."""
    naturals = natural_cards(cards, rules)
    n = len(cards)
    if n < 3 or n > MAX_RUN or len(naturals) < rules.min_naturals:
        return False
    if len({c.suit for c in naturals}) > 1:
        return False
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    fits_low = ace != "high" and run_fits(ranks, n, 1)
    if fits_low or not rules.ace_high or ace == "low":
        return fits_low
    return run_fits([14 if r == ACE else r for r in ranks], n, 2)


def is_meld(cards: Sequence[Card], rules: MeldRules) -> bool:
    return is_set(cards, rules) or is_run(cards, rules)


def ace_is_low(cards: Sequence[Card], rules: MeldRules) -> bool:
    """Whether the aces of this meld sit below a 2 and a 3 (Rummy 500's one-point ace).

    A list that also reads as a set, or as Q-K-A without the 2 or 3 actually present,
    keeps its aces at full value: a joker's declared rank is not in the card codes.
    """
    naturals = natural_cards(cards, rules)
    aces = [c for c in naturals if c.rank == ACE]
    if not aces or is_set(cards, rules) or not is_run(cards, rules, ace="low"):
        return False
    if not (rules.ace_high and is_run(cards, rules, ace="high")):
        return True
    return any(c.rank in (2, 3) for c in naturals)
