import pytest

from scorekeeper.rules.melds import MeldRules, ace_is_low, is_meld, is_run, is_set
from tests.conftest import cards

CHICAGO = MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=True)
CHICAGO_STRICT = MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=False,
                           min_naturals=1)
R500 = MeldRules(jokers_wild=True, ace_high=True)
R500_LOW = MeldRules(jokers_wild=True, ace_high=False)


@pytest.mark.parametrize(("rules", "hand", "ok"), [
    (CHICAGO, "7H 7S 7D", True),
    (CHICAGO, "7H 7H 7S", True),            # two decks: duplicates allowed by default
    (CHICAGO_STRICT, "7H 7H 7S", False),    # duplicates_in_set false
    (CHICAGO, "7H 7S 7D 7C 7H 7S", True),   # a set may be any size with duplicates
    (CHICAGO_STRICT, "7H 7S 7D 7C 2H", False),  # without duplicates at most four cards
    (CHICAGO, "7H 7S 2C", True),            # a 2 stands in
    (CHICAGO, "7H 2S 2C", True),
    (CHICAGO, "2H 2S 2C", True),            # three wilds
    (CHICAGO_STRICT, "2H 2S 2C", False),    # min_naturals 1: a card that is not a 2
    (CHICAGO, "7H 7S", False),              # too short
    (CHICAGO, "3H 4H 5H", True),
    (CHICAGO, "3H 5H 2D", True),            # 2 fills the gap
    (CHICAGO, "3H 4H 5S", False),           # mixed suits
    (CHICAGO, "AH 2H 3H", True),            # ace low
    (CHICAGO, "QH KH AH", False),           # Chicago: ace low only
    (CHICAGO, "KH AH 2S", False),           # never wraps
    (CHICAGO, "AH 3H 2S", True),            # A-(2)-3
    (CHICAGO, "3H 3H 4H", False),           # a run cannot repeat a card
    (CHICAGO, "3H 7H 2S 2C", False),        # needs three wilds for the gap
    (CHICAGO, "3H 7H 2S 2C 2D", True),
    (R500, "QH KH AH", True),               # Q-K-A in Rummy 500
    (R500, "AH 2H 3H", True),
    (R500, "KH AH 2H", False),              # no wrap
    (R500_LOW, "QH KH AH", False),          # ace: low
    (R500, "JK 5C 5D", True),
    (R500, "AH JK JK", True),
    (R500, "2H 2S 2D", True),               # twos are natural in Rummy 500
    (R500, "5H 5S 5D 5C JK", False),        # one deck: a set holds at most four
    (R500, "JH QH KH AH JK", True),         # joker as 10H below J-Q-K-A
    (R500, "KH AH 2H JK", False),           # never wraps, jokers or not
    (R500, "9H JH QH KH AH JK", True),      # joker as 10H
])
def test_meld_table(rules: MeldRules, hand: str, ok: bool) -> None:
    assert is_meld(cards(hand), rules) is ok


def test_set_and_run_are_told_apart() -> None:
    assert is_set(cards("7H 7S 7D"), CHICAGO) and not is_run(cards("7H 7S 7D"), CHICAGO)
    assert is_run(cards("7H 8H 9H"), CHICAGO) and not is_set(cards("7H 8H 9H"), CHICAGO)


@pytest.mark.parametrize(("hand", "low"), [
    ("AH 2H 3H", True),
    ("AH JK 3H", True),
    ("AH 2H 3H 4H", True),
    ("AH AS AD", False),        # a set of aces
    ("QH KH AH", False),        # high ace
    ("AH JK JK", False),        # reads as a set: full value
    ("AH", False),              # a lone lay-off with no context
])
def test_rummy500_low_ace(hand: str, low: bool) -> None:
    assert ace_is_low(cards(hand), R500) is low
