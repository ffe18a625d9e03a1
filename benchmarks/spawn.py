"""Run the real server in a subprocess on a free loopback port: for the crash, hardening and
browser tests and the benchmarks, never the product (benchmarks import it as `spawn`, tests
as `benchmarks.spawn`)."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@contextmanager
def soft_file_limit(soft: int) -> Iterator[None]:
    """This process's soft open-file limit set to `soft` for a while: a server started inside
    inherits it, as systemd would start one without LimitNOFILE."""
    old = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, old[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, old)


def free_port() -> int:
    """A loopback port that was free a moment ago (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def kill_process(proc: subprocess.Popen[Any]) -> None:
    """SIGKILL: no chance to finish a request, close a connection or flush anything."""
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


def stop_process(proc: subprocess.Popen[Any], wait_s: float = 10.0) -> None:
    """Stopped as systemd stops a service (SIGTERM), killed if it does not go in `wait_s`."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            kill_process(proc)


def wait_healthy(proc: subprocess.Popen[Any], url: str, log: Path, timeout: float) -> None:
    """Return once `{url}/api/health` answers 200; raise, with the end of the server's
    console `log`, if it exits first or does not answer within `timeout` s (then stopped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server at {url} exited with {proc.returncode}:\n"
                               f"{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    stop_process(proc)
    raise RuntimeError(f"the server at {url} did not answer within {timeout} s:\n"
                       f"{log.read_text(errors='replace')[-3000:]}")


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak) of a process, from /proc, in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


@dataclass
class ServerProcess:
    """A running `python -m scorekeeper.web`, its address and its console log."""

    proc: subprocess.Popen[bytes]
    url: str
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: the crash under test, with no chance to flush or clean up."""
        kill_process(self.proc)

    def stop(self) -> None:
        stop_process(self.proc)


def start_server(
    db: Path, data_dir: Path, token: str, *, keepalive_s: float = 15.0, timeout: float = 60.0,
    file_limit: int | None = None,
) -> ServerProcess:
    """Start the server on 127.0.0.1 and return once `/api/health` answers.

    `file_limit`: the server's open-file limit, soft and hard (a machine that allows no
    more; the server cannot lift it)."""
    port = free_port()
    log = data_dir / f"server-{port}.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "SCOREKEEPER_ADMIN_TOKEN": token,
        "SCOREKEEPER_DATA_DIR": str(data_dir),
        "SCOREKEEPER_KEEPALIVE_S": str(keepalive_s),
        # hermetic unless the caller chose a camera: never probe this machine's cameras
        "SCOREKEEPER_CAMERA": os.environ.get("SCOREKEEPER_CAMERA", "none"),
    }
    cmd = [sys.executable, "-m", "scorekeeper.web", "--db", str(db)]
    cmd += ["--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                preexec_fn=None if file_limit is None else lambda: (
                                    resource.setrlimit(resource.RLIMIT_NOFILE,
                                                       (file_limit, file_limit))))
    server = ServerProcess(proc, f"http://127.0.0.1:{port}", log)
    wait_healthy(proc, server.url, log, timeout)
    return server


class Restartable:
    """A server stopped, killed and started again on one address (the soak's table, the club
    benchmarks' club server, the browser tests' server): a subclass says how it starts and
    calls `launch`."""

    host = "127.0.0.1"
    port: int
    proc: subprocess.Popen[bytes] | None = None
    stop_wait_s = 10.0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def launch(self, cmd: list[str], env: dict[str, str], log: Path, timeout: float,
               cwd: Path | None = None) -> float:
        """Start `cmd` (its console appended to `log`) and wait for its health; the seconds
        that took."""
        began = time.monotonic()
        with log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=out,
                                         stderr=subprocess.STDOUT)
        wait_healthy(self.proc, self.url, log, timeout)
        return time.monotonic() - began

    def kill(self) -> None:
        """kill -9, as a crash or a pulled plug would."""
        if self.proc is not None:
            kill_process(self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, self.stop_wait_s)

    def memory_kib(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) of the server process, from /proc."""
        fields = memory_kib(self.pid)
        return fields["VmRSS"], fields["VmHWM"]
