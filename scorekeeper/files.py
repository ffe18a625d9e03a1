"""Writing a small file whole or not at all: the one way the server replaces a file.

A token, the admin link, a calibration or a deck's manifest is read back on the next start;
a power cut in the middle of writing one must leave the old contents or the new, never half
(or, after a crash of the file system's write-back, an empty file): so the new contents go
to a temporary file beside it, reach the disk (fsync), and are renamed over the old.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def write_atomic(path: Path, data: str | bytes, *, private: bool = False) -> None:
    """Replace `path` by `data`; `private`: readable by this user only (0600), whatever the
    umask or an old temporary file allowed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
    with os.fdopen(fd, "wb") as out:
        if private:
            os.fchmod(out.fileno(), 0o600)
        out.write(data.encode("utf-8") if isinstance(data, str) else data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def file_digest(path: Path) -> str | None:
    """The file's SHA-256 (hex), or None when it cannot be read: what a record names to say
    which exact file it was made with."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
