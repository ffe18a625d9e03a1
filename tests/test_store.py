"""The event store's contract, on SQLite and on PostgreSQL alike (`any_store`): replay
equivalence, nothing written on error, migrations; and SQLite's durable pragmas.

SQLite-only faults (lock file, damaged file, backups, full disk) are in
test_hardening_faults.py; PostgreSQL's own concerns in test_store_postgres.py.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import Game, RulesError
from scorekeeper.store import GameNotFound, GameOver, GameStore
from scorekeeper.store.database import Database, SchemaTooNew
from scorekeeper.store.opener import open_database
from scorekeeper.store.schema import MIGRATIONS, SCHEMA_VERSION
from scorekeeper.store.sqlite_file import connect


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
def store(any_store: GameStore) -> GameStore:
    return any_store


def rows(store: GameStore, sql: str) -> list[tuple[Any, ...]]:
    with store.database.read() as tx:
        return tx.fetchall(sql)


def test_pragmas_and_schema_version(tmp_path: Path) -> None:
    GameStore(tmp_path / "x.db").close()
    conn = connect(tmp_path / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    # the games schema's version stays in user_version: files made before still open
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_file_made_before_the_interface_opens_unchanged(tmp_path: Path) -> None:
    """A file at schema 1 (before decks), made the way the first release made it."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(f"{MIGRATIONS[0]['sqlite']}\nPRAGMA user_version = 1;")  # type: ignore[index]
        conn.execute("INSERT INTO games (variant, players, settings, created_at, summary) "
                     "VALUES ('chicago', '[\"Ann\", \"Bob\"]', '{}', 'then', '{}')")
        conn.execute("INSERT INTO events VALUES (1, 1, 'hand', ?, 'then')",
                     (json.dumps({"type": "hand", "players": HAND_1}),))
        conn.execute("UPDATE games SET seq = 1")
    store = GameStore(path)
    assert store.get(1)["seq"] == 1 and store.get(1)["deck"] is None
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "schema_versions" not in tables  # the games schema needs no new table


def test_a_file_made_before_games_could_be_ended_opens_and_lists_their_state(
        tmp_path: Path) -> None:
    """A file at schema 3 (before the `ended` column): its games keep their summaries as
    written then (no state), are listed as over or in play, and can be ended now."""
    path = tmp_path / "v3.db"
    with sqlite3.connect(path) as conn:
        for step in MIGRATIONS[:3]:
            conn.executescript(step if isinstance(step, str) else step["sqlite"])
        conn.execute("PRAGMA user_version = 3")
        for over in (True, False):
            summary = {"players": [], "game_over": over, "winner": None, "leader": None}
            conn.execute("INSERT INTO games (variant, players, settings, created_at, summary)"
                         " VALUES ('rummy', '[\"Ann\", \"Bob\"]', '{}', 'then', ?)",
                         (json.dumps(summary),))
    with GameStore(path) as store:
        assert [(g["id"], g["state"]) for g in store.games()] == [(2, "in_play"),
                                                                   (1, "finished")]
        store.append(2, {"type": "end", "how": "deleted"})
        assert [g["id"] for g in store.games()] == [1] and list(store.versions()) == [1]
        assert store.get(2)["state"] == "deleted"
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT id, ended FROM games ORDER BY id").fetchall() == \
            [(1, None), (2, "deleted")]


def _set_games_version(target: Path | str, version: int) -> None:
    if isinstance(target, Path):
        with sqlite3.connect(target) as conn:
            conn.execute(f"PRAGMA user_version = {version}")
        return
    db = open_database(target)
    try:
        with db.transaction() as tx:
            tx.execute("UPDATE schema_versions SET version = ? WHERE component = 'games'",
                       (version,))
    finally:
        db.close()


def test_migrations_are_idempotent(any_target: Path | str) -> None:
    for _ in range(2):
        store = GameStore(any_target)
        store.create("chicago", ["Ann", "Bob"])
        store.database.migrate("games", MIGRATIONS)  # up to date: changes nothing
        store.close()
    store = GameStore(any_target)
    assert [g["id"] for g in store.games()] == [2, 1]
    store.close()


def test_newer_schema_is_refused(any_target: Path | str) -> None:
    GameStore(any_target).close()
    _set_games_version(any_target, SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNew, match="newer than this scorekeeper knows"):
        GameStore(any_target)
    if isinstance(any_target, Path):  # and the refused store let go of the file
        _set_games_version(any_target, SCHEMA_VERSION)
        GameStore(any_target).close()


