"""What the club benchmarks' processes cost: CPU seconds from /proc, the machine's busy
share, and py-spy sampling the club server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


def cpu_s(pid: int, children: bool = False) -> float:
    """A process's user + system CPU seconds (with its reaped children's, if asked)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of a server and its workers: `pid`, its children, and those that ended."""
    total = cpu_s(pid, children=True)
    for child in children(pid):
        total += cpu_s(child)
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU ticks of the whole machine so far (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = values[3] + values[4]
    return float(sum(values) - idle), float(sum(values))


@dataclass
class Cpu:
    """CPU seconds of each process, and the machine's, at one moment."""

    wall: float
    parts: dict[str, float | None]
    machine: tuple[float, float]

    @classmethod
    def now(cls, parts: dict[str, float | None]) -> Cpu:
        return cls(time.monotonic(), parts, machine_busy())

    def since(self, before: Cpu) -> dict[str, float | None]:
        """Each process's share of one core (100 = one core busy), and the machine's
        busy share of all its cores."""
        wall = max(self.wall - before.wall, 1e-9)
        out: dict[str, float | None] = {}
        for name, value in self.parts.items():
            old = before.parts.get(name)
            out[name] = None if value is None or old is None else \
                round(100 * (value - old) / wall, 1)
        busy, total = (a - b for a, b in zip(self.machine, before.machine, strict=True))
        out["machine_busy_pct"] = round(100 * busy / max(total, 1), 1)
        return out


def profile(path: Path | None, pid: int, seconds: float) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the club server for the run (collapsed stacks in `path`), if asked."""
    if path is None:
        return None
    spy = Path(sys.executable).parent / "py-spy"
    command = str(spy) if spy.exists() else shutil.which("py-spy")
    if command is None:
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    return subprocess.Popen([command, "record", "--pid", str(pid), "--duration",
                             str(max(1, int(seconds))), "--format", "raw", "--output", str(path),
                             "--rate", "200", "--idle", "--threads"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
