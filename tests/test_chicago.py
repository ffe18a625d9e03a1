"""Chicago Rummy (RULES.md §1), hands worked out by hand."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RulesError
from tests.helpers_score import p, row, score

# Two opponents' hands used throughout: Bob melds all but 4H (4); Cat holds 46 loose points.
BOB = "7H 7S 7D KC KS 2C 4H"
CAT = "3H 3S 9D JD QD 5C 6C"  # 3+3+9+10+10+5+6 = 46, nothing melds
DAN = "3C 4D 6S 8C 10S JC QC"  # 3+4+6+8+10+10+10 = 51, no 7s or 2s


@pytest.mark.parametrize(("total", "limit"), [
    (0, 9), (91, 9), (92, 8), (95, 5), (98, 2), (99, 1),
])
def test_knock_limit_follows_the_total_at_the_start(total: int, limit: int) -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H AS AD", total=total, knocked=True), p("Cat", CAT))
    assert r["knock"]["limit"] == limit
    assert r["knock"]["deadwood"] == 2
    assert r["knock"]["legal"] is (limit >= 2)


def test_at_100_a_player_may_not_knock_with_elimination_at_101() -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH", total=100, knocked=True),
              p("Cat", CAT), elimination_total=101)
    assert r["knock"] == {"player": "Ann", "limit": 0, "deadwood": 0, "legal": False, "penalty": 0}


@pytest.mark.parametrize(("ann", "tie", "penalty"), [
    ("7C 7D 7S 9H 9S 3D 2H", "safe", 0),        # 3 deadwood: lowest
    ("7C 7D 7S 9H 9S 4D AH", "safe", 15),       # 9-9 do not meld: 9+9+4+1 = 23 > 4
    ("7C 7D 7S 9H 9S 2H 4D", "safe", 0),        # 9-9-2 melds: 4 deadwood, ties Bob: safe
    ("7C 7D 7S 9H 9S 2H 4D", "penalised", 15),  # the same tie, penalised
])
def test_knock_penalty(ann: str, tie: str, penalty: int) -> None:
    r = score("chicago", p("Ann", ann, knocked=True), p("Bob", BOB), knocker_tie=tie)
    assert row(r, "Bob")["deadwood"] == 4
    assert row(r, "Ann")["points"] == row(r, "Ann")["deadwood"] + penalty
    assert r["knock"]["penalty"] == penalty


def test_knocker_not_lowest_pays_the_setting() -> None:
    r = score("chicago", p("Ann", "7C 7D 7S 9H 3S 3D AH", knocked=True), p("Bob", BOB),
              knock_penalty=20)
    # Ann: 9+3+3+1 = 16 > Bob's 4: 16 + 20
    assert row(r, "Ann")["points"] == 36
    assert row(r, "Bob")["points"] == 4


def test_rummy_costs_nobody_a_penalty() -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH", rummy=True), p("Bob", BOB),
              p("Cat", CAT, total=60))
    assert r["knock"] is None
    assert [x["points"] for x in r["players"]] == [0, 4, 46]
    assert row(r, "Cat")["total"] == 106 and row(r, "Cat")["eliminated"]


def test_a_rummy_claim_that_does_not_meld_is_refused() -> None:
    with pytest.raises(RulesError, match="Ann went rummy, but 4 points"):
        score("chicago", p("Ann", BOB, rummy=True), p("Cat", CAT))


@pytest.mark.parametrize(("shows", "deadwood", "dropped"), [
    ("best_seven", 0, "KD"),    # drop the K: 3-4-5-6 and 9-9-9 meld everything
    ("as_shown", 10, None),     # all eight count: the K is 10
])
def test_eight_card_knocker(shows: str, deadwood: int, dropped: str | None) -> None:
    r = score("chicago", p("Ann", "3H 4H 5H 6H 9C 9S 9D KD", knocked=True), p("Cat", CAT),
              knocker_shows=shows)
    ann = row(r, "Ann")
    assert ann["deadwood"] == deadwood
    assert ann.get("dropped") == dropped


def test_only_the_player_who_ends_the_hand_may_show_eight() -> None:
    with pytest.raises(RulesError, match="only the player who knocked or went rummy may show 8"):
        score("chicago", p("Ann", "3H 4H 5H 6H 7H 9C 9S", knocked=True),
              p("Cat", CAT + " KD"))


@pytest.mark.parametrize(("elim", "bob_total", "out"), [
    (100, 96, True),    # 96 + 4 = 100 reaches the default limit
    (101, 96, False),   # 100 < 101
    (101, 97, True),    # 101
])
def test_elimination(elim: int, bob_total: int, out: bool) -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH", knocked=True),
              p("Bob", BOB, total=bob_total), p("Cat", CAT), elimination_total=elim)
    assert row(r, "Bob")["eliminated"] is out


def test_last_player_standing_wins() -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH", knocked=True),
              p("Bob", BOB, total=96))
    assert r["game_over"] and r["winner"] == "Ann"


def test_all_out_in_one_hand_lowest_total_wins() -> None:
    r = score("chicago", p("Ann", "7C 7D 7S 9H 3S 3D AH", total=90, knocked=True),
              p("Bob", BOB, total=99))
    # Ann 90 + 16 + 15 = 121, Bob 99 + 4 = 103: both out, Bob lower
    assert r["game_over"] and r["winner"] == "Bob"


@pytest.mark.parametrize(("mode", "hand", "wins"), [
    ("seven_of_a_kind", "7H 7S 7D 7C 7H 2S 2D", True),
    ("seven_of_a_kind", "2H 2S 2D 2C 2H 2S 2D", True),
    ("seven_of_a_kind", "3H 4H 5H 6H 7H 8H 9H", False),
    ("any_seven_card_meld", "3H 4H 5H 6H 7H 8H 9H", True),
    ("any_seven_card_meld", "3H 4H 5H 6H 2C 8H 9H", True),
    ("any_seven_card_meld", "3H 4H 5H 7S 7D 7C 7H", False),  # two melds, not one
    ("off", "7H 7S 7D 7C 7H 2S 2D", False),
])
def test_instant_win(mode: str, hand: str, wins: bool) -> None:
    r = score("chicago", p("Ann", hand, rummy=True), p("Dan", DAN), instant_win=mode)
    assert r["game_over"] is wins
    assert r["winner"] == ("Ann" if wins else None)


@pytest.mark.parametrize(("settings", "deadwood"), [
    ({}, 0),                              # 7H 7H 7S 7D 7C 2S 2D: one big set
    ({"duplicates_in_set": False}, 0),    # 7H 7S 7D 7C and 7H-(8H)-(9H) as a run
])
def test_duplicates_in_set(settings: dict, deadwood: int) -> None:
    r = score("chicago", p("Ann", "7H 7H 7S 7D 7C 2S 2D", rummy=True), p("Dan", DAN),
              instant_win="off", **settings)
    assert row(r, "Ann")["deadwood"] == deadwood


def test_duplicates_in_set_false_splits_identical_cards() -> None:
    # 8C 8C 8D 8D 8S: with duplicates one set; without, 8C 8D 8S holds and 8C 8D stay: 16
    hand = "8C 8C 8D 8D 8S KH QS"
    on = score("chicago", p("Ann", hand, knocked=True), p("Dan", "3D 4D 6S 9C 10S JC QC"))
    off = score("chicago", p("Ann", hand, knocked=True), p("Dan", "3D 4D 6S 9C 10S JC QC"),
                duplicates_in_set=False)
    assert row(on, "Ann")["deadwood"] == 20
    assert row(off, "Ann")["deadwood"] == 36


@pytest.mark.parametrize(("min_naturals", "deadwood"), [(0, 0), (1, 14)])
def test_min_naturals_makes_twos_alone_deadwood(min_naturals: int, deadwood: int) -> None:
    # seven 2s: a meld of wilds, unless a meld needs a card that is not a 2 (7 x 2 = 14)
    r = score("chicago", p("Ann", "2H 2S 2D 2C 2H 2S 2D", knocked=True), p("Dan", DAN),
              min_naturals=min_naturals, instant_win="off")
    assert row(r, "Ann")["deadwood"] == deadwood


@pytest.mark.parametrize(("hands", "message"), [
    ((p("Ann", BOB), p("Cat", CAT)), "exactly one player"),
    ((p("Ann", BOB, knocked=True), p("Cat", CAT, knocked=True)), "exactly one player"),
    ((p("Ann", "7H 7H 7H", knocked=True), p("Cat", CAT)), "7H appears 3 times"),
    ((p("Ann", "JK 7H", knocked=True), p("Cat", CAT)), "JK cannot exist"),
    ((p("Ann", BOB, knocked=True, total=100), p("Cat", CAT)), "Ann is already out"),
    ((p("Ann", BOB, knocked=True),), "2 to 8 players"),
])
def test_bad_hands_are_refused(hands: tuple, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        score("chicago", *hands)


@pytest.mark.parametrize(("hands", "message"), [
    # a hand saved with cards missing would score them as 0: Bob's 2 cards, Cat's none
    ((p("Ann", BOB, knocked=True), p("Bob", "KD QS")),
     "Bob holds 2 cards; a Chicago hand is 7 (8 for the player who knocked or went rummy)"),
    ((p("Ann", BOB, knocked=True), p("Cat", "")), "Cat holds 0 cards; a Chicago hand is 7"),
    ((p("Ann", "7H 7S 7D KC KS 2C", knocked=True), p("Cat", CAT)), "Ann holds 6 cards"),
    ((p("Ann", BOB + " 9S 9D", knocked=True), p("Cat", CAT)), "Ann holds 9 cards"),
    # the 8th card is the player's who ended the hand: anyone else shows 7
    ((p("Ann", BOB, knocked=True), p("Cat", CAT + " KD")),
     "Cat holds 8 cards, but only the player who knocked or went rummy may show 8"),
])
def test_an_incomplete_hand_is_refused(hands: tuple, message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        score("chicago", *hands)


def test_a_player_going_rummy_may_show_the_eighth_card() -> None:
    # drawn, all eight melded: the hand ends with the eighth card shown, no discard needed
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH QH", rummy=True), p("Cat", CAT))
    assert row(r, "Ann")["deadwood"] == 0 and row(r, "Ann")["points"] == 0
