"""A stale write (412) is refused from the game's stored version, never a replay of it, and
no game's replay holds up the writes of another.

A 412 used to replay the whole game under the store's lock to say what changed: each cost
the square of the game's length (a 413-hand game: 2 s), and ten of them held a hand on
another game for seconds. `benchmarks/bench_stale.py` measures both through the server.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import Game
from scorekeeper.store import GameMoved, GameStore
from scorekeeper.store.requests import MAX_CHANGES

CARDS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]


def hand(i: int = 0, bob: str = "Bob") -> dict[str, Any]:
    return {"type": "hand", "players": [{"name": "Ann", "hand": [], "went_out": True},
                                        {"name": bob, "hand": [CARDS[i % len(CARDS)]]}]}


def long_game(store: GameStore, hands: int, players: tuple[str, str] = ("Ann", "Bob")) -> int:
    gid = int(store.create("rummy", list(players), {"target": 100_000})["id"])
    for i in range(hands):
        store.append(gid, hand(i, players[1]))
    return gid


def test_a_stale_write_replays_nothing(any_target: Path | str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(any_target)
    try:
        gid = long_game(store, 60)
        store.get(gid)  # the phone loaded it: cached
        applied: list[str] = []
        real = Game.apply

        def counted(game: Game, event: dict[str, Any], *, stored: bool = False) -> Any:
            applied.append(event["type"])
            return real(game, event, stored=stored)

        monkeypatch.setattr(Game, "apply", counted)
        for expected in (0, 30, 59):
            with pytest.raises(GameMoved) as moved:
                store.write(gid, hand(), expect_seq=expected)
            changes = 60 - expected
            shown = min(changes, MAX_CHANGES)
            assert moved.value.seq == 60 and len(moved.value.changes) == shown
            assert moved.value.earlier == changes - shown
            assert moved.value.changes[-1] == "hand 60 was saved from another phone"
            assert moved.value.moves[0] == {"change": "hand", "hand": 60 - shown + 1}
            if changes > shown:
                assert f"(and {changes - shown} earlier changes)" in str(moved.value)
        assert applied == []  # no event applied: nothing replayed
        assert store.get(gid)["seq"] == 60
    finally:
        store.close()


def test_changes_name_each_hand_as_it_was_numbered_then(any_target: Path | str) -> None:
    store = GameStore(any_target)
    try:
        gid = long_game(store, 1)
        for event in (hand(1), {"type": "undo"}, hand(2), {"type": "correct", "n": 1,
                      "players": hand(3)["players"]}, {"type": "rename", "old": "Bob",
                      "new": "Rob"}, {"type": "settings", "settings": {"target": 500}},
                      {"type": "dealer", "player": "Rob"}, {"type": "end", "how": "finished"}):
            store.append(gid, event)
        with pytest.raises(GameMoved) as moved:
            store.write(gid, {"type": "reopen"}, expect_seq=1)
        assert moved.value.changes == [
            "hand 2 was saved from another phone", "hand 2 was undone from another phone",
            "hand 2 was saved from another phone", "hand 1 was corrected from another phone",
            "Bob was renamed Rob from another phone",
            "the house rules were changed from another phone",
            "Rob was named the dealer from another phone",
            "the game was finished from another phone"]
        assert moved.value.earlier == 0
        with pytest.raises(GameMoved) as ahead:
            store.write(gid, {"type": "reopen"}, expect_seq=99)
        assert ahead.value.changes == [] and "reload the game" in str(ahead.value)
    finally:
        store.close()


def test_a_long_games_replay_holds_no_other_game(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A stale write on a long game not cached yet (after a restart) replays it first; a
    hand on another game meanwhile is written at once, not after that replay."""
    db = tmp_path / "games.db"
    with GameStore(db) as first:
        long_id = long_game(first, 30, ("Ann", "Cat"))
        other = long_game(first, 0)
    store = GameStore(db)  # a restart: nothing cached
    replaying, release = threading.Event(), threading.Event()
    real = Game.apply

    def slow(game: Game, event: dict[str, Any], *, stored: bool = False) -> Any:
        if stored and game.names == ["Ann", "Cat"]:  # the long game, replayed
            replaying.set()
            release.wait(10)
        return real(game, event, stored=stored)

    monkeypatch.setattr(Game, "apply", slow)
    refused: list[BaseException] = []

    def stale() -> None:
        try:
            store.write(long_id, hand(0, "Cat"), expect_seq=3)
        except GameMoved as exc:
            refused.append(exc)

    thread = threading.Thread(target=stale)
    thread.start()
    try:
        assert replaying.wait(10)
        started = time.monotonic()
        view, _ = store.append(other, hand())  # while the long game's replay waits
        assert view["seq"] == 1 and time.monotonic() - started < 5
        assert not release.is_set()
    finally:
        release.set()
        thread.join(10)
        store.close()
    assert len(refused) == 1 and refused[0].seq == 30  # type: ignore[attr-defined]
