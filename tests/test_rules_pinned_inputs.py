"""Input refusals of hand.py and scoring.py, one row each: a refusal that stops working lets
a typo score silently, so every one is pinned with the message that names the mistake."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import RulesError, score_line
from scorekeeper.rules.cards import JOKER, Card
from scorekeeper.rules.hand import MAX_HAND, MeldEntry, PlayerHand, parse_player, parse_players
from scorekeeper.rules.scoring import (
    deck_for,
    meld_rules_for,
    player_limits,
    score_hand,
)
from scorekeeper.rules.settings import (
    ChicagoSettings,
    Rummy10Settings,
    Rummy500Settings,
    RummySettings,
)
from tests.conftest import cards


@pytest.mark.parametrize(("raw", "message"), [
    ("Ann", "each player must be an object"),
    ({"total": 3}, "each player needs a name"),
    ({"name": "Ann", "score": 3}, "player Ann: unknown key 'score'"),
    ({"name": "Ann", "total": True}, "player Ann: total must be a whole number, got true"),
    ({"name": "Ann", "total": 1.5}, "total must be a whole number, got 1.5"),
    ({"name": "Ann", "total": "3"}, "total must be a whole number"),
    ({"name": "Ann", "hand": ["7H"] * (MAX_HAND + 1)}, "15 cards in hand, at most 14 are read"),
    ({"name": "Ann", "hand": "7H"}, "player Ann: expected a list of card codes"),
    ({"name": "Ann", "hand": ["7Z"]}, "player Ann: unknown card '7Z'"),
    ({"name": "Ann", "melds": "7H 8H 9H"}, "player Ann: melds must be a list"),
    ({"name": "Ann", "melds": [[]]}, "player Ann: an empty meld"),
    ({"name": "Ann", "melds": [{"cards": ["7H"], "by": "Bob"}]},
     "player Ann: unknown meld key 'by'"),
    ({"name": "Ann", "melds": [{"on": ["7H"]}]}, "expected a list of card codes, got null"),
    ({"name": "Ann", "melds": [{"cards": ["7H"], "on": "8H"}]}, "expected a list"),
    ({"name": "Ann", "knocked": 1}, "'knocked' must be true or false, got 1"),
    ({"name": "Ann", "went_out": "yes"}, "'went_out' must be true or false"),
    ({"name": "Ann", "rummy": None}, "'rummy' must be true or false, got null"),
])
def test_a_player_is_refused(raw: object, message: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_player(raw)
    assert message in str(err.value)
    assert str(err.value).count("player Ann:") <= 1  # the player is named once


def test_a_player_is_read() -> None:
    got = parse_player({"name": " Ann ", "total": -7, "hand": ["7h", "JK"], "knocked": True,
                        "melds": [["7C", "8C", "9C"], {"cards": ["AH"], "on": ["2H", "3H"]}]})
    assert got == PlayerHand("Ann", -7, (Card(7, "H"), JOKER),
                             (MeldEntry(tuple(cards("7C 8C 9C"))),
                              MeldEntry(tuple(cards("AH")), tuple(cards("2H 3H")))),
                             knocked=True)
    assert list(got.all_cards()) == cards("7H JK 7C 8C 9C AH")


def test_an_empty_lay_off_in_the_object_form_is_kept_for_stored_games() -> None:
    got = parse_player({"name": "Ann", "melds": [{"cards": [], "on": ["2H", "3H"]}]})
    assert got.melds == (MeldEntry((), tuple(cards("2H 3H"))),)


def test_defaults_and_the_largest_hand() -> None:
    got = parse_player({"name": "Ann", "hand": ["7H"] * MAX_HAND})
    assert (got.total, len(got.hand), got.melds) == (0, MAX_HAND, ())
    assert (got.knocked, got.went_out, got.rummy) == (False, False, False)
    assert parse_player({"name": "Ann", "went_out": True, "rummy": True}).rummy is True


def test_a_player_hand_defaults_to_nothing() -> None:
    assert PlayerHand("Ann") == PlayerHand("Ann", 0, (), (), False, False, False)
    assert MeldEntry(()).on == ()


def test_a_game_keeps_the_total() -> None:
    assert parse_player({"name": "Ann"}, with_total=False).total == 0
    with pytest.raises(RulesError, match="the total is kept by the game"):
        parse_player({"name": "Ann", "total": 0}, with_total=False)
    assert parse_players([{"name": "Ann"}], with_total=False)[0].name == "Ann"
    with pytest.raises(RulesError, match="kept by the game"):
        parse_players([{"name": "Ann", "total": 3}], with_total=False)


@pytest.mark.parametrize(("raw", "message"), [
    (None, "'players' must be a non-empty list, got null"),
    ([], "'players' must be a non-empty list, got []"),
    ({"name": "Ann"}, "must be a non-empty list"),
    ([{"name": "Ann"}, {"name": "ann"}], "player 'ann' is named twice"),
    ([{"name": "Ann"}, {"name": "Bob"}, {"name": "ANN"}], "named twice"),
])
def test_players_are_refused(raw: object, message: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_players(raw)
    assert message in str(err.value)


def test_players_keep_their_order() -> None:
    assert [x.name for x in parse_players([{"name": "Bob"}, {"name": "Ann"}])] == ["Bob", "Ann"]


GOOD = {"variant": "rummy", "players": [{"name": "Ann", "went_out": True},
                                        {"name": "Bob", "hand": ["KD"]}]}


@pytest.mark.parametrize(("line", "message"), [
    ([GOOD], "each line must be a JSON object, got list"),
    ("rummy", "each line must be a JSON object, got str"),
    ({**GOOD, "round": 1}, "unknown key 'round'"),
    ({k: v for k, v in GOOD.items() if k != "variant"}, "missing 'variant'"),
    ({**GOOD, "hand_number": True}, "hand_number must be a whole number, got true"),
    ({**GOOD, "hand_number": "2"}, "hand_number must be a whole number, got '2'"),
    ({**GOOD, "hand_number": 2.0}, "hand_number must be a whole number"),
    ({**GOOD, "players": []}, "'players' must be a non-empty list"),
    ({**GOOD, "variant": "gin"}, "unknown variant 'gin'"),
    ({**GOOD, "settings": {"ace": "middle"}}, "setting ace='middle'"),
])
def test_a_line_is_refused(line: Any, message: str) -> None:
    with pytest.raises(RulesError) as err:
        score_line(line)
    assert message in str(err.value)


@pytest.mark.parametrize("hand_number", [None, 1, 7])
def test_a_line_is_scored(hand_number: int | None) -> None:
    line = {**GOOD, "settings": {"hands": 7}, "hand_number": hand_number}
    r = score_line(line)
    assert r["players"][0]["points"] == 10
    assert r["game_over"] is (hand_number == 7)


def test_settings_and_hand_number_are_optional() -> None:
    r = score_line({"variant": "rummy", "players": GOOD["players"], "settings": None})
    assert r["winner"] is None and r["went_out"] == "Ann"


@pytest.mark.parametrize(("variant", "limits"), [
    ("chicago", (2, 8)), ("rummy", (2, 6)), ("rummy10", (2, 5)), ("rummy500", (2, 8)),
])
def test_player_limits(variant: str, limits: tuple[int, int]) -> None:
    assert player_limits(variant) == limits


def test_score_hand_dispatches_on_the_settings() -> None:
    players = [PlayerHand("Ann", 0, (), went_out=True), PlayerHand("Bob", 0, tuple(cards("AD")))]
    assert score_hand(RummySettings(ace="high_or_low"), players)["players"][0]["points"] == 15
    assert score_hand(Rummy10Settings(), players)["players"][0]["points"] == 1
    r500 = [PlayerHand("Ann", 0, tuple(cards("KD"))), PlayerHand("Bob", 0, tuple(cards("AD")))]
    assert [x["points"] for x in score_hand(Rummy500Settings(), r500)["players"]] == [-10, -15]
    with pytest.raises(TypeError, match="not a variant's settings"):
        score_hand({"variant": "rummy"}, players)


def test_rummy_scored_through_score_hand_counts_the_hand_number() -> None:
    players = [PlayerHand("Ann", 0, (), went_out=True), PlayerHand("Bob", 0, tuple(cards("KD")))]
    assert score_hand(RummySettings(hands=2), players, 2)["game_over"] is True
    assert score_hand(RummySettings(hands=2), players)["game_over"] is False


@pytest.mark.parametrize(("settings", "decks", "jokers"), [
    (ChicagoSettings(), 2, 0), (RummySettings(), 1, 0), (Rummy10Settings(), 1, 0),
    (Rummy500Settings(), 1, 2), (Rummy500Settings(decks=2), 2, 4),
])
def test_deck_for(settings: Any, decks: int, jokers: int) -> None:
    spec = deck_for(settings)
    assert (spec.decks, spec.jokers) == (decks, jokers)


@pytest.mark.parametrize(("settings", "fields"), [
    (ChicagoSettings(), (True, False, False, True, 0)),
    (ChicagoSettings(duplicates_in_set=False, min_naturals=1), (True, False, False, False, 1)),
    (RummySettings(), (False, False, False, False, 0)),
    (RummySettings(ace="high_or_low"), (False, False, True, False, 0)),
    (Rummy10Settings(), (False, False, False, False, 0)),
    (Rummy500Settings(), (False, True, True, False, 0)),
    (Rummy500Settings(ace="low"), (False, True, False, False, 0)),
])
def test_meld_rules_for(settings: Any, fields: tuple) -> None:
    r = meld_rules_for(settings)
    assert (r.wild_twos, r.jokers_wild, r.ace_high, r.duplicates_in_set, r.min_naturals) == fields
