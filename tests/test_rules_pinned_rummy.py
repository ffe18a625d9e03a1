"""Rummy (§2), Rummy 10-card (§3) and Rummy 500 (§4) at their edges: game end, deal sizes,
player counts and the fields of a scored hand that mutation testing found unpinned."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RulesError, score_line
from scorekeeper.rules.cards import JOKER, Card
from scorekeeper.rules.hand import MeldEntry, PlayerHand
from scorekeeper.rules.rummy import card_points, deal_size
from scorekeeper.rules.rummy import score as rummy_score
from scorekeeper.rules.rummy500 import card_points as r500_points
from scorekeeper.rules.rummy500 import deck, entry_points
from scorekeeper.rules.scoring import score_hand
from scorekeeper.rules.settings import Rummy10Settings, Rummy500Settings, RummySettings
from tests.conftest import cards
from tests.helpers_score import p, row, score


def fixed(hand_number: int | None, ann: int, bob: int, hands: int = 3) -> dict:
    """Ann goes out against Bob's KD (10), with `hands` hands to play."""
    return score_line({"variant": "rummy", "settings": {"hands": hands},
                       "hand_number": hand_number,
                       "players": [p("Ann", went_out=True, total=ann), p("Bob", "KD", total=bob)]})


@pytest.mark.parametrize(("hand_number", "ann", "bob", "over", "winner"), [
    (3, 0, 0, True, "Ann"),         # the last hand, Ann leads 10 : 0
    (4, 0, 0, True, "Ann"),         # past the last hand (a late correction): still over
    (2, 0, 0, False, None),         # one hand to go
    (3, 0, 10, False, None),        # 10 : 10 after the last hand: play on
    (3, 0, 20, True, "Bob"),        # Bob leads: the most points wins, not who went out
    (None, 0, 0, False, None),      # no hand number: never over by count
    (2, 500, 0, False, None),       # with a number of hands the target does not end it
])
def test_fixed_number_of_hands(hand_number: int | None, ann: int, bob: int, over: bool,
                               winner: str | None) -> None:
    r = fixed(hand_number, ann, bob)
    assert (r["game_over"], r["winner"]) == (over, winner)


@pytest.mark.parametrize(("variant", "players", "ok"), [
    ("rummy", 6, True), ("rummy", 7, False), ("rummy", 1, False),
    ("rummy10", 5, True), ("rummy10", 6, False), ("rummy10", 1, False),
    ("rummy500", 8, True), ("rummy500", 9, False), ("rummy500", 1, False),
])
def test_player_counts(variant: str, players: int, ok: bool) -> None:
    out = {"rummy500": {}}.get(variant, {"went_out": True})
    ranks = ("3", "4", "5", "6", "7", "8", "9", "10")
    others = [p(f"P{i}", f"{r}C") for i, r in enumerate(ranks, 1)][: players - 1]
    line = [p("Ann", **out), *others]
    if ok:
        assert len(score(variant, *line)["players"]) == players
    else:
        with pytest.raises(RulesError, match=r"needs 2 to \d players"):
            score(variant, *line)


@pytest.mark.parametrize(("variant", "players", "deal"), [
    ("rummy", 2, 10), ("rummy", 3, 7), ("rummy", 4, 7), ("rummy", 5, 6), ("rummy", 6, 6),
    ("rummy10", 2, 10), ("rummy10", 5, 10),
])
def test_deal_size(variant: str, players: int, deal: int) -> None:
    assert deal_size(variant, players) == deal


