"""The SQLite file: durable pragmas and a numbered list of schema migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

# Each entry brings the schema from version i to i + 1; append, never edit a shipped one.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        variant TEXT NOT NULL,
        players TEXT NOT NULL,      -- JSON list of names at creation
        settings TEXT NOT NULL,     -- JSON object as given at creation
        created_at TEXT NOT NULL,
        seq INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL       -- JSON, rewritten with each event for cheap listings
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,         -- the event exactly as applied
        created_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    """,
    # the deck profile the game's scans read with (`scorekeeper deck`); NULL: the generic model
    "ALTER TABLE games ADD COLUMN deck TEXT;",
]

SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: Path) -> sqlite3.Connection:
    """Open the database so that a committed write survives a crash or power cut.

    WAL with synchronous=FULL fsyncs the log on every commit; autocommit mode
    (isolation_level=None) lets the store spell out each transaction itself.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    migrate(conn)
    return conn


def integrity(conn: sqlite3.Connection, *, quick: bool = True) -> list[str]:
    """SQLite's own consistency check: [] when sound, else its findings (at most 20).

    quick_check reads every page but skips the index-versus-table comparison, so it costs
    about one read of the file: cheap enough for every start.
    """
    pragma = "quick_check(20)" if quick else "integrity_check(20)"
    rows = [str(row[0]) for row in conn.execute(f"PRAGMA {pragma}").fetchall()]
    return [] if rows == ["ok"] else rows


def migrate(conn: sqlite3.Connection) -> None:
    """Apply the migrations this file has not seen yet, each atomically with its version bump."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise RuntimeError(
            f"database schema version {version} is newer than this scorekeeper "
            f"({SCHEMA_VERSION}); upgrade scorekeeper"
        )
    for number in range(version, SCHEMA_VERSION):
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[number]}\n"
                f"PRAGMA user_version = {number + 1};\nCOMMIT;"
            )
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
