"""When a store backs its database up, and what became of the last backup (for health).

An SQLite file is backed up when a game ends, and when the store opens or writes while its
newest backup is a day old. How a copy is made is `backup.py`'s (SQLite's online backup
API, rotation) or pg_dump's (`PostgresDatabase.dump`); this keeps the schedule apart from
both and from the event log, whose writes only say when one may be due.
A scheduled backup that fails is logged and shown by health, and never fails the write that
made it due. A PostgreSQL server's backups are its own (a pg_dump timer): it is backed up
only when asked (`take`).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.store.backup import KEEP, backup_dir, list_backups, make_backup
from scorekeeper.store.database import Database
from scorekeeper.store.faults import StoreError, explain
from scorekeeper.store.sqlite import SqliteDatabase

log = logging.getLogger("scorekeeper.store")
DAILY_S = 24 * 3600
PG_BACKUPS = ("PostgreSQL: the server takes no backups itself; pg_dump does "
              "(scorekeeper db backup, or a timer: docs/postgresql.md)")


class BackupSchedule:
    """The backups of one store's database into `folder` (default: the `backups` folder
    beside an SQLite file; none for PostgreSQL), the newest `keep` of each kind kept.

    `lock` is the store's own, so that a backup never runs in the middle of the store's
    write; alone (a test), it has one of its own.
    """

    def __init__(self, database: Database, folder: Path | None = None, keep: int = KEEP, *,
                 lock: threading.RLock | None = None) -> None:
        self.database = database
        self._sqlite = database if isinstance(database, SqliteDatabase) else None
        if folder is None and self._sqlite is not None:
            folder = backup_dir(self._sqlite.path)
        self.folder = folder
        self.keep = keep
        self._lock = lock or threading.RLock()
        self.last: Path | None = None  # the newest backup, taken or found
        self.last_at = 0.0             # when it was taken (time.time())
        self.error: str | None = None  # the last scheduled backup's failure, in words

    def resume(self) -> None:
        """Pick the schedule up from the backups already in the folder, and take the daily
        one now if it is due (an SQLite file; the store calls this once it is open)."""
        if self._sqlite is None:
            return
        newest = list_backups(self._sqlite.path, self.folder)
        self.last = newest[-1] if newest else None
        self.last_at = newest[-1].stat().st_mtime if newest else 0.0
        self.take_if_due("daily")

    def take(self, kind: str = "manual") -> Path:
        """A consistent copy into the backups folder now: on SQLite the newest `keep` of
        each kind are kept; on PostgreSQL it is pg_dump's (if installed)."""
        with self._lock:
            if self._sqlite is None:
                target = self._dump(kind)
            else:
                with self._sqlite.connection() as conn:
                    target = make_backup(conn, self._sqlite.path, kind, self.folder, self.keep)
            self.last, self.error = target, None
            self.last_at = time.time()
            return target

    def _dump(self, kind: str) -> Path:
        from scorekeeper.store.postgres import PostgresDatabase

        if not isinstance(self.database, PostgresDatabase) or self.folder is None:
            raise StoreError(f"no backups folder for {self.database.where}: give one")
        return self.database.dump(self.folder / self.database.dump_name(kind))

    def take_if_due(self, kind: str) -> None:
        """Back up after a game ends ("game") or when the newest backup is a day old
        ("daily"); a failed backup is logged and kept for health, never raised. Only an
        SQLite file."""
        if self._sqlite is None or (kind == "daily" and (
                time.time() - self.last_at < DAILY_S or not self._has_games())):
            return
        try:
            self.take(kind)
        except (sqlite3.Error, OSError) as exc:
            when = datetime.now(UTC).isoformat(timespec="seconds")
            self.error = f"{when}: backup failed: {explain(exc, 'back up')}"
            log.error("%s", self.error)

    def _has_games(self) -> bool:
        with self.database.read() as tx:
            return tx.fetchone("SELECT 1 FROM games LIMIT 1") is not None

    def status(self) -> dict[str, Any]:
        """The newest backup's name and the last failure, as health shows them."""
        status: dict[str, Any] = {"last": self.last.name if self.last else None,
                                  "error": self.error}
        if self._sqlite is None:
            status["note"] = PG_BACKUPS
        return status
