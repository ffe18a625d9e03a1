""""Improve this deck" from the phone: `scorekeeper deck adapt` run in the background.

The server never trains in its own process: it starts the same command the CLI offers
(`python -m scorekeeper deck adapt NAME --minutes N`) at a lower CPU priority, reads its
progress lines ("adapting home:  42%  2:51 left ...") and its last word, and cancels it as
Ctrl-C would (SIGINT: the command leaves the profile as it was). One run at a time; the
scores are served meanwhile as ever. A server without the training extra (a Pi installed
without `[train]`) says so instead of starting anything.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib.util
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

TRAINING = re.compile(r"^adapting\b")
CHECKING = re.compile(r"^checking\b")
# The run's own line on what it learns from, as numbers for the page to say in players'
# words (the line itself is a trainer's: "97 crops to learn from, 11 held back to check").
COUNTS = re.compile(r"(?P<learn>\d+) crops to learn from, (?P<check>\d+) held back to check"
                    r".*?making (?P<others>\d+) crops of the other designs")
LOSS = re.compile(r"\s+loss [\d.]+$")
NICE = 10  # below the server's priority: a scan or a hand is never held up
CANCEL_WAIT_S = 15.0
MAX_LINES = 40


class AdaptRefused(Exception):
    """Why a run cannot start: `status` 409 (one is running) or 503 (no training here)."""

    def __init__(self, status: int, detail: str, code: str, **params: object) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail
        self.code, self.params = code, params  # the API's refusal code and its params


def unavailable(models: Path) -> str | None:
    """Why this server cannot adapt a deck, or None when it can."""
    if importlib.util.find_spec("torch") is None:
        return ("adapting a deck needs the training extra (torch), which this scorekeeper "
                "does not have: install it with pip install 'scorekeeper[train]', or run "
                "`scorekeeper deck adapt` on a computer that has it")
    if not (models / "cards-cls.pt").is_file():
        return f"adapting a deck needs the shipped classifier's weights ({models / 'cards-cls.pt'})"
    return None


@dataclass
class Run:
    deck: str
    minutes: float
    started_at: str
    started: float
    state: str = "preparing"  # preparing, adapting, checking, installed, kept, cancelled, failed
    progress: float = 0.0
    message: str = ""
    counts: dict[str, int] | None = None  # learn, check, others: the pictures it learns from
    lines: list[str] = field(default_factory=list)
    cancel_asked: bool = False

    def view(self) -> dict[str, Any]:
        """The run is time-boxed (`--minutes`), so its progress and time left are the clock's;
        its own lines name the phase (rendering, the detector, the classifier, the check)."""
        running = self.state in ("preparing", "adapting", "checking")
        budget = self.minutes * 60
        elapsed = time.monotonic() - self.started
        progress = min(0.99, elapsed / budget) if running else self.progress
        left = max(0.0, budget - elapsed) if running else 0.0
        return {"state": self.state, "deck": self.deck, "minutes": self.minutes,
                "started_at": self.started_at, "progress": round(progress, 3),
                "left_s": round(left), "running": running, "message": self.message,
                **({"counts": self.counts} if self.counts else {})}


class Adapter:
    """The one background adaptation of this server (none, running, or the last one)."""

    def __init__(self, data_dir: Path, models: Path, command: list[str] | None = None) -> None:
        self.data_dir, self.models = data_dir, models
        self.command = command or [sys.executable, "-m", "scorekeeper"]
        self._run: Run | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def status(self) -> dict[str, Any]:
        with self._lock:
            return self._run.view() if self._run else {"state": "idle", "running": False}

    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self, deck: str, minutes: float, check: bool = True) -> dict[str, Any]:
        why = unavailable(self.models) if check else None
        if why:
            raise AdaptRefused(503, why, "adapt_unavailable")
        with self._lock:
            if self.running():
                assert self._run is not None
                raise AdaptRefused(409, f"deck {self._run.deck!r} is being adapted; wait for "
                                        "it or cancel it first", "adapt_busy", deck=self._run.deck)
            args = [*self.command, "deck", "adapt", deck, "--minutes", f"{minutes:g}",
                    "--models", str(self.models)]
            env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(self.data_dir),
                   "PYTHONUNBUFFERED": "1"}
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=env, start_new_session=True)
            # gone already, or not allowed: it runs at the usual priority
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, proc.pid, NICE)
            run = Run(deck, minutes, datetime.now(UTC).isoformat(timespec="seconds"),
                      time.monotonic())
            self._run, self._proc = run, proc
        threading.Thread(target=self._follow, args=(run, proc), daemon=True,
                         name=f"adapt-{deck}").start()
        return run.view()

    def cancel(self) -> dict[str, Any]:
        with self._lock:
            proc, run = self._proc, self._run
            if proc is None or run is None or proc.poll() is not None:
                raise AdaptRefused(409, "no deck is being adapted", "adapt_idle")
            run.cancel_asked = True
            run.message = "cancelling…"
            proc.send_signal(signal.SIGINT)
        threading.Thread(target=self._reap, args=(proc,), daemon=True).start()
        return self.status()

    def close(self) -> None:
        """The server stops: a run still going is cancelled."""
        if self.running():
            assert self._proc is not None
            self._proc.send_signal(signal.SIGINT)
            self._reap(self._proc)

    @staticmethod
    def _reap(proc: subprocess.Popen[bytes]) -> None:
        try:
            proc.wait(CANCEL_WAIT_S)
        except subprocess.TimeoutExpired:
            proc.kill()

    def _follow(self, run: Run, proc: subprocess.Popen[bytes]) -> None:
        """Read the run's progress from its standard error until it ends."""
        assert proc.stderr is not None and proc.stdout is not None
        out: list[str] = []
        reader = threading.Thread(target=lambda: out.extend(
            line.decode("utf-8", "replace") for line in proc.stdout or []), daemon=True)
        reader.start()
        buffer, text = "", codecs.getincrementaldecoder("utf-8")("replace")
        # what has arrived, not a full buffer: a progress line ends in no newline
        while chunk := os.read(proc.stderr.fileno(), 4096):
            buffer += text.decode(chunk)
            *lines, buffer = re.split(r"[\r\n]", buffer)
            for line in filter(None, (x.strip() for x in lines)):
                self._line(run, line)
        if buffer.strip():
            self._line(run, buffer.strip())
        code = proc.wait()
        reader.join(5)
        last = next((x.strip() for x in reversed(out) if x.strip()), "")
        with self._lock:
            run.progress = 1.0 if code == 0 else run.progress
            if run.cancel_asked:
                run.state = "cancelled"
                run.message = f"cancelled: deck {run.deck!r} keeps its model"
            elif code == 0:
                run.state = "installed" if ": installed" in last else "kept"
                run.message = last
            else:
                run.state = "failed"
                run.message = (run.lines[-1] if run.lines else last) or f"exit status {code}"

    def _line(self, run: Run, line: str) -> None:
        with self._lock:
            run.lines = [*run.lines[-(MAX_LINES - 1):], line]
            if CHECKING.search(line):
                run.state = "checking"
            elif TRAINING.search(line) and run.state != "checking":
                run.state = "adapting"
            run.message = LOSS.sub("", line)[:300]
            if found := COUNTS.search(line):
                run.counts = {k: int(v) for k, v in found.groupdict().items()}
