"""The role processes of the club benchmarks: `python benchmarks/club_load.py ROLE SPEC`, a
role (`tables` or `phones`) with its spec in a JSON file. A role says what happens as JSON
lines on its stdout and takes commands one a line on its stdin; it writes its records to
the spec's `out` file. Every process reads one clock."""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from spawn import stop_process

from club.system import cpu_s

BENCHMARKS = Path(__file__).resolve().parent.parent
ROLES = ("tables", "phones")


def clock() -> float:
    """One clock for every process of the benchmark (CLOCK_MONOTONIC is system-wide)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


# --- the parent's side ------------------------------------------------------------------------

class Role:
    """A role process of this script: JSON lines on its stdout, commands on its stdin."""

    def __init__(self, role: str, spec: dict[str, Any], folder: Path,
                 prefix: list[str] | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.name = str(spec.get("label", role))
        self.spec_path = folder / f"{self.name}.spec.json"
        self.spec_path.write_text(json.dumps(spec))
        self.log = folder / f"{self.name}.log"
        self.result_path = Path(spec["out"])
        cmd = [*(prefix or []), sys.executable, str(BENCHMARKS / "club_load.py"), role,
               str(self.spec_path)]
        with self.log.open("wb") as err:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, text=True, bufsize=1)
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with contextlib.suppress(ValueError):
                self.lines.put(json.loads(line))
        self.lines.put(None)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def expect(self, event: str, timeout: float) -> dict[str, Any]:
        """Wait for the role to say `event`; its message."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"{self.name}: no {event!r} within {timeout:.0f} s; its "
                                   f"log:\n{self.log.read_text()[-3000:]}") from None
            if line is None:
                raise RuntimeError(f"{self.name} ended before {event!r}; its log:\n"
                                   f"{self.log.read_text()[-3000:]}")
            if line.get("event") == event:
                return line

    def result(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.result_path.read_text())
        return data

    def cpu_s(self) -> float:
        return cpu_s(self.proc.pid)

    def close(self) -> None:
        stop_process(self.proc, 20.0)


# --- the role's side --------------------------------------------------------------------------

def say(event: str, **data: Any) -> None:
    print(json.dumps({"event": event, **data}), flush=True)


def commands() -> queue.Queue[str]:
    """Commands from the parent, one a line; "stop" when it goes away."""
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            found.put(line.strip())
        found.put("stop")

    threading.Thread(target=read, daemon=True).start()
    return found
