"""The table's events in the rules: ending a game (finished, abandoned, deleted), reopening
it, and who deals, derived from the hands so that undo and corrections move it too."""

from __future__ import annotations

import pytest

from scorekeeper.rules import Game, GameDeleted, RulesError, game_from_events
from tests.test_game import CAT_20, LOOSE, MELDED, chicago_hand

OUT = {"type": "hand", "players": [{"name": "Ann", "hand": [], "went_out": True},
                                   {"name": "Bob", "hand": ["3C"]},
                                   {"name": "Cat", "hand": ["KD"]}]}


def rummy(*events: dict) -> Game:
    game = Game("rummy", ["Ann", "Bob", "Cat"], {"target": 100_000})
    for event in events:
        game.apply(event)
    return game


def test_the_deal_moves_left_each_hand_and_back_on_undo() -> None:
    game = rummy()
    assert game.snapshot()["dealer"] == "Ann"  # nobody named: the first seat deals hand 1
    dealt = []
    for _ in range(4):
        game.apply(OUT)
        dealt.append(game.snapshot()["dealer"])
    assert dealt == ["Bob", "Cat", "Ann", "Bob"]
    game.apply({"type": "undo"})
    assert game.snapshot()["dealer"] == "Ann"
    game.apply({"type": "correct", "n": 1, "players": OUT["players"]})
    assert game.snapshot()["dealer"] == "Ann"  # a correction deals no hand


def test_a_named_dealer_is_where_the_deal_starts_and_survives_a_rename() -> None:
    game = rummy(OUT, {"type": "dealer", "player": "cat"})  # hand 2: Cat deals (as spelled)
    assert game.snapshot()["dealer"] == "Cat"
    game.apply(OUT)
    assert game.snapshot()["dealer"] == "Ann"
    game.apply({"type": "undo"})
    game.apply({"type": "undo"})  # back before the hand the dealer was named for
    assert game.snapshot()["dealer"] == "Bob"
    game.apply({"type": "rename", "old": "Cat", "new": "Kat"})
    game.apply({"type": "hand", "players": [{**p, "name": p["name"].replace("Cat", "Kat")}
                                            for p in OUT["players"]]})
    assert game.snapshot()["dealer"] == "Kat"
    with pytest.raises(RulesError, match="not a player"):
        game.apply({"type": "dealer", "player": "Zed"})
    with pytest.raises(RulesError, match="player's name"):
        game.apply({"type": "dealer", "player": 3})


def test_a_player_out_of_the_game_is_passed_over() -> None:
    game = Game("chicago", ["Ann", "Bob", "Cat"])
    game.apply({"type": "dealer", "player": "Ann"})
    game.apply(chicago_hand(MELDED, LOOSE, CAT_20))  # Bob 51
    assert game.snapshot()["dealer"] == "Bob"
    game.apply(chicago_hand(MELDED, LOOSE, CAT_20))  # Bob 102: out
    assert game.snapshot()["dealer"] == "Cat"
    three = Game("chicago", ["Ann", "Bob", "Cat"])
    three.apply({"type": "dealer", "player": "Cat"})
    three.apply(chicago_hand(MELDED, LOOSE, CAT_20))
    three.apply(chicago_hand(MELDED, LOOSE, CAT_20))  # Cat dealt 1, Ann 2; Bob is out for 3
    assert three.snapshot()["dealer"] == "Cat"
    with pytest.raises(RulesError, match="out of the game"):
        three.apply({"type": "dealer", "player": "Bob"})


def test_finish_abandon_delete_and_reopen_undo_each_end() -> None:
    game = rummy(OUT, OUT)
    game.apply({"type": "end", "how": "finished"})
    snap = game.snapshot()
    assert (snap["state"], snap["ended"], snap["game_over"]) == ("finished", "finished", True)
    assert snap["winner"] == "Ann" and snap["dealer"] is None  # the leader wins a finish
    for refused in (OUT, {"type": "undo"}, {"type": "dealer", "player": "Bob"},
                    {"type": "end", "how": "abandoned"}):
        with pytest.raises(RulesError):
            game.apply(refused)
    game.apply({"type": "end", "how": "deleted"})
    assert game.snapshot()["state"] == "deleted"
    with pytest.raises(GameDeleted, match="reopen it first"):
        game.apply({"type": "end", "how": "deleted"})
    game.apply({"type": "reopen"})
    assert game.snapshot()["state"] == "finished"  # the delete undone: finished again
    game.apply({"type": "reopen"})
    snap = game.snapshot()
    assert (snap["state"], snap["ended"], snap["game_over"], snap["winner"]) == \
        ("in_play", None, False, None)
    with pytest.raises(RulesError, match="nothing to reopen"):
        game.apply({"type": "reopen"})
    game.apply({"type": "end", "how": "abandoned"})
    assert game.snapshot()["winner"] is None and game.snapshot()["state"] == "abandoned"
    with pytest.raises(RulesError, match="a game ends"):
        rummy().apply({"type": "end", "how": "paused"})


def test_a_game_the_rules_ended_is_finished_and_can_be_deleted_not_abandoned() -> None:
    game = Game("rummy", ["Ann", "Bob"], {"target": 1})
    game.apply({"type": "hand", "players": [{"name": "Ann", "hand": [], "went_out": True},
                                            {"name": "Bob", "hand": ["3C"]}]})
    assert game.snapshot()["state"] == "finished" and game.snapshot()["ended"] is None
    with pytest.raises(RulesError, match="already over"):
        game.apply({"type": "end", "how": "abandoned"})
    game.apply({"type": "end", "how": "deleted"})
    game.apply({"type": "reopen"})
    assert game.snapshot()["state"] == "finished"


def test_the_replay_of_the_log_gives_the_same_game() -> None:
    log = [OUT, {"type": "dealer", "player": "Cat"}, OUT, {"type": "undo"},
           {"type": "end", "how": "abandoned"}, {"type": "reopen"}, OUT,
           {"type": "end", "how": "finished"}]
    live = rummy(*log)
    again = game_from_events({"variant": "rummy", "players": ["Ann", "Bob", "Cat"],
                              "settings": {"target": 100_000}}, log)
    assert again.snapshot() == live.snapshot()
