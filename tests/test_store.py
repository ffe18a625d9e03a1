"""The event store: durable pragmas, migrations, replay equivalence, nothing written on error."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import Game, RulesError
from scorekeeper.store import GameNotFound, GameOver, GameStore
from scorekeeper.store.db import SCHEMA_VERSION, connect


def chicago_hand(ann: str, bob: str) -> list[dict[str, Any]]:
    """Ann knocks; each argument is that player's seven cards, space-separated."""
    return [
        {"name": "Ann", "hand": ann.split(), "knocked": True},
        {"name": "Bob", "hand": bob.split()},
    ]


HAND_1 = chicago_hand("AH 2H 3H 4C 4D 4S 5C", "KC QD JS 9H 8H 7C 6D")
HAND_2 = chicago_hand("5H 6H 7H 9C 9D 9S AC", "3C 4C 5C JD JS JH 2D")
HAND_3 = chicago_hand("KH KD KS 3D 4D 5D 2S", "AS AD 7S 8S 9S QC QH")


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games.db")


def rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


def test_pragmas_and_schema_version(tmp_path: Path) -> None:
    conn = connect(tmp_path / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    connect(tmp_path / "x.db").close()  # migrating an up-to-date file is a no-op


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RuntimeError, match="newer"):
        connect(path)


def test_create_and_get(store: GameStore) -> None:
    view = store.create("chicago", ["Ann", "Bob"], {"knock_penalty": 10})
    assert view["seq"] == 0 and view["id"] == 1 and view["created_at"]
    assert view["settings"]["knock_penalty"] == 10
    assert store.get(1) == view
    assert store.games()[0]["players"] == [
        {"name": "Ann", "total": 0, "eliminated": False},
        {"name": "Bob", "total": 0, "eliminated": False},
    ]


def test_bad_setup_writes_nothing(store: GameStore) -> None:
    with pytest.raises(RulesError):
        store.create("canasta", ["Ann", "Bob"])
    assert store.games() == []


def test_events_survive_a_fresh_store_and_equal_a_replay(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = GameStore(path)
    gid = store.create("chicago", ["Ann", "Bob"])["id"]
    for hand in (HAND_1, HAND_2, HAND_3):
        store.append(gid, {"type": "hand", "players": hand})
    store.append(gid, {"type": "correct", "n": 2, "players": HAND_3})
    store.append(gid, {"type": "undo"})
    store.append(gid, {"type": "rename", "old": "Ann", "new": "Anna"})
    live = store.get(gid)
    store.close()

    again = GameStore(path).get(gid)
    assert again == live and again["seq"] == 6
    fresh = Game("chicago", ["Ann", "Bob"])
    for hand in (HAND_1, HAND_3):
        fresh.apply({"type": "hand", "players": hand})
    fresh.apply({"type": "rename", "old": "Ann", "new": "Anna"})
    snap = fresh.snapshot()
    assert [p["total"] for p in live["players"]] == [p["total"] for p in snap["players"]]
    assert live["hands"] == snap["hands"]


def test_refused_event_leaves_store_untouched(store: GameStore) -> None:
    gid = store.create("chicago", ["Ann", "Bob"])["id"]
    store.append(gid, {"type": "hand", "players": HAND_1})
    before = store.get(gid)
    bad = chicago_hand("7H 7H 7H 4C 4D 4S 5C", "KC QD JS 9H 8H 7C 6D")  # three 7H, two decks
    with pytest.raises(RulesError):
        store.append(gid, {"type": "hand", "players": bad})
    with pytest.raises(RulesError):
        store.append(gid, {"type": "correct", "n": 5, "players": HAND_1})
    assert store.get(gid) == before
    assert rows(store.path, "SELECT count(*) FROM events") == [(1,)]


def test_unknown_game(store: GameStore) -> None:
    with pytest.raises(GameNotFound):
        store.get(7)
    with pytest.raises(GameNotFound):
        store.append(7, {"type": "undo"})


def test_hand_after_game_over_is_refused(store: GameStore) -> None:
    gid = store.create("rummy", ["Ann", "Bob"], {"target": 5})["id"]
    out = [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["9C"]}]
    view, result = store.append(gid, {"type": "hand", "players": out})
    assert result is not None and result["game_over"] and view["winner"] == "Ann"
    with pytest.raises(GameOver):
        store.append(gid, {"type": "hand", "players": out})
    assert store.get(gid)["seq"] == 1
    store.append(gid, {"type": "undo"})  # a finished game can still be corrected
    assert store.get(gid)["game_over"] is False


def test_games_newest_first_with_summary(store: GameStore) -> None:
    first = store.create("chicago", ["Ann", "Bob"])["id"]
    second = store.create("rummy500", ["Cy", "Di"])["id"]
    store.append(first, {"type": "hand", "players": HAND_1})
    listed = store.games()
    assert [g["id"] for g in listed] == [second, first]
    assert listed[1]["seq"] == 1 and listed[1]["leader"] == "Ann"
    assert [p["total"] for p in listed[1]["players"]] == [5, 60]


def test_preview_stores_nothing(store: GameStore) -> None:
    gid = store.create("chicago", ["Ann", "Bob"])["id"]
    result = store.preview(gid, HAND_1)
    assert [p["total"] for p in result["players"]] == [5, 60]
    assert store.get(gid)["seq"] == 0 and store.events(gid) == []
