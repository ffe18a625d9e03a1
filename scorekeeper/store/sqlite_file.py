"""An SQLite file opened for durability, and SQLite's own check of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def connect(path: Path) -> sqlite3.Connection:
    """Open the file so that a committed write survives a crash or power cut.

    WAL with synchronous=FULL fsyncs the log on every commit; autocommit mode
    (isolation_level=None) lets the store spell out each transaction itself. The schema is
    the store's to migrate (`Database.migrate("games", MIGRATIONS)`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def integrity(conn: sqlite3.Connection, *, quick: bool = True) -> list[str]:
    """SQLite's own consistency check: [] when sound, else its findings (at most 20).

    quick_check reads every page but skips the index-versus-table comparison, so it costs
    about one read of the file: cheap enough for every start.
    """
    pragma = "quick_check(20)" if quick else "integrity_check(20)"
    rows = [str(row[0]) for row in conn.execute(f"PRAGMA {pragma}").fetchall()]
    return [] if rows == ["ok"] else rows
