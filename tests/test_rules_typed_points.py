"""Points typed instead of cards: they score exactly as the cards they stand for, and what no
hand could be worth is refused in the players' words."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import RulesError, score_line
from scorekeeper.rules.cards import Card
from scorekeeper.rules.chicago import best_hand
from scorekeeper.rules.game import Game, game_from_events
from scorekeeper.rules.rummy import card_points
from scorekeeper.rules.rummy500 import card_points as r500_points
from scorekeeper.rules.settings import ChicagoSettings, Rummy500Settings, RummySettings
from tests.helpers_score import p, row, score

DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def typed(name: str, total: int = 0, **fields: Any) -> dict[str, Any]:
    return {"name": name, "total": total, **fields}


def test_rummy_leftovers_typed() -> None:
    r = score("rummy", p("Ann", went_out=True), typed("Bob", held=23), p("Cy", "KS 2D"))
    assert row(r, "Ann")["points"] == 35
    assert row(r, "Bob")["deadwood"] == 23 and row(r, "Bob")["typed"] is True
    assert "typed" not in row(r, "Cy")


def test_rummy_doubles_typed_points_for_rummy() -> None:
    r = score("rummy", p("Ann", went_out=True, rummy=True), typed("Bob", held=12))
    assert row(r, "Ann")["points"] == 24


def test_chicago_typed_deadwood_gives_the_knock_verdict() -> None:
    r = score("chicago", typed("Ann", knocked=True, held=9, total=91), typed("Bob", held=30))
    assert r["knock"] == {"player": "Ann", "limit": 9, "deadwood": 9, "legal": True,
                          "penalty": 0}
    late = score("chicago", typed("Ann", knocked=True, held=10, total=91), typed("Bob", held=30))
    assert late["knock"]["legal"] is False
    assert row(late, "Ann")["total"] == 101 and row(late, "Ann")["eliminated"] is True


def test_chicago_typed_knocker_pays_the_penalty_when_undercut() -> None:
    r = score("chicago", typed("Ann", knocked=True, held=8), p("Bob", "AS AH AD 3C 4C 5C 2D"))
    penalty = ChicagoSettings().knock_penalty
    assert row(r, "Bob")["deadwood"] == 0 and r["knock"]["penalty"] == penalty
    r = score("chicago", typed("Ann", knocked=True, held=8), typed("Bob", held=3))
    assert row(r, "Ann")["points"] == 8 + penalty


def test_chicago_marks_the_typed_rows_only() -> None:
    r = score("chicago", typed("Ann", knocked=True, held=8), p("Bob", "AS AH AD 3C 4C 5C 2D"))
    assert row(r, "Ann")["typed"] is True
    assert "typed" not in row(r, "Bob")


def test_chicago_takes_the_most_seven_cards_can_hold() -> None:
    """70 is the most deadwood seven cards hold (four kings and three queens): accepted."""
    r = score("chicago", typed("Ann", knocked=True, held=3), typed("Bob", held=70))
    assert row(r, "Bob")["deadwood"] == 70


def test_a_false_rummy_names_the_cards_only_when_there_are_cards() -> None:
    with pytest.raises(RulesError) as typed_err:
        score("chicago", typed("Ann", rummy=True, held=4), typed("Bob", held=3))
    assert str(typed_err.value).endswith("4 points do not meld")
    with pytest.raises(RulesError, match=r"do not meld in 2S 4D 6H 8C 10S QD KC"):
        score("chicago", p("Ann", "2S 4D 6H 8C 10S QD KC", rummy=True), typed("Bob", held=3))


def test_rummy500_typed_melded_and_held() -> None:
    r = score("rummy500", typed("Ann", melded=45, held=5), typed("Bob", held=23),
              p("Cy", "KS", melds=["7H 8H 9H"]))
    assert [row(r, n)["points"] for n in ("Ann", "Bob", "Cy")] == [40, -23, 14]
    assert (row(r, "Ann")["melded"], row(r, "Ann")["held"]) == (45, 5)


@pytest.mark.parametrize(("variant", "players", "said"), [
    ("rummy", [p("Ann", went_out=True), typed("Bob", held=0)], "Bob holds 0 points"),
    ("rummy", [p("Ann", went_out=True), typed("Bob", held=71), p("Cy", "KD")],
     "more than the 7 cards"),
    ("rummy", [typed("Ann", went_out=True, held=4), p("Bob", "KD")], "went out but still holds 4"),
    ("rummy", [p("Ann", went_out=True), typed("Bob", melded=10)], "only in Rummy 500"),
    ("rummy10", [p("Ann", went_out=True), typed("Bob", held=101)], "the 10 cards dealt"),
    ("chicago", [typed("Ann", knocked=True, held=71), typed("Bob", held=3)], "at most 70"),
    ("chicago", [typed("Ann", rummy=True, held=4), typed("Bob", held=3)],
     "went rummy, but 4 points do not meld"),
    ("chicago", [typed("Ann", knocked=True, held=1), typed("Bob", melded=3)], "deadwood only"),
    ("rummy500", [typed("Ann", held=1001), typed("Bob", held=3)], "0 to 1000"),
    ("rummy500", [typed("Ann", held=-5), typed("Bob", held=3)], "is not possible"),
    ("rummy500", [typed("Ann", held=-1), typed("Bob", held=3)], r"\(0 to 1000\)"),
    ("rummy500", [typed("Ann", held=2.5), typed("Bob", held=3)], "whole number"),
    ("rummy500", [typed("Ann", held=True), typed("Bob", held=3)], "whole number"),
    ("rummy500", [{**p("Ann", "KS"), "held": 10}, typed("Bob", held=3)], "not both"),
])
def test_impossible_typed_points_are_refused(variant: str, players: list[dict[str, Any]],
                                             said: str) -> None:
    with pytest.raises(RulesError, match=said):
        score_line({"variant": variant, "players": players})


def test_five_ten_fifteen_points_come_in_fives() -> None:
    with pytest.raises(RulesError, match="5, 10 and 15"):
        score("rummy500", typed("Ann", melded=42), typed("Bob", held=5), scoring="5-10-15")
    assert row(score("rummy500", typed("Ann", melded=40), typed("Bob", held=5),
                     scoring="5-10-15"), "Ann")["points"] == 40


def test_a_game_keeps_typed_points_through_replay() -> None:
    game = Game("rummy", ["Ann", "Bob"])
    hand = {"type": "hand", "players": [{"name": "Ann", "went_out": True},
                                        {"name": "Bob", "held": 17}]}
    game.apply(hand)
    snap = game.snapshot()
    assert snap["hands"][0]["players"][1]["held"] == 17
    again = game_from_events({"variant": "rummy", "players": ["Ann", "Bob"]},
                             [{"type": "hand", "players": snap["hands"][0]["players"]}])
    assert [r["total"] for r in again.snapshot()["players"]] == [17, 0]
    assert again.snapshot()["hands"][0]["result"]["players"][1]["typed"] is True


# Property: typed points are the cards they stand for.

hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=7, unique=True)


@settings(max_examples=60, deadline=None)
@given(bob=hands, cy=hands, ace=st.sampled_from(["low", "high_or_low"]))
def test_rummy_typed_equals_cards(bob: list[Card], cy: list[Card], ace: str) -> None:
    cy = [c for c in cy if c not in bob] or [c for c in DECK if c not in bob][:1]
    s = RummySettings(ace=ace)
    as_cards = [p("Ann", went_out=True), p("Bob", " ".join(map(str, bob))),
                p("Cy", " ".join(map(str, cy)))]
    as_points = [p("Ann", went_out=True),
                 typed("Bob", held=sum(card_points(c, s) for c in bob)),
                 typed("Cy", held=sum(card_points(c, s) for c in cy))]
    a = score("rummy", *as_cards, ace=ace)
    b = score("rummy", *as_points, ace=ace)
    assert [r["points"] for r in a["players"]] == [r["points"] for r in b["players"]]


@settings(max_examples=30, deadline=None)
@given(ann=st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
       bob=st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
       total=st.integers(0, 99))
def test_chicago_typed_deadwood_equals_cards(ann: list[Card], bob: list[Card],
                                             total: int) -> None:
    s = ChicagoSettings()
    as_cards = [p("Ann", " ".join(map(str, ann)), total=total, knocked=True),
                p("Bob", " ".join(map(str, bob)))]
    as_points = [typed("Ann", total=total, knocked=True,
                       held=best_hand(ann, s, knocker=True)[0].deadwood),
                 typed("Bob", held=best_hand(bob, s, knocker=False)[0].deadwood)]
    a = score("chicago", *as_cards)
    b = score("chicago", *as_points)
    if a.get("instant_win"):
        return  # seven of a meld ends the game: only cards can show it
    assert a["knock"] == b["knock"]
    assert [r["total"] for r in a["players"]] == [r["total"] for r in b["players"]]


@settings(max_examples=60, deadline=None)
@given(held=st.lists(st.sampled_from(DECK), max_size=7, unique=True),
       scoring=st.sampled_from(["standard", "5-10-15"]))
def test_rummy500_typed_equals_cards(held: list[Card], scoring: str) -> None:
    s = Rummy500Settings(scoring=scoring)
    meld = [Card(r, "S") for r in (4, 5, 6)]
    held = [c for c in held if c not in meld and str(c) != "KD"]
    as_cards = [p("Ann", " ".join(map(str, held)), melds=["4S 5S 6S"]), p("Bob", "KD")]
    as_points = [typed("Ann", melded=sum(r500_points(c, s) for c in meld),
                       held=sum(r500_points(c, s) for c in held)), p("Bob", "KD")]
    a = score("rummy500", *as_cards, scoring=scoring)
    b = score("rummy500", *as_points, scoring=scoring)
    assert [r["points"] for r in a["players"]] == [r["points"] for r in b["players"]]


@pytest.mark.parametrize(("variant", "others", "most"), [
    ("rummy10", [], 100),              # ten cards dealt, none worth more than 10
    ("rummy", [p("Cy", "KD")], 70),    # three players are dealt seven
])
def test_the_most_the_dealt_cards_can_hold_is_accepted(variant: str,
                                                        others: list[dict[str, Any]],
                                                        most: int) -> None:
    r = score(variant, p("Ann", went_out=True), typed("Bob", held=most), *others)
    assert row(r, "Bob")["deadwood"] == most


def test_rummy500_marks_typed_rows_and_takes_up_to_1000_points() -> None:
    r = score("rummy500", typed("Ann", melded=1000), p("Bob", "KS"))
    assert row(r, "Ann")["typed"] is True and row(r, "Ann")["points"] == 1000
    assert "typed" not in row(r, "Bob")
