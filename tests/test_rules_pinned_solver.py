"""The solver under the meld settings the main property test leaves out (two natural cards,
no duplicates with one natural, ace low with jokers, no wild cards), and hands of mostly
wild twos, where a set and a run of the same cards hold different numbers of wilds."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import JOKER, Card, full_deck, pip_value
from scorekeeper.rules.melds import MeldRules
from scorekeeper.rules.solver import solve
from tests.conftest import cards
from tests.test_solver import check, legal

SHOE = full_deck() * 2
TWOS = [c for c in SHOE if c.rank == 2]
RULES = {
    "chicago": MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=True),
    "naturals-2": MeldRules(wild_twos=True, jokers_wild=False, min_naturals=2),
    "no-dupes-naturals": MeldRules(wild_twos=True, jokers_wild=False, min_naturals=1),
    "r500-ace-low": MeldRules(jokers_wild=True),
    "plain": MeldRules(jokers_wild=False),
    "plain-ace-high": MeldRules(jokers_wild=False, ace_high=True),
}
many_twos = st.tuples(st.lists(st.sampled_from(TWOS), min_size=3, max_size=6),
                      st.lists(st.sampled_from(SHOE), min_size=1, max_size=3)).map(
    lambda t: t[0] + t[1])
near_runs = st.lists(st.sampled_from([c for c in SHOE if c.suit == "S" and c.rank in
                                      (1, 2, 3, 4, 5, 11, 12, 13)]), min_size=3, max_size=8)
hands = st.lists(st.sampled_from(SHOE), min_size=1, max_size=8)


def as_jokers(hand: list[Card]) -> list[Card]:
    """For rules with wild jokers: the 2 of spades plays the joker."""
    return [JOKER if c == Card(2, "S") else c for c in hand]


@pytest.mark.parametrize("name", [n for n in RULES if n != "chicago"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much],
          derandomize=True)
@given(hand=st.one_of(many_twos, near_runs, hands))
def test_solver_matches_brute_force_under_more_settings(name: str, hand: list[Card]) -> None:
    if not legal(hand):
        return
    rules = RULES[name]
    check(as_jokers(hand) if rules.jokers_wild else hand, rules)


@pytest.mark.parametrize(("name", "hand", "deadwood"), [
    # one natural and six twos: one run of seven (a set without duplicates stops at four)
    ("no-dupes-naturals", "7H 2C 2D 2S 2H 2C 2D", 0),
    ("no-dupes-naturals", "2C 2D 2S 2H 2C 2D", 12),     # no natural card: nothing melds
    ("naturals-2", "7H 2C 2D", 11),                     # one natural is not enough
    ("naturals-2", "7H 8H 2D", 0),
    ("naturals-2", "7H 7S 2D 2C", 0),
    ("naturals-2", "7H 2C 2D 9S 2H 2S", 24),            # two lone naturals: no meld
    ("plain", "AH 2H 3H QS KS AS", 21),                 # Q-K-A is no run with the ace low
    ("plain-ace-high", "AH 2H 3H QS KS AS", 0),
    ("plain", "7H 8H 9H 2C", 2),                        # a 2 is just a 2
    ("plain", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 0),  # the longest run
    ("plain-ace-high", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", 0),
    ("chicago", "AH 4H 2C KS", 17),                     # A-(2)-(3)-4 needs two wilds
    ("chicago", "2C 2D", 4),                            # two wilds are no meld
    ("chicago", "2C 2D 2H", 0),
    ("naturals-2", "7H 7S 2C 2D 2H 2S", 4),             # a set stops at four cards
])
def test_worked_hands_under_more_settings(name: str, hand: str, deadwood: int) -> None:
    rules = RULES[name]
    assert solve(cards(hand), rules, pip_value).deadwood == deadwood
    check(cards(hand), rules)


def test_a_run_stops_at_thirteen_cards_however_many_wilds() -> None:
    # not a hand from real decks (12 twos): the solver alone, at the run's length limit
    hand = cards("7H 8H") + [Card(2, s) for s in "CDHS"] * 3
    sol = solve(hand, RULES["naturals-2"], pip_value)
    assert sol.deadwood == 2 and [len(m) for m in sol.melds] == [13]
    # an ace and a king that may only meld together: A..K, eleven wilds between them
    hand = cards("AH KH") + [Card(2, s) for s in "CDHS"] * 3
    sol = solve(hand[:13], RULES["naturals-2"], pip_value)
    assert sol.deadwood == 0 and [len(m) for m in sol.melds] == [13]


def test_two_naturals_share_four_wilds() -> None:
    # K-K-2-2 would leave two twos that cannot meld alone: K-(2)-(2) twice melds all
    sol = solve(cards("KH KS 2C 2D 2H 2S"), RULES["no-dupes-naturals"], pip_value)
    assert sol.deadwood == 0 and [len(m) for m in sol.melds] == [3, 3]


def test_the_most_valuable_wild_is_the_one_melded() -> None:
    rules = MeldRules(jokers_wild=True, wild_twos=True)
    value = {0: 15, 2: 2}
    # a set without duplicates holds four: 7-7-7 takes one wild, the joker (15), not the 2
    sol = solve(cards("7H 7S 7D JK 2C"), rules, lambda c: value.get(c.rank, c.rank))
    assert sol.deadwood == 2 and sol.unmelded == (Card(2, "C"),)
