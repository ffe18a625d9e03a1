"""Club night under load: thirty tables forwarding hands to one club server on PostgreSQL,
six phones per table and a few big screens on its live streams (docs/club.md, Figures).

Everything runs on this machine, in separate processes:

- PostgreSQL: a throwaway cluster (tests/pg.py, with fsync turned back on, as a real server
  runs), or `--db URL`, an empty database.
- The club server: `python -m scorekeeper serve --club-server` (uvicorn, one process), the
  tables registered through its admin route as a club admin would.
- The tables (role `tables`, one process): each table its own SQLite GameStore and the
  product's own Forwarder thread (club/forwarder.py), with its own token, outbox and
  connections. A hand is a valid rummy hand appended with `GameStore.append`, the call a
  table's POST /hands ends in. The table's HTTP front and its own phones are left out:
  what is measured starts at the table's commit, and thirty table servers on two cores
  would measure themselves rather than the club.
- The phones (role `phones`, one process of asyncio clients): `--phones` per table on the
  club's GET /api/games/{id}/events of the table's current game (moving on when it ends,
  as the club's database shows the next), and `--screens` on GET /api/club/events.

Pace: every table posts a hand every `--hand-s LO,HI` seconds, uniformly. A real evening is
120,240 (a hand every 2 to 4 minutes); compressed, 4,6 says more in a few minutes.

Delivery latency: from the table's append returning (committed) to the arrival at a phone
of the chunk holding a view with that seq or a later one (two hands in one batch are one
view), for the events committed after that phone's stream was subscribed. Every process
reads the same clock (CLOCK_MONOTONIC). Its legs: commit to the forwarder picking the event
up (its poll), and to the club's answer acknowledging it (stored at the club).

Each commit wakes the table's forwarder, as the table app's hub does; `--no-wake` leaves
it to the forwarder's 1 s poll, as 0.10.0 shipped (docs/club.md, Figures).

    .venv/bin/python benchmarks/club_load.py --minutes 5 --hand-s 4,6 [--no-wake] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import logging
import math
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import parse_qs, urlsplit

import httpx
from spawn import free_port

from scorekeeper.club.forwarder import Forwarder
from scorekeeper.club.outbox import Due, Outbox
from scorekeeper.club.protocol import SyncAnswer
from scorekeeper.store import GameStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ADMIN = "club-bench-admin"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]
PLAYERS = [f"Player {i:02d}" for i in range(1, 61)]
CLUB_PLAYERS = PLAYERS[:45]  # on the club's list; the other 15 play as guests
EVENING = (120.0, 240.0)
COMPRESSED = (4.0, 6.0)


def clock() -> float:
    """One clock for every process of the benchmark (CLOCK_MONOTONIC is system-wide)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p95, p99 (nearest rank) and max, in milliseconds; None when there are none."""
    ordered = sorted(values)

    def rank(q: float) -> float | None:
        if not ordered:
            return None
        return round(1000 * ordered[max(0, math.ceil(q * len(ordered)) - 1)], 1)

    return {"n": len(ordered), "p50": rank(0.50), "p95": rank(0.95), "p99": rank(0.99),
            "max": rank(1.0)}


def shown_ms(stats: dict[str, Any]) -> str:
    if not stats.get("n"):
        return "none measured"
    return (f"p50 {stats['p50']:.0f} ms, p95 {stats['p95']:.0f}, p99 {stats['p99']:.0f}, "
            f"max {stats['max']:.0f} (n={stats['n']})")


def parse_pace(text: str) -> tuple[float, float]:
    """`LO,HI` seconds, or `evening` / `compressed`."""
    presets = {"evening": EVENING, "compressed": COMPRESSED}
    if text in presets:
        return presets[text]
    lo, _, hi = text.partition(",")
    low, high = float(lo), float(hi or lo)
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"--hand-s LO,HI with 0 < LO <= HI, got {text!r}")
    return low, high


def deal(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A valid rummy hand: one player goes out, the others hold 1 to 4 cards of one deck."""
    deck = DECK[:]
    rng.shuffle(deck)
    out = rng.choice(players)
    hands: list[dict[str, Any]] = []
    for name in players:
        if name == out:
            hands.append({"name": name, "hand": [], "went_out": True})
        else:
            hands.append({"name": name, "hand": [deck.pop() for _ in range(rng.randint(1, 4))]})
    return {"type": "hand", "players": hands}


