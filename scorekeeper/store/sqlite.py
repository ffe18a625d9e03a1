"""The SQLite `Database`: one file, one connection, one process (its lock file).

The connection runs in autocommit mode so each transaction is spelt out (BEGIN IMMEDIATE
takes the write lock at once, so a writer never fails half-way on a lock upgrade). A mutex
serialises the threads that share it; a transaction opened inside another on the same
thread joins it, as SQLite has no nested transactions.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from scorekeeper.store.backup import open_checked
from scorekeeper.store.database import Database, Dialect, Tx
from scorekeeper.store.faults import StoreError
from scorekeeper.store.lock import DbLock
from scorekeeper.store.sqlite_file import integrity

log = logging.getLogger("scorekeeper.store")
# The games schema predates components: its version stays in the file's user_version, so
# every file and backup made before keeps opening (and older scorekeepers still read it).
USER_VERSION_COMPONENT = "games"


def split_script(sql: str) -> list[str]:
    """The statements of a script (executescript would COMMIT the open transaction)."""
    statements, current = [], ""
    for piece in sql.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \t\r\n;"):
                statements.append(current.strip())
            current = ""
    if current.strip(" \t\r\n;"):
        statements.append(current.strip().removesuffix(";"))
    return statements


class _Tx:
    """A transaction on the database's connection (looked up per call, so that tests can
    put a failing stand-in in its place)."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._db._conn.execute(sql, tuple(params))

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row: tuple[Any, ...] | None = self._db._conn.execute(sql, tuple(params)).fetchone()
        return row

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self._db._conn.execute(sql, tuple(params)).fetchall())

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = self._db._conn.execute(sql, tuple(params))
        if cur.lastrowid is None:
            raise StoreError(f"no row id after: {sql}")
        return int(cur.lastrowid)


class SqliteDatabase(Database):
    """An SQLite file, opened durable (WAL, synchronous=FULL) and checked (quick_check).

    Holds `<file>.lock` until closed: a second process on the same file is refused with
    StoreLocked, and a damaged file with StoreDamaged (naming the restore command).
    """

    dialect: Dialect = "sqlite"

    def __init__(self, path: Path, *, backups: Path | None = None) -> None:
        self.path = path
        self.where = str(path)
        self._file_lock = DbLock(path)
        try:
            self._conn = open_checked(path, backups)
        except BaseException:
            self._file_lock.release()
            raise
        self._mutex = threading.RLock()
        self._open: str | None = None  # "write" | "read" while a transaction is open

    @contextmanager
    def _begin(self, kind: str, begin: str, end: str) -> Iterator[Tx]:
        with self._mutex:
            if self._open is not None:  # joined: the outer block commits or rolls back
                if kind == "write" and self._open == "read":
                    raise StoreError("a write transaction cannot open inside a read one")
                yield _Tx(self)
                return
            self._conn.execute(begin)
            self._open = kind
            try:
                yield _Tx(self)
                self._conn.execute(end)
            except BaseException:
                self.rollback()
                raise
            finally:
                self._open = None

    def transaction(self) -> AbstractContextManager[Tx]:
        return self._begin("write", "BEGIN IMMEDIATE", "COMMIT")

    def read(self) -> AbstractContextManager[Tx]:
        return self._begin("read", "BEGIN", "ROLLBACK")  # nothing to commit: never fails

    def rollback(self) -> None:
        """Roll back if still open; a failing ROLLBACK must not hide the error that caused it."""
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            log.error("rollback failed: %s", exc)

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """The raw connection, held for this thread (backups, integrity checks)."""
        with self._mutex:
            yield self._conn

    def integrity(self, *, quick: bool = True) -> list[str]:
        """SQLite's own check of the file: [] when sound."""
        with self._mutex:
            return integrity(self._conn, quick=quick)

    def ping(self) -> bool:
        with self._mutex:
            row: tuple[int] | None = self._conn.execute("SELECT 1").fetchone()
            return row == (1,)

    def close(self) -> None:
        with self._mutex:
            self._conn.close()
            self._file_lock.release()

    def claim(self, tx: Tx, name: str) -> None:
        """Nothing to do: one process holds the file, and its write transactions take the
        write lock at BEGIN, one at a time."""

    def _version(self, tx: Tx, component: str) -> int:
        if component == USER_VERSION_COMPONENT:
            row = tx.fetchone("PRAGMA user_version")
        else:
            tx.execute("CREATE TABLE IF NOT EXISTS schema_versions ("
                       "component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
            row = tx.fetchone("SELECT version FROM schema_versions WHERE component = ?",
                              (component,))
        return int(row[0]) if row else 0

    def _set_version(self, tx: Tx, component: str, version: int) -> None:
        if component == USER_VERSION_COMPONENT:
            tx.execute(f"PRAGMA user_version = {int(version)}")
        else:
            tx.execute("INSERT INTO schema_versions (component, version) VALUES (?, ?) "
                       "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
                       (component, version))

    def _script(self, tx: Tx, sql: str) -> None:
        for statement in split_script(sql):
            tx.execute(statement)
