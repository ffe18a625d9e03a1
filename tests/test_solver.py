"""The solver against a plain brute force, on random hands full of twos and duplicates."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import Card, full_deck, pip_value
from scorekeeper.rules.melds import MeldRules, is_meld
from scorekeeper.rules.solver import solve
from tests.conftest import cards

SHOE = full_deck() * 2
RULES = [
    MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=True),
    MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=False),
    MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=True, min_naturals=1),
    MeldRules(wild_twos=False, jokers_wild=True, ace_high=True),
]


def brute_force(hand: list[Card], rules: MeldRules) -> int:
    """Least deadwood by trying every way to cut the hand into melds and loose cards."""

    @cache
    def best(rest: tuple[Card, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        low = pip_value(first) + best(others)
        for size in range(2, len(others) + 1):
            for picked in combinations(range(len(others)), size):
                meld = [first] + [others[i] for i in picked]
                if is_meld(meld, rules):
                    left = tuple(c for i, c in enumerate(others) if i not in picked)
                    low = min(low, best(left))
        return low

    return best(tuple(sorted(hand)))


def check(hand: list[Card], rules: MeldRules) -> None:
    sol = solve(hand, rules, pip_value)
    assert sol.deadwood == brute_force(hand, rules), hand
    # the melds it returns are real melds, and melds + unmelded is exactly the hand
    assert all(is_meld(m, rules) for m in sol.melds), sol.melds
    assert Counter(c for m in sol.melds for c in m) + Counter(sol.unmelded) == Counter(hand)
    assert sum(pip_value(c) for c in sol.unmelded) == sol.deadwood


twos = [c for c in SHOE if c.rank == 2]
hands = st.lists(st.sampled_from(SHOE), min_size=1, max_size=9)
wild_heavy = st.tuples(st.lists(st.sampled_from(twos), min_size=2, max_size=5),
                       st.lists(st.sampled_from(SHOE), min_size=1, max_size=5)).map(
    lambda t: t[0] + t[1])
one_suit = st.lists(st.sampled_from([c for c in SHOE if c.suit == "H"]), min_size=3, max_size=9)
few_ranks = st.lists(st.sampled_from([c for c in SHOE if c.rank in (2, 7, 8, 9)]),
                     min_size=3, max_size=9)


def legal(hand: list[Card]) -> bool:
    return all(n <= 2 for n in Counter(hand).values())


@pytest.mark.parametrize("rules", RULES, ids=["chicago", "no-dupes", "naturals", "r500"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hand=st.one_of(hands, wild_heavy, one_suit, few_ranks))
def test_solver_matches_brute_force(rules: MeldRules, hand: list[Card]) -> None:
    if not legal(hand):
        return
    if rules.jokers_wild and not rules.wild_twos:
        hand = [Card(0, "") if c.rank == 2 and c.suit == "S" else c for c in hand]
    check(hand, rules)


CHICAGO = RULES[0]


@pytest.mark.parametrize(("hand", "deadwood"), [
    ("7H 7S 2C 4H 5D 9C KC", 28),            # 7-7-2 set; 4+5+9+10 left
    ("3H 4H 5H 6H 7H 8H 9H", 0),             # one long run, or two
    ("2H 2S 2D 2C KH QS 9D", 9),             # K-2-2 and Q-2-2; the 9 left
    ("AH 2H 3H QS KS AS 5D", 10),            # Q-K-(2) saves 20; A-2-3 would save only 6
    ("7H 7H 7S 8H 9H 10H 2C", 0),            # the second 7H goes in the run
    ("5H 6H 7H 7H 8H 9H KD", 10),            # two runs share neither 7H
    ("2C 2D 2H", 0),                         # three twos meld
    ("2C 2D KH QD", 10),                     # K-2-2 or Q-2-2: the other face card stays
    ("AS AH AD AC 2S 3S 4S", 0),             # A-A-A and A-2-3-4 or A set + 2-3-4
    ("KH AH 2C", 13),                        # K-A-2 never wraps: (2) cannot join K and A
])
def test_worked_hands(hand: str, deadwood: int) -> None:
    sol = solve(cards(hand), CHICAGO, pip_value)
    assert sol.deadwood == deadwood
    check(cards(hand), CHICAGO)


def test_fourteen_cards_with_eight_wilds() -> None:
    hand = cards("2C 2C 2D 2D 2H 2H 2S 2S KH QS 9D 5C 7H JD")
    sol = solve(hand, CHICAGO, pip_value)
    # 9D-(10)-JD takes one wild; K, Q and 7 two each; the 5C would need two more
    assert sol.deadwood == 5
    check(hand, CHICAGO)
