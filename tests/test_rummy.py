"""Rummy (§2) and Rummy 10-card (§3): the winner collects; hands worked out by hand."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RulesError
from scorekeeper.rules.cards import full_deck
from scorekeeper.rules.rummy import collect
from tests.helpers_score import p, row, score


@pytest.mark.parametrize(("variant", "settings", "rummy", "gain"), [
    ("rummy", {}, False, 35),                       # (10+1+5) + (9+10) = 35
    ("rummy", {}, True, 70),                        # going rummy doubles
    ("rummy", {"ace": "high_or_low"}, False, 49),   # the ace counts 15: 35 - 1 + 15
    ("rummy10", {}, False, 35),
    ("rummy10", {}, True, 70),
])
def test_winner_collects(variant: str, settings: dict, rummy: bool, gain: int) -> None:
    r = score(variant, p("Ann", went_out=True, rummy=rummy, total=20), p("Bob", "KD AC 5S"),
              p("Cat", "9H QH"), **settings)
    assert row(r, "Ann")["points"] == gain and row(r, "Ann")["total"] == 20 + gain
    bob_held = 30 if settings.get("ace") == "high_or_low" else 16
    assert row(r, "Bob")["points"] == 0 and row(r, "Bob")["deadwood"] == bob_held
    assert r["went_out"] == "Ann"


@pytest.mark.parametrize(("variant", "settings", "before", "over"), [
    ("rummy", {}, 130, True),         # 130 + 20 = 150 reaches the default target
    ("rummy", {}, 129, False),
    ("rummy", {"target": 200}, 130, False),
    ("rummy10", {}, 80, True),        # 100
    ("rummy10", {"target": 300}, 280, True),
    ("rummy10", {"target": 300}, 279, False),
])
def test_target(variant: str, settings: dict, before: int, over: bool) -> None:
    r = score(variant, p("Ann", went_out=True, total=before), p("Bob", "KD QD"), **settings)
    assert r["game_over"] is over
    assert r["winner"] == ("Ann" if over else None)


@pytest.mark.parametrize(("mode", "gains"), [
    ("void", [0, 0, 0]),
    ("lowest_hand_collects", [0, 0, 27]),   # Cat holds 3: collects 10+10 + 7 = 27
])
def test_exhausted_ten_card_hand(mode: str, gains: list[int]) -> None:
    r = score("rummy10", p("Ann", "KD QD"), p("Bob", "7S"), p("Cat", "3C"), exhausted_hand=mode)
    assert [x["points"] for x in r["players"]] == gains
    assert r["exhausted"] is True


def test_exhausted_tie_for_lowest_scores_nothing() -> None:
    r = score("rummy10", p("Ann", "KD"), p("Bob", "7S"), p("Cat", "7C"),
              exhausted_hand="lowest_hand_collects")
    assert [x["points"] for x in r["players"]] == [0, 0, 0]


def test_fixed_number_of_hands() -> None:
    from scorekeeper.rules import Game

    g = Game("rummy", ["Ann", "Bob"], {"hands": 2})
    g.apply({"type": "hand", "players": [{"name": "Ann", "went_out": True},
                                         {"name": "Bob", "hand": ["KD"]}]})
    assert not g.snapshot()["game_over"]
    g.apply({"type": "hand", "players": [{"name": "Bob", "went_out": True},
                                         {"name": "Ann", "hand": ["QD"]}]})
    assert not g.snapshot()["game_over"]  # 10 : 10 after two hands: play on
    g.apply({"type": "hand", "players": [{"name": "Bob", "went_out": True},
                                         {"name": "Ann", "hand": ["AD"]}]})
    snap = g.snapshot()
    assert snap["game_over"] and snap["winner"] == "Bob"


@pytest.mark.parametrize(("variant", "players", "message"), [
    ("rummy", [p("Ann", "KD"), p("Bob", "QD")], "no winner"),
    ("rummy", [p("Ann", went_out=True), p("Bob", went_out=True)], "only one player"),
    ("rummy", [p("Ann", "KD", went_out=True), p("Bob", "QD")], "still holds KD"),
    ("rummy", [p("Ann", went_out=True), p("Bob", "QD KD QD")], "QD appears 2 times"),
    ("rummy", [p("Ann", went_out=True), p("Bob", "JK")], "JK cannot exist"),
    ("rummy", [p("Ann", rummy=True), p("Bob", "QD")], "did not go out"),
    ("rummy10", [p("Ann", went_out=True), p("Ann", "QD")], "named twice"),
])
def test_bad_hands(variant: str, players: list, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        score(variant, *players)


@pytest.mark.parametrize(("variant", "hands", "message"), [
    # a loser's cards were not entered: holding none, the player would have gone out
    ("rummy", (p("Ann", went_out=True), p("Bob", "")),
     "Bob holds no cards; in Rummy only the player who went out holds none"),
    ("rummy10", (p("Ann", "KD"), p("Bob", "")), "Bob holds no cards"),  # exhausted stock
    # more than dealt: 2 players get 10, 3 get 7, 5 get 6; Rummy 10-card always 10
    ("rummy", (p("Ann", went_out=True), p("Bob", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC")),
     "Bob holds 11 cards; in Rummy a hand left at the end is at most the 10 dealt"),
    ("rummy", (p("Ann", went_out=True), p("Bob", "AC 2C 3C 4C 5C 6C 7C 8C"), p("Cat", "KD")),
     "Bob holds 8 cards; in Rummy a hand left at the end is at most the 7 dealt"),
    ("rummy", (p("Ann", went_out=True), p("Bob", "AC 2C 3C 4C 5C 6C 7C"), p("Cat", "KD"),
               p("Dan", "KH"), p("Eve", "KS")), "at most the 6 dealt"),
    ("rummy10", (p("Ann", went_out=True), p("Bob", "KD"), p("Cat", "KH"),
                 p("Dan", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC")),
     "Dan holds 11 cards; in Rummy 10-card a hand left at the end is at most the 10 dealt"),
])
def test_an_incomplete_or_overfull_hand_is_refused(variant: str, hands: tuple,
                                                   message: str) -> None:
    with pytest.raises(RulesError, match=message):
        score(variant, *hands)


@pytest.mark.parametrize(("variant", "counts"), [
    ("rummy", (10,)), ("rummy", (7, 1)), ("rummy", (7, 7, 7)), ("rummy", (6, 6, 6, 6, 6)),
    ("rummy10", (10, 10)),
])
def test_a_full_deal_left_in_hand_is_scored(variant: str, counts: tuple[int, ...]) -> None:
    deck = [str(c) for c in full_deck()]
    losers, start = [], 0
    for i, n in enumerate(counts):
        losers.append(p(f"P{i}", " ".join(deck[start:start + n])))
        start += n
    r = score(variant, p("Ann", went_out=True), *losers)
    assert row(r, "Ann")["points"] == sum(x["deadwood"] for x in r["players"][1:])


@pytest.mark.parametrize(("out", "rummy", "lowest", "collector", "taken", "points"), [
    ("Ann", False, False, "Ann", {"Bob": 16, "Cat": 19}, 35),
    ("Ann", True, False, "Ann", {"Bob": 16, "Cat": 19}, 70),     # the bonus is the base again
    (None, False, True, "Bob", {"Ann": 30, "Cat": 19}, 49),      # ran dry: the lowest, alone
    (None, False, False, None, {}, 0),                           # ran dry, nobody collects
])
def test_collect_is_what_scoring_and_the_sheet_share(out: str | None, rummy: bool,
                                                      lowest: bool, collector: str | None,
                                                      taken: dict[str, int], points: int) -> None:
    held = {"Ann": 0 if out else 30, "Bob": 16, "Cat": 19}
    took = collect(held, out, rummy, lowest_collects=lowest)
    assert (took.collector, took.taken, took.points) == (collector, taken, points)
    assert took.bonus == (took.base if rummy else 0)


def test_collect_tie_for_lowest_has_no_collector() -> None:
    took = collect({"Ann": 12, "Bob": 12, "Cat": 30}, None, False, lowest_collects=True)
    assert took.collector is None and took.points == 0