def test_components_migrate_on_their_own(any_target: Path | str) -> None:
    """A helper's tables (here a club's) ride along: own versions, per-dialect steps, "?"
    placeholders and a literal "%" or "?" meaning themselves on both."""
    db = open_database(any_target)
    steps: list[Any] = [
        {"sqlite": "CREATE TABLE members (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);",
         "postgresql": "CREATE TABLE members "
                       "(id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name TEXT);"},
        "ALTER TABLE members ADD COLUMN note TEXT NOT NULL DEFAULT '100% sure?';",
    ]
    try:
        db.migrate("club", steps[:1])
        db.migrate("club", steps)
        db.migrate("club", steps)
        with db.transaction() as tx:
            first = tx.insert("INSERT INTO members (name) VALUES (?)", ("Ann",))
            second = tx.insert("INSERT INTO members (name) VALUES (?)", ("Bob",))
            assert (first, second) == (1, 2)
            assert tx.fetchall("SELECT name, note FROM members WHERE note LIKE '%?' "
                               "AND id > ? ORDER BY id", (1,)) == [("Bob", "100% sure?")]
        with pytest.raises(SchemaTooNew, match="club schema"):
            db.migrate("club", steps[:1])
    finally:
        db.close()


def test_a_failed_transaction_writes_nothing(any_target: Path | str) -> None:
    store = GameStore(any_target)
    db: Database = store.database
    with pytest.raises(ZeroDivisionError), db.transaction() as tx:
        tx.insert("INSERT INTO games (variant, players, settings, created_at, summary) "
                  "VALUES ('rummy', '[]', '{}', 'now', '{}')")
        _ = 1 / 0
    assert store.games() == [] and db.ping()
    store.close()


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


def test_events_survive_a_fresh_store_and_equal_a_replay(any_target: Path | str) -> None:
    path = any_target
    store = GameStore(path)
    gid = store.create("chicago", ["Ann", "Bob"])["id"]
    for hand in (HAND_1, HAND_2, HAND_3):
        store.append(gid, {"type": "hand", "players": hand})
    store.append(gid, {"type": "correct", "n": 2, "players": HAND_3})
    store.append(gid, {"type": "undo"})
    store.append(gid, {"type": "rename", "old": "Ann", "new": "Anna"})
    live = store.get(gid)
    store.close()

    reopened = GameStore(path)
    again = reopened.get(gid)
    assert again == live and again["seq"] == 6
    assert [e["type"] for e in reopened.events(gid)] == [
        "hand", "hand", "hand", "correct", "undo", "rename"]  # history is never rewritten
    reopened.close()
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
    assert rows(store, "SELECT count(*) FROM events") == [(1,)]


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


def test_games_kept_summaries_follow_every_write(any_target: Path | str) -> None:
    """games() keeps each summary cleaned (store/games.py): a later write shows, whoever
    made it, and a caller changing what it got changes nothing for the next."""
    store = GameStore(any_target)
    try:
        gid = store.create("chicago", ["Ann", "Bob"])["id"]
        listed = store.games()
        listed[0]["players"][0]["total"] = 999
        assert store.games()[0]["players"][0]["total"] == 0
        store.append(gid, {"type": "hand", "players": HAND_1})
        assert [p["total"] for p in store.games()[0]["players"]] == [5, 60]
        if isinstance(any_target, str):  # PostgreSQL: another server's write shows too
            other = GameStore(any_target)
            try:
                other.append(gid, {"type": "hand", "players": HAND_2})
            finally:
                other.close()
            listed = store.games()
            assert listed[0]["seq"] == 2
            assert [p["total"] for p in listed[0]["players"]] == \
                [p["total"] for p in store.get(gid)["players"]] != [5, 60]
    finally:
        store.close()


def test_preview_stores_nothing(store: GameStore) -> None:
    gid = store.create("chicago", ["Ann", "Bob"])["id"]
    result = store.preview(gid, HAND_1)
    assert [p["total"] for p in result["players"]] == [5, 60]
    assert store.get(gid)["seq"] == 0 and store.events(gid) == []


def test_concurrent_appends_are_serialised(store: GameStore) -> None:
    """Threads posting to one game at once: every event lands once, in one order, and the
    stored log replays to what the store shows."""
    gid = store.create("rummy", ["Ann", "Bob"], {"target": 10_000})["id"]
    hand = [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["2C"]}]
    errors: list[BaseException] = []

    def post() -> None:
        try:
            for _ in range(5):
                store.append(gid, {"type": "hand", "players": hand})
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=post) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert rows(store, "SELECT seq FROM events ORDER BY seq") == [(n,) for n in range(1, 21)]
    assert store.get(gid)["seq"] == 20 and len(store.get(gid)["hands"]) == 20
