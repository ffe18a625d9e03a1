"""Storage faults in words: what failed, said so that the person at the table can act on it.

SQLite reports a full disk, a read-only file system and a damaged file as result codes,
PostgreSQL as SQLSTATEs; the phone page shows `{"detail": ...}`, so each code becomes a
short sentence here.
"""

from __future__ import annotations

import errno
from typing import Literal

Fault = Literal["full", "readonly", "damaged", "io", "busy", "unreachable", "other"]

# SQLite primary result codes (extended codes carry them in their low byte).
_CODES: dict[int, Fault] = {
    13: "full",      # SQLITE_FULL
    8: "readonly",   # SQLITE_READONLY
    11: "damaged",   # SQLITE_CORRUPT
    26: "damaged",   # SQLITE_NOTADB
    10: "io",        # SQLITE_IOERR
    14: "io",        # SQLITE_CANTOPEN
    5: "busy",       # SQLITE_BUSY
    6: "busy",       # SQLITE_LOCKED
}
# For errors made without a code (tests, wrappers) and OS errors.
_WORDS: list[tuple[str, Fault]] = [
    ("disk is full", "full"),
    ("no space left", "full"),
    ("readonly", "readonly"),
    ("read-only", "readonly"),
    ("malformed", "damaged"),
    ("not a database", "damaged"),
    ("disk i/o error", "io"),
    ("is locked", "busy"),
]
# PostgreSQL SQLSTATEs: exact codes first, then by class (the first two characters).
_SQLSTATES: dict[str, Fault] = {
    "53100": "full",         # disk_full
    "25006": "readonly",     # read_only_sql_transaction (a standby, or read-only default)
    "42501": "readonly",     # insufficient_privilege: this user may not write
    "XX001": "damaged",      # data_corrupted
    "XX002": "damaged",      # index_corrupted
    "58030": "io",           # io_error
    "40001": "busy",         # serialization_failure
    "40P01": "busy",         # deadlock_detected
    "55P03": "busy",         # lock_not_available
    "57P03": "unreachable",  # cannot_connect_now (starting up or shutting down)
    "08": "unreachable",     # connection_exception
    "53": "full",            # insufficient_resources
    "57": "unreachable",     # operator_intervention (the server shut down)
}
_ERRNOS: dict[int, Fault] = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "readonly",
                             errno.EACCES: "readonly", errno.EPERM: "readonly", errno.EIO: "io"}
REASONS: dict[Fault, str] = {
    "full": "the disk is full",
    "readonly": "the storage is read-only",
    "damaged": "the database is damaged",
    "io": "the storage failed to read or write (an I/O error: a failing SD card or disk?)",
    "busy": "the database is busy (another program holds it)",
    "unreachable": "the database server does not answer",
}
HINTS: dict[Fault, str] = {
    "full": "free some space, then try again",
    "readonly": "the file system may have been remounted read-only after an error: "
                "check the SD card and restart",
    "damaged": "stop the server and restore a backup: scorekeeper db restore PATH "
               "(scorekeeper db check names the newest)",
    "io": "check the SD card or disk and restart",
    "busy": "try again in a moment",
    "unreachable": "check that PostgreSQL is running and that the database URL (--db or the "
                   "config file's db) names it; then try again",
}

# A server's faults are fixed on the server, not on the SD card.
SERVER_HINTS: dict[Fault, str] = {
    "full": "free space on the database server, then try again",
    "readonly": "the server is read-only (a standby?) or this user may not write there: "
                "check the URL's user and its grants",
    "damaged": "restore the newest pg_dump backup with pg_restore (docs/postgresql.md)",
    "io": "check the database server's disk",
}


class StoreError(RuntimeError):
    """The store cannot be used as it is; the message says why and what to do."""


class StoreLocked(StoreError):
    """Another scorekeeper holds this database: two servers would serve each other stale data."""


class StoreDamaged(StoreError):
    """The database file fails SQLite's consistency check."""


class StoreFault(StoreError):
    """A database server's error, in words (the URL's password scrubbed), with its kind."""

    def __init__(self, message: str, fault: Fault) -> None:
        super().__init__(message)
        self.fault = fault


def fault_of_sqlstate(sqlstate: str | None, exc: BaseException) -> Fault:
    """The kind of a PostgreSQL error: by SQLSTATE, else (no state: no connection) by text."""
    if sqlstate:
        found = _SQLSTATES.get(sqlstate) or _SQLSTATES.get(sqlstate[:2])
        return found or "other"
    # no state: libpq or the pool failed before the server answered (host, port, timeout)
    if any(c.__name__ in ("OperationalError", "PoolTimeout") for c in type(exc).__mro__):
        return "unreachable"
    return classify(exc)


def classify(exc: BaseException) -> Fault:
    """Which kind of storage fault `exc` is: by its own kind (a server's), SQLite result
    code, errno, else by its text."""
    if isinstance(exc, StoreFault):
        return exc.fault
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _CODES:
        return _CODES[code & 0xFF]
    if isinstance(exc, OSError) and exc.errno in _ERRNOS:
        return _ERRNOS[exc.errno]
    text = str(exc).lower()
    return next((fault for words, fault in _WORDS if words in text), "other")


def reason(exc: BaseException) -> str:
    """What is wrong, in words: "the disk is full", or the database's own message."""
    fault = classify(exc)
    if isinstance(exc, StoreFault):  # its message names the server and what failed
        return f"{REASONS[fault]}: {exc}" if fault in REASONS else str(exc)
    return REASONS.get(fault) or f"database error: {exc}"


def told(exc: BaseException, action: str = "save") -> str:
    """`explain` as a refusal says it, to anyone who can reach the server: the kind of
    fault and what to do, never the database's own words, which may name its URL (user,
    host, database), a constraint or a file; the server's log keeps those (`explain`)."""
    fault = classify(exc)
    hint = (SERVER_HINTS.get(fault) if isinstance(exc, StoreFault) else None) or HINTS.get(fault)
    said = REASONS.get(fault) or "the database refused it"
    return f"the scorekeeper cannot {action}: {said} ({hint or 'the server’s log says why'})"


def explain(exc: BaseException, action: str = "save") -> str:
    """A sentence for the page: "the scorekeeper cannot save: the disk is full (free ...)"."""
    fault = classify(exc)
    hint = (SERVER_HINTS.get(fault) if isinstance(exc, StoreFault) else None) or HINTS.get(fault)
    message = f"the scorekeeper cannot {action}: {reason(exc)}"
    return f"{message} ({hint})" if hint else message
