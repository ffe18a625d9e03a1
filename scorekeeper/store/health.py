"""Whether the store can read and write now, and if not why, in words (for /api/health).

Health is asked often (a monitor, the phone page), and a real write on each ask would wear
the SD card; so the write probe looks at the file system (mounted read-only? space left?)
and runs a write statement that changes nothing, rolled back, and its answer is kept for
PROBE_TTL_S. The store tells it how its last write went, so that a failed write is shown
until one succeeds, and the probe is run afresh after either.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.store.database import Database
from scorekeeper.store.faults import HINTS, REASONS, Fault, StoreError, classify, explain
from scorekeeper.store.sqlite import SqliteDatabase

if TYPE_CHECKING:
    from scorekeeper.store.backup_schedule import BackupSchedule

PROBE_TTL_S = 2.0          # health asks often; the write probe answers from this cache
MIN_FREE_BYTES = 1 << 20   # below this the next write will likely fail: call the disk full
LOW_FREE_BYTES = 50 << 20  # below this, health warns


class _Probe(Exception):
    """Rolls the write probe's transaction back."""


def _space_fault(folder: Path) -> tuple[Fault | None, int]:
    """("readonly" | "full" | None, bytes free) for the file system holding `folder`."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    if st.f_flag & os.ST_RDONLY:
        return "readonly", free
    return ("full" if free < MIN_FREE_BYTES else None), free


class StoreHealth:
    """The health of one store's database, and of its backups (`backups`).

    `lock` is the store's own, so that a probe never runs between a write and the store's
    record of it; alone (a test), it has one of its own.
    """

    def __init__(self, database: Database, backups: BackupSchedule, *,
                 lock: threading.RLock | None = None) -> None:
        self.database = database
        self.backups = backups
        self._sqlite = database if isinstance(database, SqliteDatabase) else None
        self._lock = lock or threading.RLock()
        self._write_error: tuple[str, BaseException] | None = None
        self._probe: tuple[float, dict[str, Any]] | None = None

    def ping(self) -> bool:
        """Whether the database answers a query."""
        return self.database.ping()

    def write_failed(self, exc: BaseException) -> None:
        """A write failed with `exc`: shown until a write succeeds, and probed afresh."""
        with self._lock:
            self._write_error = (datetime.now(UTC).isoformat(timespec="seconds"), exc)
            self._probe = None

    def write_succeeded(self) -> None:
        """A write succeeded: a failure shown before is over."""
        with self._lock:
            if self._write_error is not None:
                self._write_error, self._probe = None, None

    def report(self) -> dict[str, Any]:
        """Whether a write would succeed now, and if not why, in words (cached PROBE_TTL_S).

        A write statement that changes nothing, rolled back: SQLite refuses it on a
        read-only or locked file, PostgreSQL on a standby or for a user who may not write.
        After a write failed as damaged, an SQLite file is checked again too.
        """
        with self._lock:
            now = time.monotonic()
            if self._probe is None or now - self._probe[0] >= PROBE_TTL_S:
                self._probe = (now, self._check_writable())
            return self._probe[1]

    def _check_writable(self) -> dict[str, Any]:
        path = self._sqlite.path if self._sqlite else None
        fault, free = _space_fault(path.parent) if path else (None, None)
        problem = f"the scorekeeper cannot save: {REASONS[fault]} ({HINTS[fault]})" \
            if fault else self._probe_write()
        health: dict[str, Any] = {"writable": problem is None, "problem": problem}
        if free is not None:
            health["free_mib"] = round(free / 2**20, 1)
            if problem is None and free < LOW_FREE_BYTES:
                health["warning"] = f"the disk is nearly full: {free / 2**20:.0f} MiB left"
        else:
            health["database"] = self.database.where  # the URL, its password as ***
        if self._write_error is not None:
            when, exc = self._write_error
            health["last_write_error"] = {"at": when, "detail": explain(exc)}
        health["backup"] = self.backups.status()
        return health

    def _probe_write(self) -> str | None:
        damaged = self._write_error is not None and classify(self._write_error[1]) == "damaged"
        found: str | None = None
        try:
            with self.database.transaction() as tx:
                tx.execute("UPDATE games SET seq = seq WHERE 1 = 0")
                if damaged and self._sqlite and self._sqlite.integrity():
                    found = explain(self._write_error[1])  # type: ignore[index]
                raise _Probe  # roll back: the probe must change nothing
        except _Probe:
            return found
        except (sqlite3.Error, StoreError) as exc:
            return explain(exc)
