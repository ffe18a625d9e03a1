"""`scorekeeper db backup | restore | check`: the database's care, from the command line.

backup and check only read, so they run beside a live server; restore replaces the file
and is refused while a server holds it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TextIO

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
from scorekeeper.store.faults import StoreError, explain

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


def backup(db: Path, to: Path | None, out: TextIO, err: TextIO) -> int:
    """Copy the database (live or not) to `to`, or into its backups folder."""
    try:
        conn = open_read_only(db)
        try:
            if to is None:
                target = make_backup(conn, db, "manual")
            else:
                target = to / backup_name(db, "manual") if to.is_dir() else to
                copy_database(conn, target)
        finally:
            conn.close()
        out.write(f"backed up {db} to {target} ({_counts(target)})\n")
        return 0
    except (StoreError, sqlite3.Error, OSError) as exc:
        return _cannot(err, "back up", exc)


def restore_from(db: Path, source: Path, out: TextIO, err: TextIO) -> int:
    """Replace the database by a backup, keeping the one it replaces."""
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


def check(db: Path, out: TextIO, err: TextIO) -> int:
    """A full integrity check: 0 sound, 1 damaged (with the restore command), 2 cannot."""
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
