"""Role `tables`: many tables in one process, each its own SQLite GameStore and the
product's own Forwarder thread (club/forwarder.py), with its own token, outbox and
connections. A hand is a valid rummy hand appended with `GameStore.append`, the call a
table's POST /hands ends in; each commit is timed, and so are the forwarder picking it up
and the club's answer acknowledging it."""

from __future__ import annotations

import json
import logging
import queue
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from club.roles import clock, commands, say
from club.setup import PLAYERS, deal
from scorekeeper.club.forwarder import Forwarder
from scorekeeper.club.outbox import Due, Outbox
from scorekeeper.club.protocol import SyncAnswer
from scorekeeper.store import GameStore


class TimedOutbox(Outbox):
    """The table's outbox, noting when each event was first put in a batch and when the
    club's answer acknowledged it."""

    picked: dict[tuple[int, int], float]
    acked: dict[tuple[int, int], float]
    _held: dict[int, int]

    @classmethod
    def of(cls, outbox: Outbox) -> TimedOutbox:
        """The forwarder's own outbox, timed (whatever its constructor takes)."""
        timed = cls.__new__(cls)
        timed.__dict__.update(outbox.__dict__)
        timed.picked, timed.acked, timed._held = {}, {}, {}
        return timed

    def batch(self, due: list[Due], max_events: int) -> dict[str, Any]:
        body = super().batch(due, max_events)
        now = clock()
        for event in body["events"]:
            self.picked.setdefault((event["table_game_id"], event["seq"]), now)
        return body

    def record(self, answer: SyncAnswer) -> None:
        super().record(answer)
        now = clock()
        for ack in answer.acked:
            for seq in range(self._held.get(ack.table_game_id, 0) + 1, ack.seq + 1):
                self.acked.setdefault((ack.table_game_id, seq), now)
            self._held[ack.table_game_id] = max(ack.seq, self._held.get(ack.table_game_id, 0))


class BenchForwarder(Forwarder):
    """The product's forwarder with a timed outbox. The table app wakes it at each commit
    (its hub's watcher); the benchmark's tables write to their stores directly, so they
    wake it themselves, unless `wake` is off (`--no-wake`: the 1 s poll alone)."""

    def __init__(self, store: GameStore, url: str, token: str, *, wake: bool,
                 **options: float) -> None:
        super().__init__(store, url, token, **options)
        self.wake_on_commit = wake

    def open(self) -> None:
        super().open()
        assert self.outbox is not None
        self.outbox = TimedOutbox.of(self.outbox)

    @property
    def timed(self) -> TimedOutbox:
        assert isinstance(self.outbox, TimedOutbox)
        return self.outbox

    def wake(self) -> None:
        if self.wake_on_commit:
            super().wake()


class Table:
    """One table: its SQLite store, its forwarder, its current game."""

    def __init__(self, name: str, token: str, folder: Path, spec: dict[str, Any]) -> None:
        self.name = name
        folder.mkdir(parents=True, exist_ok=True)
        self.store = GameStore(folder / "table.db")
        self.forwarder = BenchForwarder(
            self.store, spec["club_url"], token, wake=bool(spec["wake"]),
            retry_max_s=float(spec["retry_max_s"]), timeout_s=float(spec["timeout_s"]))
        self.forwarder.start()  # before any game: club mode forwards the games made after
        self.game = 0
        self.players: list[str] = []
        self.games: list[int] = []
        self.commits: list[tuple[int, int, float]] = []  # (table game, seq, committed at)

    def new_game(self, rng: random.Random, target: int) -> None:
        self.players = rng.sample(PLAYERS, rng.randint(2, 4))
        view = self.store.create("rummy", self.players, {"target": target})
        self.game = int(view["id"])
        self.games.append(self.game)
        self.forwarder.wake()

    def hand(self, rng: random.Random, target: int) -> None:
        """One hand, committed; the next game begun when it ended this one."""
        view, _ = self.store.append(self.game, deal(rng, self.players))
        self.commits.append((self.game, int(view["seq"]), clock()))
        self.forwarder.wake()
        if view.get("game_over"):
            self.new_game(rng, target)

    def pending(self) -> tuple[int, int, int]:
        """(events, games) the club lacks, and games it refused."""
        outbox = self.forwarder.timed
        events, games = outbox.pending()
        return events, games, len(outbox.refused())


class Warnings(logging.Handler):
    """Counts the forwarders' warnings and errors (the club away, refused games...)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.last: list[str] = []
        self.kinds: Counter[str] = Counter()  # by message, numbers in it dropped

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        message = record.getMessage()[:300]
        self.last = [*self.last[-9:], message]
        self.kinds[re.sub(r"\d+", "N", message)[:160]] += 1


def run_tables(spec: dict[str, Any]) -> None:
    """Commands: go, pause (stop posting, then say `drained` once the club holds
    everything), resume, status, stop (drain, write the results, say `done`)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    warnings = Warnings()
    logging.getLogger("scorekeeper").addHandler(warnings)
    rng = random.Random(spec["seed"])
    low, high = spec["hand_s"]
    target = int(spec["target"])
    tables = [Table(t["name"], t["token"], Path(t["dir"]), spec) for t in spec["tables"]]
    for table in tables:
        table.new_game(rng, target)
    say("ready", games=sum(len(t.games) for t in tables))
    orders = commands()

    def status() -> dict[str, Any]:
        found = {t.name: t.pending() for t in tables}
        return {"pending_events": sum(p[0] for p in found.values()),
                "refused": sum(p[2] for p in found.values()),
                "hands": sum(len(t.commits) for t in tables),
                "connected": sum(t.forwarder.connected for t in tables),
                "per_table": {n: p[0] for n, p in found.items()},
                "warnings": dict(warnings.kinds)}

    def drain(timeout: float) -> dict[str, Any]:
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            if all(t.pending()[0] == 0 and t.pending()[1] == 0 for t in tables):
                return {"ok": True, "drain_s": round(time.monotonic() - began, 2), **status()}
            time.sleep(0.2)
        return {"ok": False, "drain_s": round(time.monotonic() - began, 2), **status()}

    running = False
    due = {t.name: 0.0 for t in tables}
    while True:
        now = time.monotonic()
        wait = max(0.0, min(due.values()) - now) if running else None
        try:
            command = orders.get(timeout=wait)
        except queue.Empty:
            command = ""
        if command in ("go", "resume"):
            running = True  # the first hands spread over one interval, as tables sit down
            due = {t.name: time.monotonic() + rng.uniform(0, high) for t in tables}
        elif command == "pause":
            running = False
            say("drained", **drain(float(spec["drain_timeout_s"])))
        elif command == "status":
            say("status", **status())
        elif command == "stop":
            break
        if running:
            now = time.monotonic()
            for table in tables:
                if due[table.name] <= now:
                    table.hand(rng, target)
                    due[table.name] = now + rng.uniform(low, high)
    drained = drain(float(spec["drain_timeout_s"]))
    for table in tables:
        table.forwarder.stop()
    commits = []
    for table in tables:
        timed = table.forwarder.timed
        commits += [[table.name, g, s, t, timed.picked.get((g, s)), timed.acked.get((g, s))]
                    for g, s, t in table.commits]
    result = {"commits": commits, "games": {t.name: t.games for t in tables},
              "drained": drained, "warnings": warnings.count, "last_warnings": warnings.last}
    for table in tables:
        table.store.close()
    Path(spec["out"]).write_text(json.dumps(result))
    say("done", **drained)