@pytest.mark.parametrize(("players", "held"), [(3, 7), (5, 6), (2, 10)])
def test_a_loser_may_hold_exactly_the_deal(players: int, held: int) -> None:
    deck_codes = [f"{r}{s}" for s in "CDHS" for r in
                  ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    losers = [p(f"P{i}", " ".join(deck_codes[i * 10:i * 10 + held])) for i in range(players - 1)]
    r = score("rummy", p("Ann", went_out=True), *losers)
    assert all(len(x["unmelded"]) == held for x in r["players"][1:])


@pytest.mark.parametrize(("players", "message"), [
    ([p("Ann", went_out=True, melds=["7C 8C 9C"]), p("Bob", "KD")], "melds on the table"),
    ([p("Ann", went_out=True), p("Bob", "KD", knocked=True)], "nobody knocks"),
    ([p("Ann", went_out=True), p("Bob", "KD", rummy=True)], "Bob went rummy but did not go"),
])
def test_rummy_refusals(players: list, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        score("rummy", *players)


def test_going_rummy_is_reported() -> None:
    r = score("rummy", p("Ann", went_out=True, rummy=True), p("Bob", "KD"))
    assert (r["went_out"], r["rummy"], row(r, "Ann")["points"]) == ("Ann", True, 20)
    r = score("rummy", p("Ann", went_out=True), p("Bob", "KD"))
    assert (r["went_out"], r["rummy"], row(r, "Ann")["points"]) == ("Ann", False, 10)
    assert "exhausted" not in r


def test_rummy_ten_card_exhausted_void_scores_nobody_with_a_unique_lowest() -> None:
    r = score("rummy10", p("Ann", "KD"), p("Bob", "3C"))
    assert [x["points"] for x in r["players"]] == [0, 0] and r["exhausted"] is True
    assert "went_out" not in r and r["game_over"] is False


def test_lowest_hand_collects_only_in_rummy_ten_card() -> None:
    players = [PlayerHand("Ann", 0, tuple(cards("KD"))), PlayerHand("Bob", 0, tuple(cards("3C")))]
    r = score_hand(Rummy10Settings(exhausted_hand="lowest_hand_collects"), players)
    assert [x["points"] for x in r["players"]] == [0, 10]
    with pytest.raises(RulesError, match="no winner"):
        score_hand(RummySettings(), players)


def test_scoring_rummy_directly_checks_complete_hands_by_default() -> None:
    players = [PlayerHand("Ann", 0, (), went_out=True), PlayerHand("Bob", 0, ())]
    with pytest.raises(RulesError, match="Bob holds no cards"):
        rummy_score(players, RummySettings())
    assert rummy_score(players, RummySettings(), complete=False)["players"][0]["points"] == 0


@pytest.mark.parametrize(("settings", "card", "points"), [
    (RummySettings(), Card(1, "H"), 1),
    (RummySettings(ace="high_or_low"), Card(1, "H"), 15),
    (RummySettings(ace="high_or_low"), Card(13, "H"), 10),
    (Rummy10Settings(), Card(1, "H"), 1),
    (RummySettings(), Card(10, "H"), 10),
    (RummySettings(), Card(9, "H"), 9),
])
def test_rummy_card_points(settings: RummySettings | Rummy10Settings, card: Card,
                           points: int) -> None:
    assert card_points(card, settings) == points


def test_a_loser_held_total_is_reported_as_deadwood() -> None:
    r = score("rummy", p("Ann", went_out=True, total=5), p("Bob", "KD 9C", total=7))
    assert row(r, "Bob") == {"name": "Bob", "points": 0, "total": 7, "deadwood": 19,
                             "melds": [], "unmelded": ["KD", "9C"], "eliminated": False}


# ------------------------------------------------------------------ Rummy 500


@pytest.mark.parametrize(("ann", "bob", "tie"), [
    (480, 480, ["Ann", "Bob"]),     # 525 : 525 at or over 500: tied at the top, play on
    (455, 455, ["Ann", "Bob"]),     # 500 : 500: reaching 500 counts
    (400, 400, None),               # 445 : 445 below 500: no field at all
    (480, 300, None),               # Ann wins outright
])
def test_tie_at_top(ann: int, bob: int, tie: list[str] | None) -> None:
    r = score("rummy500", p("Ann", melds=["AS AD AC"], total=ann),
              p("Bob", melds=["KS KD KC", "JK"], total=bob))
    # Ann: three aces, 45; Bob: three kings and a joker laid off, 30 + 15 = 45
    assert row(r, "Ann")["total"] == ann + 45 and row(r, "Bob")["total"] == bob + 45
    assert r.get("tie_at_top") == tie


def test_tie_at_top_with_a_third_player_below() -> None:
    r = score("rummy500", p("Ann", melds=["AS AD AC"], total=455),
              p("Bob", melds=["AH JK 5H"], total=470), p("Cat", "4C", total=499))
    # Ann 45 → 500; Bob's AH JK 5H is no meld, so the ace keeps 15: 15 + 15 + 5 = 35
    assert [x["total"] for x in r["players"]] == [500, 505, 495]
    assert r["winner"] == "Bob" and "tie_at_top" not in r


def test_melded_and_held_fields() -> None:
    r = score("rummy500", p("Ann", "KD 3C", melds=["AH 2H 3H", "JK"], total=10), p("Bob", "5S"))
    ann = row(r, "Ann")
    assert (ann["melded"], ann["held"], ann["deadwood"]) == (6 + 15, 13, 13)
    assert (ann["points"], ann["total"]) == (8, 18)
    assert ann["melds"] == [["AH", "2H", "3H"], ["JK"]] and ann["unmelded"] == ["KD", "3C"]


@pytest.mark.parametrize(("entry", "on", "settings", "points"), [
    ("AH 2H", "", {}, 17),                  # two cards are no run: the ace keeps 15
    ("AH", "2H 3H", {}, 1),                 # laid off below 2-3
    ("AH", "QH KH", {}, 15),                # laid off above Q-K
    ("AH", "2H 3H", {"scoring": "5-10-15"}, 5),
    ("AH JK JK", "", {}, 45),               # a set of aces (two jokers): full value
    ("AH JK JK 4H", "", {}, 1 + 15 + 15 + 4),  # the jokers are the 2 and 3
    ("AH 2H 3H", "", {"ace": "low"}, 6),
])
def test_entry_points(entry: str, on: str, settings: dict, points: int) -> None:
    e = MeldEntry(tuple(cards(entry)), tuple(cards(on)))
    assert entry_points(e, Rummy500Settings(**settings)) == points


@pytest.mark.parametrize(("scoring", "card", "low", "points"), [
    ("standard", JOKER, False, 15), ("5-10-15", JOKER, True, 15),
    ("standard", Card(1, "S"), False, 15), ("standard", Card(1, "S"), True, 1),
    ("5-10-15", Card(1, "S"), False, 15), ("5-10-15", Card(1, "S"), True, 5),
    ("standard", Card(9, "S"), False, 9), ("5-10-15", Card(9, "S"), False, 5),
    ("standard", Card(10, "S"), False, 10), ("5-10-15", Card(10, "S"), False, 10),
    ("standard", Card(13, "S"), False, 10), ("5-10-15", Card(2, "S"), False, 5),
    ("standard", Card(2, "S"), False, 2),
])
def test_rummy500_card_points(scoring: str, card: Card, low: bool, points: int) -> None:
    assert r500_points(card, Rummy500Settings(scoring=scoring), low_ace=low) == points


@pytest.mark.parametrize(("settings", "decks", "jokers"), [
    ({}, 1, 2), ({"jokers": 0}, 1, 0), ({"decks": 2}, 2, 4), ({"decks": 2, "jokers": 0}, 2, 0),
])
def test_rummy500_deck(settings: dict, decks: int, jokers: int) -> None:
    spec = deck(Rummy500Settings(**settings))
    assert (spec.decks, spec.jokers) == (decks, jokers)


def test_rummy500_refuses_a_knock() -> None:
    with pytest.raises(RulesError, match="nobody knocks in Rummy 500"):
        score("rummy500", p("Ann", "KD", knocked=True), p("Bob", "5S"))


def test_rummy500_checks_melded_cards_against_the_deck() -> None:
    with pytest.raises(RulesError, match="7H appears 2 times"):
        score("rummy500", p("Ann", melds=["7H 8H 9H"]), p("Bob", melds=["7H 7S 7D"]))


def test_rummy500_target_setting() -> None:
    r = score("rummy500", p("Ann", melds=["AS AD AC"], total=60), p("Bob", "5S"), target=100)
    assert r["game_over"] and r["winner"] == "Ann"
    r = score("rummy500", p("Ann", melds=["AS AD AC"], total=54), p("Bob", "5S"), target=100)
    assert not r["game_over"]
