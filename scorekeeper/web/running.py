"""Where the running servers are: each `serve` records its data folder, port and pid.

`scorekeeper admin-link` reads the admin link from a data folder. Run without the
`SCOREKEEPER_DATA_DIR` a server was started with, it would read another folder's link, for
another server with another token. So each server leaves a record in two places: in the
user's runtime folder, one file per port, to find the servers this user runs; and in its
data folder, to tell whether that folder's server is running (readable with sudo on an
installed table, whose service user is not the person asking). Both go on a clean exit;
a record whose process is gone (a crash, kill -9) is stale and is ignored.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ValidationError

from scorekeeper.files import write_atomic

log = logging.getLogger(__name__)

FOLDER_RECORD = "server.json"


class RunningServer(BaseModel):
    """One server as it recorded itself at start."""

    data_dir: Path
    port: int
    pid: int
    url: str
    started: datetime

    def describe(self) -> str:
        return f"the server running on port {self.port} with data in {self.data_dir}"


def runtime_dir() -> Path:
    """This user's folder for the records: $XDG_RUNTIME_DIR (emptied at logout), else the
    XDG state folder."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base:
        return Path(base) / "scorekeeper"
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "scorekeeper" / "run"


def _runtime_record(port: int) -> Path:
    return runtime_dir() / f"server-{port}.json"


def is_alive(pid: int) -> bool:
    """Whether `pid` is a running scorekeeper process (not a new process given its number)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it exists
    cmdline = Path(f"/proc/{pid}/cmdline")
    try:
        return b"scorekeeper" in cmdline.read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self").exists()  # no /proc here: trust the signal check
    except OSError:
        return True


def record(data_dir: Path, port: int, url: str, index: bool = True) -> RunningServer:
    """Record this process as the server of `data_dir` on `port`: in the data folder, and
    with `index` in the user's runtime folder too. A folder that cannot be written costs
    only the record (logged): the server runs regardless."""
    me = RunningServer(data_dir=data_dir.resolve(), port=port, pid=os.getpid(), url=url,
                       started=datetime.now(UTC))
    text = me.model_dump_json() + "\n"
    places = [data_dir / FOLDER_RECORD, *([_runtime_record(port)] if index else [])]
    for path in places:
        try:
            write_atomic(path, text)
        except OSError as exc:
            log.info("cannot record the running server in %s: %s", path, exc)
    return me


def forget(me: RunningServer) -> None:
    """Remove this server's records, unless another server has replaced them since."""
    for path in (_runtime_record(me.port), me.data_dir / FOLDER_RECORD):
        found = read(path)
        if found is not None and found.pid == me.pid:
            with contextlib.suppress(OSError):
                path.unlink()


def read(path: Path) -> RunningServer | None:
    """The record in `path`, or None when there is none or it is not one."""
    try:
        return RunningServer.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):
        return None


def running_servers() -> tuple[list[RunningServer], list[RunningServer]]:
    """This user's servers: those running, and the stale records (their process is gone),
    which are removed."""
    live: list[RunningServer] = []
    stale: list[RunningServer] = []
    for path in sorted(_records()):
        found = read(path)
        if found is None:
            continue
        if is_alive(found.pid):
            live.append(found)
        else:
            stale.append(found)
            with contextlib.suppress(OSError):
                path.unlink()
    return sorted(live, key=lambda s: s.port), stale


def _records() -> Iterator[Path]:
    try:
        yield from runtime_dir().glob("server-*.json")
    except OSError:
        return


def folder_server(data_dir: Path) -> RunningServer | None:
    """The server running with data in `data_dir`, from the folder's own record."""
    found = read(data_dir / FOLDER_RECORD)
    return found if found is not None and is_alive(found.pid) else None
