"""One interface over the two databases a scorekeeper can keep its games in.

SQLite (a file, the embedded default) and PostgreSQL (a server, for a club whose tables
share one history) run the same statements: SQL is written with `?` placeholders and each
`Database` adapts it. Both keep the same promises: a write transaction is committed, and
durable, when its block exits; writers are serialised; each component's schema moves
forward by numbered steps and never backward.

`psycopg` is imported only when a URL is opened, so a Pi on SQLite never loads it.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Literal, Protocol, Self
from urllib.parse import unquote

from scorekeeper.store.faults import StoreError

Dialect = Literal["sqlite", "postgresql"]
Migration = str | Mapping[Dialect, str]  # one SQL script for both, or one per dialect

URL_SCHEMES = ("postgresql://", "postgres://")


class Tx(Protocol):
    """One open transaction; SQL uses "?" placeholders on both dialects."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...
    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None: ...
    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """INSERT into a table with an integer `id` column: the new row's id."""
        ...


class SchemaTooNew(StoreError):
    """The database was moved on by a newer scorekeeper: using it could lose its new data."""


class Database(ABC):
    """A database the store and its helpers share; see the module's docstring."""

    dialect: Dialect
    where: str  # what to call it in messages: the file, or the URL without its password

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Tx]:
        """A write transaction: committed (durable) when the block exits, rolled back on
        error; serialised with other writers (BEGIN IMMEDIATE on SQLite)."""

    @abstractmethod
    def read(self) -> AbstractContextManager[Tx]:
        """A read-only transaction: one consistent view of the data."""

    @abstractmethod
    def ping(self) -> bool:
        """Whether the database answers a query (for the health check)."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @abstractmethod
    def claim(self, tx: Tx, name: str) -> None:
        """Hold `name` until `tx` ends: a transaction of another process that claims the
        same name waits for this one to end (two servers creating a game under one
        Idempotency-Key: the second then finds the first's answer)."""

    @abstractmethod
    def _version(self, tx: Tx, component: str) -> int:
        """`component`'s schema version, read under a lock that keeps other migrators out."""

    @abstractmethod
    def _set_version(self, tx: Tx, component: str, version: int) -> None: ...

    @abstractmethod
    def _script(self, tx: Tx, sql: str) -> None:
        """Run a migration script (several statements, no parameters) inside `tx`."""

    def migrate(self, component: str, steps: Sequence[Migration]) -> None:
        """Apply the steps this database has not seen for `component`, each atomically with
        its version bump (step i brings version i to i + 1; append steps, never edit one).

        A version newer than `steps` knows is refused: this code would not know its tables.
        """
        while True:
            with self.transaction() as tx:
                version = self._version(tx, component)
                if version > len(steps):
                    raise SchemaTooNew(
                        f"the {component} schema of {self.where} is version {version}, newer "
                        f"than this scorekeeper knows ({len(steps)}); upgrade scorekeeper")
                if version == len(steps):
                    return
                self._script(tx, script_for(steps[version], self.dialect))
                self._set_version(tx, component, version + 1)


def script_for(step: Migration, dialect: Dialect) -> str:
    """The SQL of one migration step for `dialect`."""
    if isinstance(step, str):
        return step
    if dialect not in step:
        raise StoreError(f"a migration step has no {dialect} version")
    return step[dialect]


def is_url(target: str | Path) -> bool:
    """Whether `target` names a PostgreSQL server rather than an SQLite file."""
    return isinstance(target, str) and target.strip().lower().startswith(URL_SCHEMES)


_USERINFO = re.compile(r"^(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:@/?#]*):(?P<pw>[^@]*)@")
_QUERY_PW = re.compile(r"(?i)(?P<head>[?&]password=)(?P<pw>[^&#]*)")


def redact(target: str | Path) -> str:
    """`target` fit to log or show: a URL's password (in the user part or the query) as ***."""
    text = str(target)
    if not is_url(text):
        return text
    text = _USERINFO.sub(r"\g<head>:***@", text, count=1)
    return _QUERY_PW.sub(r"\g<head>***", text)


def secrets_in(target: str | Path) -> list[str]:
    """The password(s) a URL carries, raw and decoded, to scrub from any message."""
    text = str(target)
    found = [m["pw"] for m in (_USERINFO.match(text), *_QUERY_PW.finditer(text)) if m]
    return [s for pw in found if pw for s in {pw, unquote(pw)}]


def scrub(message: str, target: str | Path) -> str:
    """`message` with every password of `target` replaced by ***."""
    for secret in sorted(secrets_in(target), key=len, reverse=True):
        message = message.replace(secret, "***")
    return message
