"""One server per database: an exclusive `flock` on `<db>.lock`, held for the server's life.

Each server caches replayed games, so a second one on the same file would serve games
that the first has moved on from. The kernel drops a flock when its holder dies, even by
SIGKILL, so a crash never leaves a stale lock behind. Only the holder writes the file, so
the pid in it names the process that holds the lock (for the message only).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import weakref
from datetime import UTC, datetime
from pathlib import Path

from scorekeeper.store.faults import StoreLocked


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def match_owner(path: Path, like: Path) -> None:
    """Give `path` the owner of `like` when root made it, so the service can still use it."""
    if os.geteuid() != 0:
        return
    st = like.stat()
    with contextlib.suppress(OSError):
        os.chown(path, st.st_uid, st.st_gid)


def _holder(path: Path) -> str:
    """Who holds the lock, as its file says: "pid 123 (scorekeeper serve) since ..."."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    fields = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    pid = fields.get("pid", "")
    if not pid.isdigit():
        return ""
    since = f" since {fields['since']}" if "since" in fields else ""
    command = f" ({fields['command']})" if fields.get("command") else ""
    return f"pid {pid}{command}{since}"


class DbLock:
    """Holds `<db>.lock` exclusively until `release()` (or the process ends)."""

    def __init__(self, db: Path) -> None:
        self.path = lock_path(db)
        self._fd: int | None = None
        self._acquire(db)

    def _acquire(self, db: Path) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        created = not self.path.exists()
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:  # made by another user: a read-only descriptor locks too
            fd = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreLocked(self._refusal(db)) from None
        self._fd = fd
        # a store dropped without close() (a test's app) must not hold the file forever
        self._closer = weakref.finalize(self, os.close, fd)
        if created:
            match_owner(self.path, self.path.parent)
        self._write_holder(fd)

    def _refusal(self, db: Path) -> str:
        who = _holder(self.path)
        other = f"another scorekeeper ({who})" if who else "another scorekeeper"
        return (f"{other} is already using the database {db} (it holds the lock file "
                f"{self.path}); a second server would show stale games. Stop the other one "
                f"first (the installed service: sudo systemctl stop scorekeeper), or give "
                f"this one its own database with --db")

    @staticmethod
    def _write_holder(fd: int) -> None:
        command = " ".join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv[:3]))
        since = datetime.now(UTC).isoformat(timespec="seconds")
        text = f"pid={os.getpid()}\ncommand={command}\nsince={since}\n".encode()
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, text, 0)
        except OSError:  # read-only descriptor or a full disk: the lock holds all the same
            pass

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._closer()
            self._fd = None
