"""Meld boundaries that mutation testing found unpinned: sizes, limits and wild cards.

Each row is a rule of RULES.md at its edge (a set of exactly four, a run of exactly 13, a
meld with exactly the natural cards it needs), so a rule that moves by one card fails here.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import JOKER, Card
from scorekeeper.rules.melds import MeldRules, ace_is_low, is_meld, is_run, is_set, run_fits
from tests.conftest import cards

CHICAGO = MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=True)
NO_DUPES = MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=False)
NATURALS = MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=True, min_naturals=1)
NATURALS_2 = MeldRules(wild_twos=True, jokers_wild=False, min_naturals=2)
R500 = MeldRules(jokers_wild=True, ace_high=True)
R500_LOW = MeldRules(jokers_wild=True, ace_high=False)
PLAIN = MeldRules(jokers_wild=False)  # Rummy and Rummy 10-card: nothing is wild
HEARTS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


@pytest.mark.parametrize(("rules", "hand", "is_a_set"), [
    (R500, "5H 5S 5D 5C", True),             # four suits: the most without duplicates
    (R500, "5H 5S JK JK", True),             # four with two jokers
    (R500, "5H 5S 5D JK JK", False),         # five: one suit would repeat
    (R500, "5H 5H 5S", False),               # a repeated suit
    (R500, "5H 5S", False),
    (R500, "5H 5S JK", True),                # exactly three
    (R500, "JK JK JK", True),
    (NO_DUPES, "7H 7S 7D 2C", True),         # a 2 makes the fourth
    (NO_DUPES, "7H 7S 7D 7C 2C", False),     # and no fifth
    (CHICAGO, "7H 7H 7S 7S 7D 7D 7C 7C 2H 2S", True),  # two decks: any size
    (NATURALS, "7H 2S 2C", True),            # exactly the one natural card it needs
    (NATURALS, "2H 2S 2C", False),
    (NATURALS_2, "7H 7S 2C", True),
    (NATURALS_2, "7H 2S 2C", False),         # one natural is not two
    (PLAIN, "JK JK JK", False),              # without wild jokers a joker is no card at all
    (PLAIN, "7H 7S JK", False),
    (PLAIN, "7H 7S 7D", True),
])
def test_set_edges(rules: MeldRules, hand: str, is_a_set: bool) -> None:
    assert is_set(cards(hand), rules) is is_a_set


@pytest.mark.parametrize(("rules", "hand", "is_a_run"), [
    (CHICAGO, HEARTS, True),                       # 13 cards: the longest run
    (CHICAGO, HEARTS + " 2C", False),              # 14 cannot fit between A and K
    (R500, HEARTS + " JK", False),
    (R500, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True),  # 13 with the ace high
    (R500, "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JK", True),  # joker as the 2
    (CHICAGO, "3H 4H", False),
    (CHICAGO, "3H 4H 2S", True),
    (CHICAGO, "QH KH 2S", True),                   # J or A... J: never past the king
    (CHICAGO, "KH 2S 2D", True),                   # J-Q-K
    (CHICAGO, "AH 2S 2D", True),                   # A-2-3
    (R500, "QH KH JK JK", True),                   # 10-J-Q-K or J-Q-K-A
    (R500_LOW, "QH KH AH", False),
    (R500_LOW, "QH KH JK JK", True),               # 10-J-Q-K
    (R500, "KH AH 2H", False),                     # never wraps
    (R500, "AH 2H 3H", True),
    (R500_LOW, "AH 2H 3H", True),
    (NATURALS, "7H 2S 2C", True),
    (NATURALS, "2H 2S 2C", False),
    (NATURALS_2, "7H 8H 2C", True),
    (NATURALS_2, "7H 2S 2C", False),
    (PLAIN, "7H 8H JK", False),                    # no wild cards in Rummy
    (PLAIN, "7H 8H 9H", True),
])
def test_run_edges(rules: MeldRules, hand: str, is_a_run: bool) -> None:
    assert is_run(cards(hand), rules) is is_a_run


@pytest.mark.parametrize(("ace", "hand", "ok"), [
    ("low", "AH 2H 3H", True),
    ("high", "AH 2H 3H", False),
    ("low", "QH KH AH", False),
    ("high", "QH KH AH", True),
    ("any", "QH KH AH", True),
    ("high", "7H 8H 9H", True),                    # no ace: where it sits does not matter
    ("high", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True),  # 2 up to a high ace
])
def test_run_with_the_ace_pinned(ace: str, hand: str, ok: bool) -> None:
    assert is_run(cards(hand), R500, ace=ace) is ok


def test_thirteen_wilds_make_the_longest_run_and_fourteen_none() -> None:
    twos = [Card(2, s) for s in "CDHS"] * 4
    assert is_run(twos[:13], CHICAGO) is True
    assert is_run(twos[:14], CHICAGO) is False
    assert run_fits([], 13, 1) and not run_fits([], 14, 1)


@pytest.mark.parametrize(("ranks", "length", "low", "fits"), [
    ([1, 3], 3, 1, True),
    ([1, 13], 13, 1, True),
    ([2, 13], 13, 1, True),
    ([1, 13], 3, 1, False),
    ([12, 14], 3, 2, True),
    ([2, 14], 13, 2, True),
    ([1], 3, 2, False),              # below the window
    ([13], 4, 1, True),              # 10-J-Q-K
    ([14], 4, 2, True),              # J-Q-K-A
    ([5, 9], 4, 1, False),           # 5..9 spans five cards
    ([14], 3, 1, False),             # a high ace is outside the ace-low window
])
def test_run_fits(ranks: list[int], length: int, low: int, fits: bool) -> None:
    assert run_fits(ranks, length, low) is fits


def test_nothing_is_wild_unless_the_variant_says_so() -> None:
    assert not MeldRules().is_wild(JOKER) and not MeldRules().is_wild(Card(2, "H"))
    assert is_set(cards("7H 7S JK"), MeldRules()) is False


@pytest.mark.parametrize(("rules", "card", "wild"), [
    (CHICAGO, Card(2, "H"), True),
    (CHICAGO, JOKER, False),          # Chicago has no jokers: never wild there
    (R500, JOKER, True),
    (R500, Card(2, "H"), False),      # twos are natural in Rummy 500
    (PLAIN, JOKER, False),
])
def test_what_is_wild(rules: MeldRules, card: Card, wild: bool) -> None:
    assert rules.is_wild(card) is wild


@pytest.mark.parametrize(("hand", "low"), [
    ("AH 2H JK", True),               # the joker is the 3
    ("AH JK JK 4H", True),            # the jokers are the 2 and 3
    ("QH KH AH JK", False),           # J-Q-K-A
    ("KH AH JK", False),              # Q-K-A: the joker is the queen
    ("AH 2H", False),                 # two cards are no meld: the ace keeps its value
    ("2H 3H 4H", False),              # no ace at all
    # A..K with a joker for the 3 (or the 2) reads as 2..A too: a natural 2 or 3 says low
    ("AH 2H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", True),
    ("AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", True),
    # A..K with jokers for the 2 and 3 reads as 2..A too: no natural 2 or 3, so full value
    ("AH 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK", False),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True),  # A..K: the ace sits below the 2
])
def test_when_an_ace_is_low(hand: str, low: bool) -> None:
    assert ace_is_low(cards(hand), R500) is low


def test_set_and_run_answers_are_booleans() -> None:
    """Callers compare with `is`; a None would read as false but is not an answer."""
    for hand in ("7H", "7H 7S", "7H 8S 9D", "7H 7H 7H 7H 7H"):
        assert is_set(cards(hand), R500) is False
        assert is_run(cards(hand), R500) is False
        assert is_meld(cards(hand), R500) is False
