"""`scorekeeper db backup | restore | check`: the database's care, from the command line.

backup and check only read, so they run beside a live server; restore replaces the file
and is refused while a server holds it. On a PostgreSQL URL, backup runs pg_dump, check
asks the server, and restore is pg_restore's job (the message says how).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from scorekeeper.store.backup import (
    backup_dir,
    backup_name,
    check_file,
    copy_database,
    damaged_message,
    list_backups,
    make_backup,
    open_read_only,
    restore,
)
from scorekeeper.store.database import is_url, redact
from scorekeeper.store.faults import StoreError, explain

if TYPE_CHECKING:
    from scorekeeper.store.postgres import PostgresDatabase

EXIT_DAMAGED = 1
EXIT_CANNOT = 2


def _counts(path: Path) -> str:
    conn = open_read_only(path)
    try:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()
    return f"{games} games, {events} events, schema {version}"


def _cannot(err: TextIO, what: str, exc: BaseException) -> int:
    if isinstance(exc, PermissionError):
        detail = (f"permission denied on {exc.filename or 'the data folder'}: the data "
                  f"belongs to the service user; run this with sudo")
    elif isinstance(exc, sqlite3.Error | OSError):
        detail = explain(exc, what)
    else:
        detail = str(exc)
    err.write(f"scorekeeper: {detail}\n")
    return EXIT_CANNOT


def _server(url: str) -> PostgresDatabase:
    """The PostgreSQL database (its schema left as it is: these commands only read)."""
    from scorekeeper.store.postgres import PostgresDatabase

    return PostgresDatabase(url, max_size=1)


def _server_counts(db: PostgresDatabase) -> str:
    with db.read() as tx:
        if tx.fetchone("SELECT to_regclass('schema_versions')") == (None,):
            return "no scorekeeper tables yet (a server started on it makes them)"
        version = tx.fetchone("SELECT version FROM schema_versions WHERE component = 'games'")
        if version is None:
            return "no games schema yet (a server started on it makes it)"
        counts = tx.fetchone(
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events)")
        games, events = counts if counts else (0, 0)
    return f"{games} games, {events} events, schema {version[0]}"


def _backup_server(url: str, to: Path | None, folder: Path | None, out: TextIO) -> int:
    with _server(url) as db:
        name = db.dump_name("manual")
        target = (to / name if to.is_dir() else to) if to is not None else \
            (folder or Path("backups")) / name
        db.dump(target)
        out.write(f"backed up {db.where} to {target} with pg_dump (restore: pg_restore "
                  f"--clean --if-exists --dbname=URL {target}) ({_server_counts(db)})\n")
    return 0


def backup(db: Path | str, to: Path | None, out: TextIO, err: TextIO,
           folder: Path | None = None) -> int:
    """Copy the database (live or not) to `to`, or into `folder` (default: the backups
    folder beside an SQLite file); a PostgreSQL database with pg_dump."""
    if is_url(db):
        try:
            return _backup_server(str(db), to, folder, out)
        except (StoreError, OSError) as exc:
            return _cannot(err, "back up", exc)
    db = Path(db)
    try:
        conn = open_read_only(db)
        try:
            if to is None:
                target = make_backup(conn, db, "manual", folder)
            else:
                target = to / backup_name(db, "manual") if to.is_dir() else to
                copy_database(conn, target)
        finally:
            conn.close()
        out.write(f"backed up {db} to {target} ({_counts(target)})\n")
        return 0
    except (StoreError, sqlite3.Error, OSError) as exc:
        return _cannot(err, "back up", exc)


def restore_from(db: Path | str, source: Path, out: TextIO, err: TextIO) -> int:
    """Replace the database by a backup, keeping the one it replaces."""
    if is_url(db):
        err.write(f"scorekeeper: {redact(db)} is a PostgreSQL database: restore a pg_dump "
                  f"backup with pg_restore, the servers stopped: pg_restore --clean "
                  f"--if-exists --dbname=URL {source} (docs/postgresql.md)\n")
        return EXIT_CANNOT
    db = Path(db)
    try:
        kept = restore(source, db)
        out.write(f"restored {db} from {source} ({_counts(db)})\n")
        if kept is not None:
            out.write(f"the database it replaced is kept as {kept}\n")
        out.write("start the server again (the installed service: "
                  "sudo systemctl start scorekeeper)\n")
        return 0
    except (StoreError, sqlite3.Error, OSError) as exc:
        return _cannot(err, "restore", exc)


def check(db: Path | str, out: TextIO, err: TextIO) -> int:
    """A full integrity check: 0 sound, 1 damaged (with the restore command), 2 cannot.
    A PostgreSQL database: whether it answers, and what it holds (its server checks
    itself)."""
    if is_url(db):
        try:
            with _server(str(db)) as server:
                out.write(f"{server.where}: ok ({_server_counts(server)})\n")
                out.write("backups: pg_dump's (scorekeeper db backup, or a timer: "
                          "docs/postgresql.md)\n")
            return 0
        except StoreError as exc:
            return _cannot(err, "check", exc)
    db = Path(db)
    try:
        problems = check_file(db)
        if problems:
            err.write(f"scorekeeper: {damaged_message(db, problems)}\n")
            return EXIT_DAMAGED
        out.write(f"{db}: ok ({_counts(db)})\n")
    except (StoreError, sqlite3.Error, OSError) as exc:
        return _cannot(err, "check", exc)
    found = list_backups(db)
    if found:
        out.write(f"backups: {len(found)} in {backup_dir(db)}, newest {found[-1].name}\n")
    else:
        out.write(f"backups: none yet in {backup_dir(db)}\n")
    return 0