# --- processes: PostgreSQL, the club server, and the roles ---------------------------------

@dataclass
class Postgres:
    """The club's database, and where its server's processes are (for their CPU)."""

    url: str
    postmaster: int | None

    def version(self) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            row = conn.execute("SHOW server_version").fetchone()
        return str(row[0]).split()[0] if row else "?"

    def cpu_s(self) -> float | None:
        """The server's CPU seconds: the postmaster, its backends, and those that ended."""
        if self.postmaster is None:
            return None
        total = cpu_s(self.postmaster, children=True)
        for pid in children(self.postmaster):
            total += cpu_s(pid)
        return total


def _postmaster(url: str) -> int | None:
    """The postmaster of a tests/pg.py cluster (its socket folder holds data/), else None."""
    hosts = parse_qs(urlsplit(url).query).get("host", [])
    try:
        first = (Path(hosts[0]) / "data" / "postmaster.pid").read_text().split()[0]
        return int(first)
    except (IndexError, OSError, ValueError):
        return None


@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[Postgres]:
    """`url`, or a throwaway cluster (tests/pg.py) with a fresh database, fsync on."""
    if url:
        yield Postgres(url, _postmaster(url))
        return
    sys.path.insert(0, str(ROOT / "tests"))
    import pg  # tests/pg.py
    import psycopg

    with pg.local_server() as server:
        # tests/pg.py turns fsync off for speed; a club's server has it on, so this does too
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET fsync = on")
            conn.execute("ALTER SYSTEM SET full_page_writes = on")
            conn.execute("SELECT pg_reload_conf()")
        yield Postgres(pg.fresh_database(server), _postmaster(server))


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


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU ticks of the whole machine so far (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = values[3] + values[4]
    return float(sum(values) - idle), float(sum(values))


class ClubServer:
    """`python -m scorekeeper serve --club-server` on a fixed address, restartable there."""

    def __init__(self, db_url: str, folder: Path, host: str = "127.0.0.1",
                 port: int | None = None) -> None:
        self.db_url, self.folder, self.host = db_url, folder, host
        self.port = port or free_port()
        self.url = f"http://{host}:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def log(self) -> Path:
        return self.folder / "club-server.log"

    def start(self, timeout: float = 60.0) -> float:
        """Start it and wait for its health; the seconds that took."""
        began = time.monotonic()
        env = {**os.environ, "SCOREKEEPER_ADMIN_TOKEN": ADMIN,
               "SCOREKEEPER_DATA_DIR": str(self.folder / "data"), "SCOREKEEPER_CAMERA": "none"}
        cmd = [sys.executable, "-m", "scorekeeper", "serve", "--club-server", "--db",
               self.db_url, "--host", self.host, "--port", str(self.port), "--camera", "none"]
        with self.log.open("ab") as out:
            out.write(f"\n=== start {self.starts + 1} ===\n".encode())
            out.flush()
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        while time.monotonic() - began < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the club server exited with {self.proc.returncode}:\n"
                                   f"{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return time.monotonic() - began
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the club server did not answer:\n{self.log.read_text()[-3000:]}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """kill -9: no chance to finish a request, close a connection or flush anything."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Stopped as systemd stops it (SIGTERM), killed if it does not go."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        r = httpx.request(method, self.url + path, json=body, timeout=30,
                          headers={"Authorization": f"Bearer {ADMIN}"})
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    def problems(self) -> list[str]:
        """The log's lines that say something went wrong (tracebacks, errors, 5xx)."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(errors="replace").splitlines()
        return [ln for ln in lines if "Traceback" in ln or " ERROR" in ln or "ERROR:" in ln
                or '" 5' in ln]


def register(club: ClubServer, names: list[str]) -> dict[str, str]:
    """Register the tables through the club's admin route; their tokens by name. The club's
    player list too (PLAYERS beyond it play as guests)."""
    tokens = {name: str(club.admin("POST", "/api/club/tables", {"name": name})["token"])
              for name in names}
    club.admin("POST", "/api/club/players", {"names": CLUB_PLAYERS})
    return tokens


def seed_history(db_url: str, games: int, names: list[str]) -> float:
    """`games` finished games already at the club, as from earlier evenings, spread over
    the tables (linked as theirs, dated in the past): what the big screen and the standings
    read on every build. The seconds that took."""
    if games <= 0:
        return 0.0
    began = time.monotonic()
    rng = random.Random(7)
    store = GameStore(db_url)
    try:
        with store.database.read() as tx:
            ids = {str(n): int(i) for i, n in tx.fetchall("SELECT id, name FROM club_tables")}
        for n in range(games):
            players = rng.sample(PLAYERS, rng.randint(2, 4))
            game = int(store.create("rummy", players, {"target": 150})["id"])
            while not store.append(game, deal(rng, players))[0].get("game_over"):
                pass
            day = f"2026-{1 + n * 10 // games:02d}-{1 + n % 28:02d}T20:00:00+00:00"
            with store.database.transaction() as tx:
                tx.execute("INSERT INTO club_games (table_id, table_game_id, game_id,"
                           " created_at) VALUES (?, ?, ?, ?)",
                           (ids[names[n % len(names)]], 1_000_000 + n, game, day))
    finally:
        store.close()
    return time.monotonic() - began


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
        cmd = [*(prefix or []), sys.executable, str(HERE / "club_load.py"), role,
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
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# --- role `tables`: many tables' stores and forwarders in one process ----------------------

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


def _say(event: str, **data: Any) -> None:
    print(json.dumps({"event": event, **data}), flush=True)


def _commands() -> queue.Queue[str]:
    """Commands from the parent, one a line; "stop" when it goes away."""
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            found.put(line.strip())
        found.put("stop")

    threading.Thread(target=read, daemon=True).start()
    return found


class _Warnings(logging.Handler):
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
    warnings = _Warnings()
    logging.getLogger("scorekeeper").addHandler(warnings)
    rng = random.Random(spec["seed"])
    low, high = spec["hand_s"]
    target = int(spec["target"])
    tables = [Table(t["name"], t["token"], Path(t["dir"]), spec) for t in spec["tables"]]
    for table in tables:
        table.new_game(rng, target)
    _say("ready", games=sum(len(t.games) for t in tables))
    commands = _commands()

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
            command = commands.get(timeout=wait)
        except queue.Empty:
            command = ""
        if command in ("go", "resume"):
            running = True  # the first hands spread over one interval, as tables sit down
            due = {t.name: time.monotonic() + rng.uniform(0, high) for t in tables}
        elif command == "pause":
            running = False
            _say("drained", **drain(float(spec["drain_timeout_s"])))
        elif command == "status":
            _say("status", **status())
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
    _say("done", **drained)


# --- role `phones`: phones and big screens on the club's live streams ----------------------

class StreamError(Exception):
    """A live stream refused or cut off, in words."""


async def sse(host: str, port: int, path: str) -> AsyncIterator[tuple[str, str, float]]:
    """The blocks of a Server-Sent-Events stream as ("retry" | "data", text, arrived at);
    a bare HTTP/1.1 client, so a phone costs this process little and the arrival time is
    when the chunk was read."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     f"Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        status = (await reader.readline()).decode(errors="replace").split()
        headers = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode(errors="replace").partition(":")
            headers[key.strip().lower()] = value.strip()
        if len(status) < 2 or status[1] != "200":
            raise StreamError(f"GET {path}: {' '.join(status[1:]) or 'no answer'}")
        if headers.get("transfer-encoding") != "chunked":
            raise StreamError(f"GET {path}: not a chunked stream ({headers})")
        buffer = b""
        while True:
            size = await reader.readline()
            if not size:
                raise StreamError(f"GET {path}: the stream was cut off")
            length = int(size.split(b";")[0], 16)
            if length == 0:
                return
            data = await reader.readexactly(length + 2)
            arrived = clock()
            buffer += data[:-2]
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                text = block.decode()
                if text.startswith("retry:"):
                    yield "retry", "", arrived
                data_lines = [ln[6:] for ln in text.split("\n") if ln.startswith("data: ")]
                if data_lines:
                    yield "data", "\n".join(data_lines), arrived
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


class Directory:
    """Each table's newest club game, read from the club's database (not from the club
    server, so that finding games costs it nothing)."""

    def __init__(self, db_url: str) -> None:
        self.db_url = db_url
        self.newest: dict[str, int] = {}
        self.changed = asyncio.Condition()

    def _read(self, conn: Any) -> dict[str, int]:
        rows = conn.execute("SELECT t.name, MAX(g.game_id) FROM club_games g JOIN club_tables t"
                            " ON t.id = g.table_id GROUP BY t.name").fetchall()
        return {str(name): int(gid) for name, gid in rows}

    async def run(self) -> None:
        import psycopg

        conn: psycopg.Connection[Any] = await asyncio.to_thread(
            lambda: psycopg.connect(self.db_url, autocommit=True))
        try:
            while True:
                found = await asyncio.to_thread(self._read, conn)
                if found != self.newest:
                    async with self.changed:
                        self.newest = found
                        self.changed.notify_all()
                await asyncio.sleep(0.25)
        finally:
            conn.close()

    async def next_game(self, table: str, after: int) -> int:
        async with self.changed:
            await self.changed.wait_for(lambda: self.newest.get(table, 0) > after)
            return self.newest[table]


@dataclass
class Sub:
    """One phone's stream of one game: when it was subscribed, and what arrived."""

    table: str
    phone: int
    game: int
    ready: float | None = None
    arrivals: list[tuple[int, float]] = field(default_factory=list)  # (seq, arrived at)
    error: str | None = None
    ended: float | None = None


class Phones:
    def __init__(self, spec: dict[str, Any]) -> None:
        url = urlsplit(spec["club_url"])
        self.host, self.port = str(url.hostname), int(url.port or 80)
        self.spec = spec
        self.directory = Directory(spec["db_url"])
        self.subs: list[Sub] = []
        self.screens: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.waiting = {(t, k) for t in spec["tables"] for k in range(spec["phones"])}
        self.waiting |= {("screen", k) for k in range(spec["screens"])}
        self.open = 0
        self.most_open = 0
        self.all_ready = asyncio.Event()

    def _ready(self, key: tuple[str, int]) -> None:
        self.waiting.discard(key)
        if not self.waiting:
            self.all_ready.set()

    async def phone(self, table: str, k: int) -> None:
        after = 0
        while True:
            game = await self.directory.next_game(table, after)
            sub = Sub(table, k, game)
            self.subs.append(sub)
            if await self._watch(sub):
                after = game  # over: on to the table's next game
            else:
                await asyncio.sleep(1.0)

    async def _watch(self, sub: Sub) -> bool:
        """Follow one game; whether it ended (else the stream was lost)."""
        self.open += 1
        self.most_open = max(self.most_open, self.open)
        try:
            async for kind, text, arrived in sse(self.host, self.port,
                                                 f"/api/games/{sub.game}/events"):
                if kind == "retry" and sub.ready is None:
                    sub.ready = arrived
                    self._ready((sub.table, sub.phone))
                elif kind == "data":
                    view = json.loads(text)
                    sub.arrivals.append((int(view["seq"]), arrived))
                    if view.get("game_over"):
                        return True
            sub.error = "the stream ended"
        except (OSError, asyncio.IncompleteReadError, StreamError, ValueError) as exc:
            sub.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.open -= 1
            sub.ended = clock()
        self.errors.append(f"{sub.table} phone {sub.phone} game {sub.game}: {sub.error}")
        return False

    async def screen(self, k: int) -> None:
        """A big screen: each table's (game, seq) as it changes on the screen."""
        record: dict[str, Any] = {"screen": k, "ready": None, "changes": [], "messages": 0}
        self.screens.append(record)
        seen: dict[str, tuple[int, int]] = {}
        while True:
            self.open += 1
            self.most_open = max(self.most_open, self.open)
            try:
                async for kind, text, arrived in sse(self.host, self.port, "/api/club/events"):
                    if kind == "retry" and record["ready"] is None:
                        record["ready"] = arrived
                        self._ready(("screen", k))
                    elif kind == "data":
                        record["messages"] += 1
                        for row in json.loads(text)["tables"]:
                            now = (int(row["game_id"]), int(row["seq"]))
                            if seen.get(row["table"]) != now:
                                seen[row["table"]] = now
                                record["changes"].append([row["table"], *now, arrived])
                self.errors.append(f"screen {k}: the stream ended")
            except (OSError, asyncio.IncompleteReadError, StreamError, ValueError) as exc:
                self.errors.append(f"screen {k}: {type(exc).__name__}: {exc}")
            finally:
                self.open -= 1
            await asyncio.sleep(1.0)

    async def main(self) -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        commands = _commands()
        threading.Thread(target=lambda: (commands.get(), loop.call_soon_threadsafe(stop.set)),
                         daemon=True).start()
        tasks = [asyncio.create_task(self.directory.run())]
        tasks += [asyncio.create_task(self.phone(t, k)) for t in self.spec["tables"]
                  for k in range(self.spec["phones"])]
        tasks += [asyncio.create_task(self.screen(k)) for k in range(self.spec["screens"])]
        ready = asyncio.create_task(self.all_ready.wait())
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait([ready, stopped], return_when=asyncio.FIRST_COMPLETED)
        if self.all_ready.is_set():
            _say("ready", streams=self.open)
        await stopped
        streams_at_stop = self.open
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        Path(self.spec["out"]).write_text(json.dumps({
            "subs": [sub.__dict__ for sub in self.subs], "screens": self.screens,
            "errors": self.errors, "streams_at_stop": streams_at_stop,
            "most_open": self.most_open}))
        _say("done")


# --- the figures, joined from the roles' records --------------------------------------------

def club_map(db_url: str) -> dict[tuple[str, int], tuple[int, int]]:
    """(table, table game) → (club game, events the club holds of it)."""
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        rows = conn.execute("SELECT t.name, c.table_game_id, c.game_id, g.seq FROM club_games c"
                            " JOIN club_tables t ON t.id = c.table_id"
                            " JOIN games g ON g.id = c.game_id").fetchall()
    return {(str(t), int(tg)): (int(g), int(s)) for t, tg, g, s in rows}


def delivery(commits: list[list[Any]], mapping: dict[tuple[str, int], tuple[int, int]],
             subs: list[dict[str, Any]]) -> tuple[list[float], int, int]:
    """(latencies in s, events missed by a phone that was subscribed, events measured)."""
    by_game: dict[int, list[tuple[int, float]]] = {}
    for table, tgid, seq, committed, *_ in commits:
        club = mapping.get((table, tgid))
        if club is not None:
            by_game.setdefault(club[0], []).append((seq, committed))
    latencies: list[float] = []
    missed = 0
    events: set[tuple[int, int]] = set()
    for sub in subs:
        if sub["ready"] is None:
            continue
        seqs = [s for s, _ in sub["arrivals"]]
        for seq, committed in by_game.get(sub["game"], []):
            if committed <= sub["ready"] or (sub["error"] and committed >= sub["ended"]):
                continue
            at = bisect.bisect_left(seqs, seq)
            if at == len(seqs):
                missed += sub["error"] is None
                continue
            latencies.append(sub["arrivals"][at][1] - committed)
            events.add((sub["game"], seq))
    return latencies, missed, len(events)


def screen_delivery(commits: list[list[Any]], mapping: dict[tuple[str, int], tuple[int, int]],
                    screens: list[dict[str, Any]]) -> list[float]:
    """Commit to the big screen showing that seq (or a later one) of the table's game."""
    latencies: list[float] = []
    for screen in screens:
        if screen["ready"] is None:
            continue
        shown: dict[int, list[tuple[int, float]]] = {}
        for _table, game, seq, arrived in screen["changes"]:
            shown.setdefault(game, []).append((seq, arrived))
        for table, tgid, seq, committed, *_ in commits:
            club = mapping.get((table, tgid))
            if club is None or committed <= screen["ready"]:
                continue
            rows = shown.get(club[0], [])
            at = bisect.bisect_left([s for s, _ in rows], seq)
            if at < len(rows):
                latencies.append(rows[at][1] - committed)
    return latencies


# --- the benchmark ---------------------------------------------------------------------------

def table_names(count: int) -> list[str]:
    return [f"table-{i:02d}" for i in range(1, count + 1)]


def tables_spec(club_url: str, tokens: dict[str, str], folder: Path, args: argparse.Namespace,
                label: str = "tables", seed: int = 1) -> dict[str, Any]:
    return {"label": label, "club_url": club_url, "wake": args.wake, "hand_s": args.hand_s,
            "target": args.target, "seed": seed, "retry_max_s": args.retry_max_s,
            "timeout_s": args.timeout_s, "drain_timeout_s": args.drain_timeout_s,
            "out": str(folder / f"{label}.result.json"),
            "tables": [{"name": n, "token": t, "dir": str(folder / n)}
                       for n, t in tokens.items()]}


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


def run_load(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="club-load-"))
    names = table_names(args.tables)
    roles: list[Role] = []
    club: ClubServer | None = None
    try:
        with postgres(args.db) as pg:
            club = ClubServer(pg.url, folder / "club")
            club.start()
            tokens = register(club, names)
            seeded = seed_history(pg.url, args.history, names)
            if args.history and not args.quiet:
                print(f"  {args.history} finished games at the club beforehand "
                      f"({seeded:.0f} s to make)", flush=True)
            tables = Role("tables", tables_spec(club.url, tokens, folder, args), folder)
            roles.append(tables)
            tables.expect("ready", 120)
            phones = Role("phones", {"club_url": club.url, "db_url": pg.url, "tables": names,
                                     "phones": args.phones, "screens": args.screens,
                                     "out": str(folder / "phones.result.json")}, folder)
            roles.append(phones)
            streams = int(phones.expect("ready", 120)["streams"])

            def parts() -> dict[str, float | None]:
                assert club is not None
                return {"club_server": cpu_s(club.pid), "postgresql": pg.cpu_s(),
                        "tables": tables.cpu_s(), "phones": phones.cpu_s()}

            before = Cpu.now(parts())
            began = time.monotonic()
            tables.send("go")
            spy = profile(args.profile, club.pid, args.minutes * 60)
            while (left := args.minutes * 60 - (time.monotonic() - began)) > 0:
                time.sleep(min(left, 30.0))
                if not args.quiet and left > 30:
                    print(f"  ... {(time.monotonic() - began) / 60:.1f} min", flush=True)
            cpu = Cpu.now(parts()).since(before)
            if spy is not None:
                spy.wait(60)
            rss = _rss_kib(club.pid)
            tables.send("stop")
            drained = tables.expect("done", args.drain_timeout_s + 60)
            time.sleep(2.0)  # the last views reach the phones
            phones.send("stop")
            phones.expect("done", 60)
            mapping = club_map(pg.url)
            version = pg.version()
            club.stop()
            return figures(args, tables.result(), phones.result(), mapping, drained, cpu,
                           streams, club.problems(), version, rss)
    finally:
        for role in roles:
            role.close()
        if club is not None:
            club.stop()
        if args.keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


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


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def figures(args: argparse.Namespace, tables: dict[str, Any], phones: dict[str, Any],
            mapping: dict[tuple[str, int], tuple[int, int]], drained: dict[str, Any],
            cpu: dict[str, float | None], streams: int, club_problems: list[str],
            version: str, rss_kib: int) -> dict[str, Any]:
    commits = tables["commits"]
    latencies, missed, measured = delivery(commits, mapping, phones["subs"])
    held = {key: seq for key, (_, seq) in mapping.items()}
    last: dict[tuple[str, int], int] = {}
    for table, tgid, seq, *_ in commits:
        last[(table, tgid)] = max(seq, last.get((table, tgid), 0))
    at_club = sum(min(held.get(k, 0), s) for k, s in last.items())
    picked = [p - c for _, _, _, c, p, _ in commits if p is not None]
    acked = [a - c for _, _, _, c, _, a in commits if a is not None]
    wanted = args.tables * args.phones + args.screens
    errors = len(phones["errors"]) + tables["warnings"] + len(club_problems)
    p99 = percentiles(latencies)["p99"]
    result: dict[str, Any] = {
        "tables": args.tables, "phones_per_table": args.phones, "screens": args.screens,
        "history_games": args.history,
        "hand_s": list(args.hand_s), "minutes": args.minutes, "wake": args.wake,
        "postgresql": version, "cores": os.cpu_count(),
        "hands": len(commits), "games": sum(len(g) for g in tables["games"].values()),
        "events_at_club": at_club, "drained": drained.get("ok", False),
        "delivery": percentiles(latencies), "missed": missed, "events_measured": measured,
        "picked_up": percentiles(picked), "acked": percentiles(acked),
        "screen": percentiles(screen_delivery(commits, mapping, phones["screens"])),
        "screen_messages": sum(s["messages"] for s in phones["screens"]),
        "streams_wanted": wanted, "streams": streams,
        "streams_at_stop": phones["streams_at_stop"],
        "errors": errors, "stream_errors": phones["errors"][:10],
        "forwarder_warnings": tables["warnings"], "last_warnings": tables["last_warnings"],
        "club_log_problems": club_problems[:10], "cpu_pct": cpu, "club_rss_mib":
        round(rss_kib / 1024, 1), "p99_limit_ms": args.p99_ms,
    }
    result["ok"] = bool(
        errors == 0 and missed == 0 and result["drained"] and at_club == len(commits)
        and streams == wanted and p99 is not None and p99 <= args.p99_ms)
    return result


def summary(r: dict[str, Any]) -> str:
    cpu = r["cpu_pct"]

    def pct(name: str) -> str:
        return "n/a" if cpu.get(name) is None else f"{cpu[name]:.1f}%"

    lo, hi = r["hand_s"]
    verdict = "PASS" if r["ok"] else "FAIL"
    p99 = r["delivery"]["p99"]
    why = [] if r["ok"] else [w for w, bad in [
        (f"p99 {p99} ms > {r['p99_limit_ms']:g} ms", p99 is None or p99 > r["p99_limit_ms"]),
        (f"{r['errors']} errors", r["errors"] > 0), (f"{r['missed']} missed", r["missed"] > 0),
        ("not every event reached the club", r["events_at_club"] != r["hands"]),
        (f"{r['streams']} of {r['streams_wanted']} streams", r["streams"] != r["streams_wanted"]),
    ] if bad]
    return "\n".join([
        f"club_load: {r['tables']} tables x {r['phones_per_table']} phones + {r['screens']} "
        f"big screens, a hand every {lo:g}-{hi:g} s per table, {r['minutes']:g} min, "
        f"{r['history_games']} earlier games at the club, "
        f"PostgreSQL {r['postgresql']}, {r['cores']} cores, forwarder wake on commit: "
        f"{'on (as shipped)' if r['wake'] else 'off (the 1 s poll alone)'}",
        f"  hands {r['hands']}, games {r['games']}; at the club: {r['events_at_club']} of "
        f"{r['hands']} events",
        f"  live streams: {r['streams']} of {r['streams_wanted']} connected, "
        f"{r['streams_at_stop']} still at the end",
        f"  delivery to phones (commit at the table -> phone): {shown_ms(r['delivery'])}; "
        f"missed {r['missed']}; events measured {r['events_measured']}",
        f"    commit -> picked up by the forwarder: {shown_ms(r['picked_up'])}",
        f"    commit -> acknowledged by the club:   {shown_ms(r['acked'])}",
        f"  big screens (0.5 s debounce by design): {shown_ms(r['screen'])}, "
        f"{r['screen_messages']} messages",
        f"  errors: {r['errors']} (streams {len(r['stream_errors'])}, forwarder warnings "
        f"{r['forwarder_warnings']}, club log {len(r['club_log_problems'])})",
        f"  CPU (100% = one core): club server {pct('club_server')}, PostgreSQL "
        f"{pct('postgresql')}, tables {pct('tables')}, phones {pct('phones')}; machine busy "
        f"{pct('machine_busy_pct')} of all cores; club server RSS {r['club_rss_mib']} MiB",
        f"  {verdict}" + (f": {'; '.join(why)}" if why else
                          f" (p99 <= {r['p99_limit_ms']:g} ms, no error, nothing missed)"),
    ])


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="an empty PostgreSQL database's URL "
                        "(default: a throwaway cluster, tests/pg.py)")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--phones", type=int, default=6, help="phones per table")
    parser.add_argument("--screens", type=int, default=4, help="big screens")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--hand-s", type=parse_pace, default=COMPRESSED,
                        help="LO,HI seconds between a table's hands, or evening (120,240) or "
                             "compressed (4,6, the default)")
    parser.add_argument("--target", type=int, default=150, help="the rummy games' target")
    parser.add_argument("--history", type=int, default=0,
                        help="finished games at the club before the evening (a season's)")
    parser.add_argument("--no-wake", dest="wake", action="store_false",
                        help="leave each commit to the forwarder's 1 s poll (as before 0.10.1)")
    parser.add_argument("--p99-ms", type=float, default=200.0, help="the figure to pass")
    parser.add_argument("--retry-max-s", type=float, default=30.0)
    parser.add_argument("--timeout-s", type=float, default=10.0)
    parser.add_argument("--drain-timeout-s", type=float, default=120.0)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--profile", type=Path, default=None,
                        help="py-spy the club server over the run: collapsed stacks here")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder and logs")
    parser.add_argument("--quiet", action="store_true")
    return parser.parse_args(argv)


def role_main(role: str, spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    if role == "tables":
        run_tables(spec)
    else:
        asyncio.run(Phones(spec).main())


def write_json(path: Path | None, result: dict[str, Any], out: TextIO = sys.stdout) -> None:
    if path is not None:
        path.write_text(json.dumps(result, indent=1) + "\n")
        out.write(f"figures written to {path}\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("tables", "phones"):
        role_main(argv[0], argv[1])
        return 0
    args = arguments(argv)
    result = run_load(args)
    print(summary(result))
    write_json(args.json, result)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
