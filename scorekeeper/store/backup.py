"""Backups with SQLite's online backup API, the check that finds a damaged file, and restore.

A backup is a consistent copy taken while the server runs (the API copies the pages under
SQLite's own locking, WAL included) into `<db folder>/backups/<stem>-<UTC time>-<kind>.db`,
a single rollback-journal file that opens anywhere. The newest KEEP of each kind are kept.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from scorekeeper.store.faults import StoreDamaged, StoreError, classify, explain
from scorekeeper.store.lock import DbLock, match_owner
from scorekeeper.store.schema import SCHEMA_VERSION
from scorekeeper.store.sqlite_file import connect, integrity

KEEP = 10
_STAMP = "%Y%m%dT%H%M%S"


def backup_dir(db: Path) -> Path:
    return db.parent / "backups"


def _pattern(db: Path) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(db.stem)}-(\d{{8}}T\d{{6}}\.\d{{3}}Z)-([a-z-]+)\.db")


def list_backups(db: Path, folder: Path | None = None, kind: str | None = None) -> list[Path]:
    """The backups of `db`, oldest first (their names sort by time)."""
    folder = folder or backup_dir(db)
    if not folder.is_dir():
        return []
    pattern = _pattern(db)
    found = [(m[1], p) for p in folder.iterdir()
             if (m := pattern.fullmatch(p.name)) and (kind is None or m[2] == kind)]
    return [p for _, p in sorted(found)]


def backup_name(db: Path, kind: str, when: datetime | None = None) -> str:
    when = when or datetime.now(UTC)
    return f"{db.stem}-{when.strftime(_STAMP)}.{when.microsecond // 1000:03d}Z-{kind}.db"


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def copy_database(source: sqlite3.Connection, target: Path) -> Path:
    """A consistent copy of `source` at `target`, written aside and renamed into place.

    The copy is switched to a rollback journal so it is one self-contained file.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        leftover.unlink(missing_ok=True)
    dest = sqlite3.connect(tmp)
    try:
        source.backup(dest)
        dest.execute("PRAGMA journal_mode=DELETE")
    finally:
        dest.close()
    _fsync(tmp)
    os.replace(tmp, target)
    _fsync(target.parent)
    return target


def make_backup(source: sqlite3.Connection, db: Path, kind: str,
                folder: Path | None = None, keep: int = KEEP) -> Path:
    """Back `db` up into its backups folder as `kind`, then drop all but the newest `keep`."""
    folder = folder or backup_dir(db)
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o750)
        match_owner(folder, db.parent)
    target = copy_database(source, folder / backup_name(db, kind))
    match_owner(target, db.parent)
    for old in list_backups(db, folder, kind)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
    return target


def open_read_only(path: Path) -> sqlite3.Connection:
    """Open an existing file without writing to it (never creates one)."""
    if not path.is_file():
        raise StoreError(f"no database at {path}")
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def check_file(path: Path, *, quick: bool = False) -> list[str]:
    """[] if `path` is a sound SQLite file, else what SQLite found wrong with it."""
    try:
        conn = open_read_only(path)
        try:
            return integrity(conn, quick=quick)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return [str(exc)]


def fix_hint(db: Path, folder: Path | None = None) -> str:
    """What to do about a damaged database: the restore command with the newest backup."""
    found = list_backups(db, folder)
    if found:
        return (f"with the server stopped, restore the newest backup: scorekeeper db restore "
                f"{found[-1]} --db {db} (older ones are beside it)")
    return (f"there is no backup in {folder or backup_dir(db)}; `sqlite3 {db} .recover` "
            f"may save part of it into a new file")


def damaged_message(db: Path, problems: list[str], folder: Path | None = None) -> str:
    shown = "; ".join(problems[:3]) + (f"; … {len(problems) - 3} more" if len(problems) > 3
                                        else "")
    return f"the database {db} is damaged ({shown}). To fix it: {fix_hint(db, folder)}"


def open_checked(db: Path, folder: Path | None = None) -> sqlite3.Connection:
    """`connect`, then `PRAGMA quick_check`: a damaged file stops the start, in words."""
    try:
        conn = connect(db)
    except sqlite3.Error as exc:
        if classify(exc) == "damaged":
            raise StoreDamaged(damaged_message(db, [str(exc)], folder)) from exc
        raise StoreError(f"{db}: {explain(exc, 'open its database')}") from exc
    try:
        problems = integrity(conn)
    except sqlite3.DatabaseError as exc:
        problems = [str(exc)]
    if problems:
        conn.close()
        raise StoreDamaged(damaged_message(db, problems, folder))
    return conn


def _schema_problem(path: Path) -> str | None:
    conn = open_read_only(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()
    if not {"games", "events"} <= tables:
        return f"{path} is not a scorekeeper database (no games and events tables)"
    if version > SCHEMA_VERSION:
        return f"{path} is from a newer scorekeeper (schema {version}); upgrade first"
    return None


def _set_aside(db: Path, folder: Path) -> Path:
    """Move a damaged database (and its WAL) into the backups folder, untouched."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / backup_name(db, "damaged")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{db}{suffix}")
        if part.exists():
            shutil.move(part, Path(f"{target}{suffix}"))
    return target


def restore(source: Path, db: Path, folder: Path | None = None) -> Path | None:
    """Replace `db` by the backup `source`; returns where the replaced database was kept.

    Refused while a server holds the database. The database being replaced is kept: a
    sound one as a "before-restore" backup, a damaged one moved aside as it is.
    """
    problems = check_file(source)
    if problems:
        raise StoreError(f"{source} is not a sound backup: {'; '.join(problems[:3])}")
    problem = _schema_problem(source)
    if problem:
        raise StoreError(problem)
    folder = folder or backup_dir(db)
    lock = DbLock(db)
    try:
        kept = None
        if db.exists():
            if check_file(db, quick=True):
                kept = _set_aside(db, folder)
            else:
                current = sqlite3.connect(db)
                try:
                    kept = make_backup(current, db, "before-restore", folder, keep=KEEP)
                finally:
                    current.close()
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        src = open_read_only(source)
        try:
            copy_database(src, db)
        finally:
            src.close()
        match_owner(db, db.parent)
        return kept
    finally:
        lock.release()
