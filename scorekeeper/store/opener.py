"""Which database a target names, opened: the one module that knows both kinds.

`database.py` is the interface the two implement; keeping the choice here, above both,
means neither implementation imports the module that imports it. `psycopg` is imported only
when a URL is opened, so a Pi on SQLite never loads it.
"""

from __future__ import annotations

from pathlib import Path

from scorekeeper.store.database import Database, is_url


def open_database(target: str | Path, *, backups: Path | None = None) -> Database:
    """"postgresql://" / "postgres://" → PostgreSQL (psycopg 3 with its pool), else an
    SQLite file path (taking its lock file; `backups` is where the fix for a damaged file
    looks for one)."""
    if is_url(target):
        from scorekeeper.store.postgres import PostgresDatabase

        return PostgresDatabase(str(target).strip())
    from scorekeeper.store.sqlite import SqliteDatabase

    return SqliteDatabase(Path(target), backups=backups)
