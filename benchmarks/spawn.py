"""Run the real server in a subprocess on a free loopback port: for the crash and hardening
tests and the benchmarks, never the product (benchmarks import it as `spawn`, tests as
`benchmarks.spawn`)."""

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
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(
    db: Path, data_dir: Path, token: str, *, keepalive_s: float = 15.0, timeout: float = 60.0
) -> ServerProcess:
    """Start the server on 127.0.0.1 and return once `/api/health` answers."""
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
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = ServerProcess(proc, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{server.url}/api/health", timeout=1) as answer:
                if answer.status == 200:
                    return server
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    server.stop()
    raise RuntimeError(f"server did not answer within {timeout} s:\n{log.read_text()}")
