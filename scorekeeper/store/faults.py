"""Storage faults in words: what failed, said so that the person at the table can act on it.

SQLite reports a full disk, a read-only file system and a damaged file as result codes;
the phone page shows `{"detail": ...}`, so each code becomes a short sentence here.
"""

from __future__ import annotations

import errno
import sqlite3
from typing import Literal

Fault = Literal["full", "readonly", "damaged", "io", "busy", "other"]

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
_ERRNOS: dict[int, Fault] = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "readonly",
                             errno.EACCES: "readonly", errno.EPERM: "readonly", errno.EIO: "io"}
REASONS: dict[Fault, str] = {
    "full": "the disk is full",
    "readonly": "the storage is read-only",
    "damaged": "the database is damaged",
    "io": "the storage failed to read or write (an I/O error: a failing SD card or disk?)",
    "busy": "the database is busy (another program holds it)",
}
HINTS: dict[Fault, str] = {
    "full": "free some space, then try again",
    "readonly": "the file system may have been remounted read-only after an error: "
                "check the SD card and restart",
    "damaged": "stop the server and restore a backup: scorekeeper db restore PATH "
               "(scorekeeper db check names the newest)",
    "io": "check the SD card or disk and restart",
    "busy": "try again in a moment",
}


class StoreError(RuntimeError):
    """The store cannot be used as it is; the message says why and what to do."""


class StoreLocked(StoreError):
    """Another scorekeeper holds this database: two servers would serve each other stale data."""


class StoreDamaged(StoreError):
    """The database file fails SQLite's consistency check."""


def classify(exc: BaseException) -> Fault:
    """Which kind of storage fault `exc` is: by SQLite result code, errno, else by its text."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _CODES:
        return _CODES[code & 0xFF]
    if isinstance(exc, OSError) and exc.errno in _ERRNOS:
        return _ERRNOS[exc.errno]
    text = str(exc).lower()
    return next((fault for words, fault in _WORDS if words in text), "other")


def reason(exc: BaseException) -> str:
    """What is wrong, in words: "the disk is full", or SQLite's own message."""
    fault = classify(exc)
    return REASONS.get(fault) or f"database error: {exc}"


def explain(exc: BaseException, action: str = "save") -> str:
    """A sentence for the page: "the scorekeeper cannot save: the disk is full (free ...)"."""
    fault = classify(exc)
    hint = HINTS.get(fault)
    message = f"the scorekeeper cannot {action}: {reason(exc)}"
    return f"{message} ({hint})" if hint else message


def is_storage_error(exc: BaseException) -> bool:
    """Whether `exc` comes from the database or the disk under it (not from our own logic)."""
    return isinstance(exc, sqlite3.Error | StoreError)
