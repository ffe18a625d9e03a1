"""The club's tables and their tokens.

A table's token is shown once, when the table is added or its token rotated; only its
SHA-256 is kept, so a copy of the club's database lets nobody write as a table. A token
is a 32-byte random string, so one unsalted hash is enough to keep it from being guessed.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from scorekeeper.club.schema import migrate_club
from scorekeeper.store.database import Database

TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
TOKEN_PREFIX = "sk-table-"  # so a table token is told from an admin token at a glance


class TableError(ValueError):
    """A table name that cannot be used; says why."""


class UnknownTable(TableError):
    """No table by that name."""


class TableTaken(TableError):
    """A table by that name exists already."""


@dataclass(frozen=True)
class ClubTable:
    """A table that the club knows, as its token identifies it."""

    id: int
    name: str


@dataclass(frozen=True)
class TableInfo:
    """A table as `scorekeeper club tables` lists it."""

    name: str
    created_at: str
    last_seen: str | None
    games: int
    pending_events: int | None = None  # what the table said it still held at its last sync


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def check_name(name: str) -> str:
    if not TABLE_NAME.fullmatch(name):
        raise TableError(f"a table's name is 1 to 40 letters, digits, '_', '.' or '-', "
                         f"starting with a letter or digit: got {name[:60]!r}")
    return name


class Tables:
    """The club's table register on its database (migrating the club's schema on open)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        migrate_club(db)

    def add(self, name: str) -> str:
        """Register a table; returns its token (shown once, never stored)."""
        check_name(name)
        token = new_token()
        with self.db.transaction() as tx:
            if tx.fetchone("SELECT 1 FROM club_tables WHERE name = ?", (name,)) is not None:
                raise TableTaken(f"there is already a table called {name!r}; "
                                 f"to give it a new token: scorekeeper club rotate-token {name}")
            tx.insert("INSERT INTO club_tables (name, token_hash, created_at) VALUES (?, ?, ?)",
                      (name, token_hash(token), now()))
        return token

    def rotate(self, name: str) -> str:
        """A new token for the table; the old one stops working at once."""
        token = new_token()
        with self.db.transaction() as tx:
            if tx.fetchone("SELECT 1 FROM club_tables WHERE name = ?", (name,)) is None:
                raise UnknownTable(f"no table called {name!r} (scorekeeper club tables)")
            tx.execute("UPDATE club_tables SET token_hash = ? WHERE name = ?",
                       (token_hash(token), name))
        return token

    def verify(self, token: str) -> ClubTable | None:
        """The table this token belongs to, or None. The lookup is by hash (which says
        nothing about the token), and the hashes are then compared in constant time."""
        digest = token_hash(token)
        with self.db.read() as tx:
            row = tx.fetchone("SELECT id, name, token_hash FROM club_tables WHERE token_hash = ?",
                              (digest,))
        if row is None or not hmac.compare_digest(str(row[2]), digest):
            return None
        return ClubTable(int(row[0]), str(row[1]))

    def seen(self, table: ClubTable, pending: int | None = None) -> None:
        """The table synced now, saying it still holds `pending` events for the club (None:
        a table that does not say); one write, as before the count was kept."""
        with self.db.transaction() as tx:
            tx.execute("UPDATE club_tables SET last_seen = ?, pending_events = ? WHERE id = ?",
                       (now(), pending, table.id))

    def listing(self) -> list[TableInfo]:
        """Every table, by name, with its last sync and how many games it has sent."""
        with self.db.read() as tx:
            rows = tx.fetchall(
                "SELECT t.name, t.created_at, t.last_seen, COUNT(g.game_id), t.pending_events"
                " FROM club_tables t LEFT JOIN club_games g ON g.table_id = t.id"
                " GROUP BY t.id, t.name, t.created_at, t.last_seen, t.pending_events"
                " ORDER BY t.name")
        return [TableInfo(str(name), str(created), None if seen is None else str(seen),
                          int(games), None if pending is None else int(pending))
                for name, created, seen, games, pending in rows]
