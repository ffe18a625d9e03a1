""""Improve this deck" from the phone: the lab's `deck-adapt` run in the background.

The server never trains in its own process, and the runtime never imports the lab: it
starts the lab's command (`python -m scorekeeper_lab deck-adapt NAME --minutes N --events`)
at a lower CPU priority, reads its progress as data (one JSON object a line on its standard
output: counts, phase, progress, the outcome), and cancels it as Ctrl-C would (SIGINT: the
command leaves the profile as it was). Its standard error is for people; its last lines
say why a run failed. One run at a time; the scores are served meanwhile as ever. A server
without the lab (a Pi installs the runtime alone) says so instead of starting anything.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NICE = 10  # below the server's priority: a scan or a hand is never held up
CANCEL_WAIT_S = 15.0
MAX_LINES = 40
PHASES = ("adapting", "checking")  # a run's states while it runs, after "preparing"


def lab_command() -> list[str]:
    """How the lab's command line is run from here: this interpreter, its own process."""
    return [sys.executable, "-m", "scorekeeper_lab"]


class AdaptRefused(Exception):
    """Why a run cannot start: `status` 409 (one is running) or 503 (no training here)."""

    def __init__(self, status: int, detail: str, code: str, **params: object) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail
        self.code, self.params = code, params  # the API's refusal code and its params


def unavailable(models: Path) -> str | None:
    """Why this server cannot adapt a deck, or None when it can."""
    if importlib.util.find_spec("scorekeeper_lab") is None \
            or importlib.util.find_spec("torch") is None:
        return ("adapting a deck needs the lab (training, with torch), which this scorekeeper "
                "does not have: install it with pip install ./lab from the repository, or run "
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
        self.command = command or lab_command()
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
            args = [*self.command, "deck-adapt", deck, "--minutes", f"{minutes:g}",
                    "--models", str(self.models), "--events"]
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
        """Take the run's events from its standard output until it ends; keep its standard
        error's last lines for a failure's reason."""
        assert proc.stderr is not None and proc.stdout is not None
        errors: list[str] = []
        reader = threading.Thread(target=_tail, args=(proc.stderr, errors), daemon=True)
        reader.start()
        done: dict[str, Any] | None = None
        for raw in proc.stdout:
            event = parse_event(raw)
            if event is not None and event.get("event") == "done":
                done = event
            elif event is not None:
                self._event(run, event)
        code = proc.wait()
        reader.join(5)
        with self._lock:
            run.lines = errors[-MAX_LINES:]
            run.progress = 1.0 if code == 0 else run.progress
            if run.cancel_asked:
                run.state = "cancelled"
                run.message = f"cancelled: deck {run.deck!r} keeps its model"
            elif code == 0 and done is not None:
                run.state = "installed" if done.get("installed") is True else "kept"
                run.message = str(done.get("message", ""))[:300]
            else:
                run.state = "failed"
                run.message = (errors[-1] if errors else "") or f"exit status {code}"

    def _event(self, run: Run, event: dict[str, Any]) -> None:
        with self._lock:
            kind = event.get("event")
            if kind == "counts":
                run.counts = {k: int(event[k]) for k in ("learn", "check", "others")
                              if isinstance(event.get(k), int)}
            elif kind == "phase" and event.get("phase") in PHASES:
                if run.state != "checking":  # the check is the last phase
                    run.state = str(event["phase"])
                run.message = phase_message(run.deck, event)


def parse_event(raw: bytes) -> dict[str, Any] | None:
    """One line of the run's standard output as an event; anything else (a library's
    print) is no event."""
    try:
        event = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return None
    return event if isinstance(event, dict) and isinstance(event.get("event"), str) else None


def phase_message(deck: str, event: dict[str, Any]) -> str:
    """The status line a phase event reads as on the page (the page words the counts)."""
    if event.get("phase") == "checking":
        return f"checking {deck} on what it held back"
    left = event.get("left_s")
    clock = f"  {int(left) // 60}:{int(left) % 60:02d} left" if isinstance(left, int | float) \
        else ""
    progress = event.get("progress")
    done = f" {float(progress):4.0%}" if isinstance(progress, int | float) else ""
    return f"adapting {deck}:{done}{clock}"


def _tail(stream: Any, lines: list[str]) -> None:
    """The stream's lines (a progress line ends in a carriage return), the last kept."""
    for raw in stream:
        for line in raw.decode("utf-8", "replace").replace("\r", "\n").split("\n"):
            if line.strip():
                lines.append(line.strip())
                del lines[:-MAX_LINES]
