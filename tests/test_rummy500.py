"""Rummy 500 (§4): melded minus held, with the A-2-3 ace and jokers; worked by hand."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RulesError
from tests.helpers_score import p, row, score


@pytest.mark.parametrize(("melds", "hand", "settings", "points"), [
    (["AH 2H 3H"], "", {}, 6),                     # low ace: 1 + 2 + 3
    (["QH KH AH"], "", {}, 35),                    # high ace: 10 + 10 + 15
    (["AS AD AC"], "", {}, 45),
    (["AH JK 3H"], "", {}, 19),                    # 1 + 15 + 3: the joker is the 2
    (["7C 8C 9C", "KS"], "AD 4H", {}, 24 + 10 - 19),
    ([], "JK 9D", {}, -24),                        # negative: 15 + 9 held
    (["AH 2H 3H"], "", {"scoring": "5-10-15"}, 15),   # low ace 5 + 5 + 5
    (["9S 10S JS QS"], "AC", {"scoring": "5-10-15"}, 5 + 30 - 15),
    (["JK 5C 5D"], "2S", {"scoring": "5-10-15"}, 25 - 5),
    (["QH KH AH"], "", {"ace": "low"}, 35),        # not a meld then, still 10+10+15
])
def test_melded_minus_held(melds: list[str], hand: str, settings: dict, points: int) -> None:
    r = score("rummy500", p("Ann", hand, melds=melds, total=100), p("Bob", "5S"), **settings)
    assert row(r, "Ann")["points"] == points
    assert row(r, "Ann")["total"] == 100 + points
    assert row(r, "Bob")["points"] == -5  # a 5 is 5 in both scorings


def test_lay_off_can_name_the_meld_it_joins() -> None:
    line = {"variant": "rummy500", "players": [
        {"name": "Ann", "melds": [{"cards": ["AH"], "on": ["2H", "3H", "4H"]}]},
        {"name": "Bob", "melds": [["2H", "3H", "4H"]]}]}
    from scorekeeper.rules import score_line

    r = score_line(line)
    assert row(r, "Ann")["points"] == 1
    assert row(r, "Bob")["points"] == 9


@pytest.mark.parametrize(("ann", "bob", "over", "winner"), [
    (480, 300, True, "Ann"),      # 480 + 45 = 525 ≥ 500, unique top
    (455, 300, True, "Ann"),      # 455 + 45 = 500 exactly: reached
    (480, 495, False, None),      # 525 vs 525: a tie at the top plays on
])
def test_game_end(ann: int, bob: int, over: bool, winner: str | None) -> None:
    r = score("rummy500", p("Ann", melds=["AS AD AC"], total=ann),
              p("Bob", melds=["JK 5C 5D 5H"], total=bob))
    # Ann: three aces in a set, 45; Bob: joker 15 + three 5s, 30
    totals = {x["name"]: x["total"] for x in r["players"]}
    assert totals == {"Ann": ann + 45, "Bob": bob + 30}
    top = max(totals.values())
    leaders = [n for n, t in totals.items() if t == top]
    assert r["game_over"] is over is (top >= 500 and len(leaders) == 1)
    assert r["winner"] == winner


def test_tie_at_the_top_plays_another_hand() -> None:
    r = score("rummy500", p("Ann", melds=["AS AD AC"], total=480),
              p("Bob", melds=["KS KD KC"], total=495))
    assert [x["total"] for x in r["players"]] == [525, 525]
    assert not r["game_over"] and r["winner"] is None


@pytest.mark.parametrize(("settings", "cards", "message"), [
    ({"jokers": 0}, "JK", "JK cannot exist"),
    ({}, "JK JK JK", "JK appears 3 times"),
    ({}, "7H 7H", "7H appears 2 times"),
])
def test_deck_check(settings: dict, cards: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        score("rummy500", p("Ann", cards), p("Bob", "5S"), **settings)


def test_two_decks_allow_two_identical_cards_and_four_jokers() -> None:
    r = score("rummy500", p("Ann", "7H 7H JK JK"), p("Bob", "JK JK"), decks=2)
    assert row(r, "Ann")["points"] == -44
