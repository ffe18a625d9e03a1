"""The store's health probe and its backups' schedule, on a database of their own (no
GameStore): what /api/health shows and when a backup is taken.

Through the store and the server the same are tested in test_hardening_faults.py (SQLite's
faults) and test_store_postgres.py (PostgreSQL's health and pg_dump).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import backup_schedule, health
from scorekeeper.store.backup import list_backups
from scorekeeper.store.backup_schedule import BackupSchedule
from scorekeeper.store.database import Database
from scorekeeper.store.faults import StoreError
from scorekeeper.store.health import StoreHealth
from scorekeeper.store.opener import open_database
from scorekeeper.store.schema import migrate_games


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(tmp_path / "games.db")
    migrate_games(database)
    yield database
    database.close()


def add_game(db: Database) -> None:
    with db.transaction() as tx:
        tx.execute("INSERT INTO games (variant, players, settings, created_at, summary)"
                   " VALUES ('rummy', '[\"Ann\", \"Bob\"]', '{}', 'now', '{}')")


def statvfs(*, free: int, read_only: bool = False) -> Any:
    class Stat:
        f_bavail, f_frsize = free // 4096, 4096
        f_flag = os.ST_RDONLY if read_only else 0

    return lambda _: Stat()


# --- the health probe ----------------------------------------------------------------------

def test_a_writable_file_reports_its_space_and_no_backup_yet(db: Database) -> None:
    probe = StoreHealth(db, BackupSchedule(db))
    assert probe.ping()
    report = probe.report()
    assert report["writable"] is True and report["problem"] is None
    assert report["free_mib"] > 0 and "database" not in report
    assert report["backup"] == {"last": None, "error": None}
    assert "last_write_error" not in report
    assert probe.report() is report  # cached: health asks often, the probe runs once


def test_the_probe_changes_nothing(db: Database) -> None:
    add_game(db)
    StoreHealth(db, BackupSchedule(db)).report()
    with db.read() as tx:
        assert tx.fetchall("SELECT seq FROM games") == [(0,)]


def test_a_failed_write_is_shown_until_one_succeeds(db: Database) -> None:
    probe = StoreHealth(db, BackupSchedule(db))
    before = probe.report()
    probe.write_failed(sqlite3.OperationalError("database or disk is full"))
    failed = probe.report()
    assert failed is not before  # probed afresh
    assert failed["last_write_error"]["detail"].startswith(
        "the scorekeeper cannot save: the disk is full")
    assert failed["writable"] is True  # the file itself takes writes again
    probe.write_succeeded()
    assert "last_write_error" not in probe.report()


def test_a_damaged_file_after_a_failed_write_is_checked_again(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    probe = StoreHealth(db, BackupSchedule(db))
    probe.write_failed(sqlite3.DatabaseError("database disk image is malformed"))
    assert probe.report()["writable"] is True  # SQLite's own check finds the file sound
    probe._probe = None
    monkeypatch.setattr(type(db), "integrity", lambda self, quick=True: ["page 2: bad"])
    report = probe.report()
    assert report["writable"] is False
    assert "the database is damaged" in report["problem"]


@pytest.mark.parametrize(("stat", "problem", "warning"), [
    (statvfs(free=512 << 10), "the disk is full", None),
    (statvfs(free=1 << 30, read_only=True), "the storage is read-only", None),
    (statvfs(free=10 << 20), None, "the disk is nearly full: 10 MiB left"),
])
def test_the_file_system_is_looked_at_first(
        db: Database, monkeypatch: pytest.MonkeyPatch, stat: Any, problem: str | None,
        warning: str | None) -> None:
    monkeypatch.setattr(health.os, "statvfs", stat)
    report = StoreHealth(db, BackupSchedule(db)).report()
    assert report["writable"] is (problem is None)
    if problem:
        assert report["problem"].startswith(f"the scorekeeper cannot save: {problem}")
    assert report.get("warning") == warning


def test_the_answer_is_kept_for_the_probes_time(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    probe = StoreHealth(db, BackupSchedule(db))
    first = probe.report()
    monkeypatch.setattr(health, "PROBE_TTL_S", 0.0)
    assert probe.report() is not first


# --- the backups' schedule -----------------------------------------------------------------

def test_a_backup_is_taken_into_the_folder_beside_the_file(db: Database, tmp_path: Path) -> None:
    backups = BackupSchedule(db)
    assert backups.folder == tmp_path / "backups"
    target = backups.take()
    assert target.parent == backups.folder and target.name.endswith("-manual.db")
    assert backups.last == target and backups.last_at > 0
    assert StoreHealth(db, backups).report()["backup"] == {"last": target.name, "error": None}


def test_daily_only_with_games_and_once_a_day(db: Database, tmp_path: Path) -> None:
    backups = BackupSchedule(db)
    backups.take_if_due("daily")
    assert list_backups(tmp_path / "games.db") == []  # nothing worth keeping yet
    add_game(db)
    backups.take_if_due("daily")
    backups.take_if_due("daily")
    assert len(list_backups(tmp_path / "games.db", kind="daily")) == 1
    backups.last_at -= backup_schedule.DAILY_S
    backups.take_if_due("daily")
    assert len(list_backups(tmp_path / "games.db", kind="daily")) == 2


def test_each_ended_game_is_backed_up_and_the_newest_kept(db: Database, tmp_path: Path) -> None:
    backups = BackupSchedule(db, keep=2)
    for _ in range(3):
        backups.take_if_due("game")
    assert len(list_backups(tmp_path / "games.db", kind="game")) == 2


def test_resuming_finds_the_newest_backup_and_takes_the_daily_when_due(
        db: Database, tmp_path: Path) -> None:
    add_game(db)
    taken = BackupSchedule(db).take("game")
    again = BackupSchedule(db)
    assert again.last is None
    again.resume()
    assert again.last == taken and again.last_at == taken.stat().st_mtime
    assert list_backups(tmp_path / "games.db", kind="daily") == []  # the game's counts
    os.utime(taken, (taken.stat().st_mtime - backup_schedule.DAILY_S,) * 2)
    later = BackupSchedule(db)
    later.resume()
    assert later.last is not None and later.last.name.endswith("-daily.db")


def test_a_backup_that_fails_is_kept_for_health_never_raised(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_: Any, **__: Any) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup_schedule, "make_backup", full)
    backups = BackupSchedule(db)
    backups.take_if_due("game")
    assert backups.error is not None and "backup failed" in backups.error
    assert "the disk is full" in StoreHealth(db, backups).report()["backup"]["error"]
    with pytest.raises(OSError):
        backups.take()  # asked for, a failure is the caller's


def test_a_server_database_is_backed_up_only_when_asked(pg_url: str, tmp_path: Path) -> None:
    db = open_database(pg_url)
    try:
        migrate_games(db)
        add_game(db)
        backups = BackupSchedule(db)
        assert backups.folder is None
        backups.take_if_due("game")
        assert backups.last is None  # its server's backups are its own
        with pytest.raises(StoreError, match="no backups folder"):
            backups.take()
        report = StoreHealth(db, backups).report()
        assert report["writable"] is True and "free_mib" not in report
        assert report["database"] == db.where and "pg_dump" in report["backup"]["note"]
    finally:
        db.close()
