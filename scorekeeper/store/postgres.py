"""The PostgreSQL `Database`: psycopg 3 and its connection pool, for a club's server.

Several scorekeepers may share one database, so nothing here is cached or locked in the
process: writers serialise on row locks (the store locks a game's row to append to it).
Every error leaves as a StoreFault in words with the URL's password scrubbed, so that
neither a log line nor the phone page can show it. Imported only when a URL is opened.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.store.database import Database, Dialect, Tx, redact, scrub
from scorekeeper.store.faults import (
    HINTS,
    SERVER_HINTS,
    StoreError,
    StoreFault,
    fault_of_sqlstate,
)

try:
    import psycopg
    from psycopg import conninfo as pg_conninfo
    from psycopg_pool import ConnectionPool
except ImportError as exc:  # a runtime dependency, but say what to do if it is missing
    raise StoreError("a PostgreSQL database needs psycopg 3 and its pool: "
                     "pip install 'psycopg[binary]' psycopg-pool") from exc

CONNECT_TIMEOUT_S = 5  # a server that does not answer must not hang a start or a health call
POOL_MAX = 8
_VERSIONS_LOCK = 0x5C0E_0001  # pg_advisory_xact_lock key: one migrator at a time
_CLAIMS = 0x5C0E  # the first of the two keys of a claim's lock (the pair is its own space)
# "?" outside literals and comments becomes %s; every "%" is doubled (psycopg's escape)
_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/|[?%]", re.S)


def to_pyformat(sql: str) -> str:
    """`sql` with SQLite's "?" placeholders as psycopg's "%s", and literal "%" escaped."""

    def one(m: re.Match[str]) -> str:
        token = m.group()
        return "%s" if token == "?" else token.replace("%", "%%")

    return _TOKENS.sub(one, sql)


class _Tx:
    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._conn.execute(to_pyformat(sql), tuple(params))

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row = self._conn.execute(to_pyformat(sql), tuple(params)).fetchone()
        return tuple(row) if row is not None else None

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._conn.execute(to_pyformat(sql), tuple(params))]

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        query = to_pyformat(sql.rstrip().rstrip(";")) + " RETURNING id"
        row = self._conn.execute(query, tuple(params)).fetchone()
        if row is None:
            raise StoreError(f"no id returned by: {sql}")
        return int(row[0])

    def script(self, sql: str) -> None:
        self._conn.execute(sql)  # no parameters: several statements, "%" as written


def _configure(conn: psycopg.Connection[Any]) -> None:
    """Acknowledged means durable whatever the server's default: commits wait for the WAL
    flush. (The pool hands out autocommit connections; each block spells its transaction.)"""
    conn.execute("SET synchronous_commit = on")


class PostgresDatabase(Database):
    """A PostgreSQL database at `url`; the connection is tried at once, so a wrong URL,
    host or password stops the start in words (the host named, the password never)."""

    dialect: Dialect = "postgresql"

    def __init__(self, url: str, *, max_size: int = POOL_MAX) -> None:
        self.url = url
        self.where = redact(url)
        try:
            params = pg_conninfo.conninfo_to_dict(url)
            params.setdefault("connect_timeout", CONNECT_TIMEOUT_S)
            conninfo = pg_conninfo.make_conninfo("", **params)
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error as exc:
            raise self._fault(exc, "connect to") from None
        self.params = params
        self._pool: ConnectionPool[Any] = ConnectionPool(
            conninfo, kwargs={"autocommit": True}, min_size=1, max_size=max_size,
            open=False, configure=_configure, check=ConnectionPool.check_connection,
            timeout=CONNECT_TIMEOUT_S, name="scorekeeper")
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
        except psycopg.Error as exc:  # PoolTimeout is one: the server went away just now
            self._pool.close()
            raise self._fault(exc, "connect to") from None

    def _fault(self, exc: BaseException, action: str = "use") -> StoreFault:
        """`exc` in words, with the URL's password scrubbed (libpq's messages name the host)."""
        detail = scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else
                       type(exc).__name__, self.url)
        fault = fault_of_sqlstate(getattr(exc, "sqlstate", None), exc)
        message = f"cannot {action} the PostgreSQL database {self.where}: {detail}"
        if action == "connect to":  # at start: say what to check (the page adds its own)
            message += f" ({SERVER_HINTS.get(fault) or HINTS['unreachable']})"
        return StoreFault(message, fault)

    @contextmanager
    def _session(self, read_only: bool) -> Iterator[Tx]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                if read_only:  # one snapshot for the whole read, no write by mistake
                    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield _Tx(conn)
        except psycopg.Error as exc:
            raise self._fault(exc) from exc

    def transaction(self) -> AbstractContextManager[Tx]:
        return self._session(read_only=False)

    def read(self) -> AbstractContextManager[Tx]:
        return self._session(read_only=True)

    def ping(self) -> bool:
        with self.read() as tx:
            return tx.fetchone("SELECT 1") == (1,)

    def close(self) -> None:
        self._pool.close()

    def claim(self, tx: Tx, name: str) -> None:
        """An advisory lock on `name` (hashed: two names that meet only wait for each other)
        until the transaction ends."""
        digest = hashlib.blake2b(name.encode(), digest_size=4).digest()
        tx.execute("SELECT pg_advisory_xact_lock(?, ?)",
                   (_CLAIMS, int.from_bytes(digest, "big", signed=True)))

    def _version(self, tx: Tx, component: str) -> int:
        tx.execute("SELECT pg_advisory_xact_lock(?)", (_VERSIONS_LOCK,))
        if tx.fetchone("SELECT to_regclass('schema_versions')") == (None,):
            tx.execute("CREATE TABLE schema_versions ("
                       "component TEXT PRIMARY KEY, version INTEGER NOT NULL)")
        row = tx.fetchone("SELECT version FROM schema_versions WHERE component = ?",
                          (component,))
        return int(row[0]) if row else 0

    def _set_version(self, tx: Tx, component: str, version: int) -> None:
        tx.execute("INSERT INTO schema_versions (component, version) VALUES (?, ?) "
                   "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
                   (component, version))

    def _script(self, tx: Tx, sql: str) -> None:
        assert isinstance(tx, _Tx)
        tx.script(sql)

    def dump(self, target: Path) -> Path:
        """pg_dump's custom format (restore with pg_restore) at `target`, written aside first.

        The password reaches pg_dump in its environment, never on its command line."""
        exe = shutil.which("pg_dump")
        if exe is None:
            raise StoreError(
                "pg_dump is not installed here, and a PostgreSQL database is backed up by "
                "it: sudo apt install postgresql-client (its version at least the "
                "server's), then run this again; or run pg_dump -Fc on the database server "
                "(docs/postgresql.md)")
        params = {k: str(v) for k, v in self.params.items() if k != "password"}
        env = {**os.environ, "PGCONNECT_TIMEOUT": str(CONNECT_TIMEOUT_S)}
        if "password" in self.params:
            env["PGPASSWORD"] = str(self.params["password"])
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        done = subprocess.run(
            [exe, "--format=custom", f"--file={tmp}",
             f"--dbname={pg_conninfo.make_conninfo('', **params)}"],
            env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tmp.unlink(missing_ok=True)
            detail = scrub(done.stderr.strip() or f"exit status {done.returncode}", self.url)
            raise StoreError(f"pg_dump could not back up {self.where}: {detail}")
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        return target

    def dump_name(self, kind: str) -> str:
        """`<database>-<UTC time>-<kind>.dump`, sorting by time like the SQLite backups."""
        when = datetime.now(UTC)
        name = str(self.params.get("dbname") or self.params.get("user") or "postgresql")
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        stamp = f"{when.strftime('%Y%m%dT%H%M%S')}.{when.microsecond // 1000:03d}Z"
        return f"{safe}-{stamp}-{kind}.dump"
