"""Soak: the real server through many 6-player Chicago hands, SIGKILLed and restarted.

A table runs for hours on a Pi that loses power or gets its plug pulled; this checks what
that must never cost. One admin posts hands back to back (a new game when one ends) while
`--clients` phones follow the live event stream, drop off and reconnect; the server is
SIGKILLed `--kills` times at random moments in the first half and restarted on the same
port and database. Afterwards, on a fresh start:

- every write the server answered is stored (each hand compared through GET), and at most
  the one unanswered request per kill was committed besides;
- `PRAGMA integrity_check` is ok;
- every phone caught up with the last hand;
- resident memory (VmRSS) grew less than `--max-growth` % over the stretch after the last
  restart, measured from the end of a warm-up to the end.

    .venv/bin/python benchmarks/soak.py [--hands 300] [--clients 20] [--kills 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from spawn import Restartable, free_port

from scorekeeper.camera import SAMPLES

TOKEN = "soak-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
# Two decks of aces to sixes (2s wild): low deadwood, so a game lasts about ten hands.
DECK = [rank + suit for rank in ("A", "2", "3", "4", "5", "6") for suit in "CDHS"] * 2


@dataclass
class Report:
    hands: int = 0
    games: int = 0
    kills: int = 0
    unanswered: int = 0
    restart_s: list[float] = field(default_factory=list)
    events: int = 0
    reconnects: int = 0
    out_of_order: int = 0
    clients_caught_up: int = 0
    clients: int = 0
    stretch_hands: int = 0
    rss_start_kib: int = 0
    rss_end_kib: int = 0
    rss_peak_kib: int = 0
    integrity: str = ""
    problems: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    max_growth_pct: float = 5.0

    @property
    def growth_pct(self) -> float:
        return 100.0 * (self.rss_end_kib - self.rss_start_kib) / max(self.rss_start_kib, 1)

    @property
    def ok(self) -> bool:
        return (not self.problems and self.integrity == "ok" and self.out_of_order == 0
                and self.clients_caught_up == self.clients and self.rss_start_kib > 0
                and self.growth_pct < self.max_growth_pct)

    def summary(self) -> str:
        restart = max(self.restart_s, default=0.0)
        return "\n".join([
            f"hands={self.hands} games={self.games} kills={self.kills} "
            f"unanswered={self.unanswered} slowest restart={restart:.2f}s wall={self.wall_s:.1f}s",
            f"clients={self.clients} caught up={self.clients_caught_up} events={self.events} "
            f"reconnects={self.reconnects} out-of-order={self.out_of_order}",
            f"RSS over the last {self.stretch_hands} hands after warm-up: "
            f"{self.rss_start_kib / 1024:.1f} -> {self.rss_end_kib / 1024:.1f} MiB "
            f"({self.growth_pct:+.2f} %, limit {self.max_growth_pct:g} %), "
            f"peak {self.rss_peak_kib / 1024:.1f} MiB",
            f"integrity_check: {self.integrity}",
            *[f"PROBLEM: {p}" for p in self.problems[:20]],
            "result: " + ("PASS" if self.ok else "FAIL"),
        ])


class Server(Restartable):
    """`python -m scorekeeper.web` on one loopback port, restartable on the same database."""

    def __init__(self, data: Path, keepalive_s: float) -> None:
        self.data, self.port, self.starts = data, free_port(), 0
        self.keepalive_s = keepalive_s

    def start(self, timeout: float = 30.0) -> float:
        self.starts += 1
        env = {**os.environ, "SCOREKEEPER_ADMIN_TOKEN": TOKEN,
               "SCOREKEEPER_DATA_DIR": str(self.data),
               "SCOREKEEPER_KEEPALIVE_S": str(self.keepalive_s)}
        cmd = [sys.executable, "-m", "scorekeeper.web", "--db", str(self.data / "soak.db"),
               "--host", "127.0.0.1", "--port", str(self.port), "--camera", f"replay:{SAMPLES}"]
        return self.launch(cmd, env, self.data / f"server-{self.starts}.log", timeout)


@dataclass
class Table:
    """The shared state of one soak: the game being played and what the server answered."""

    server: Server
    report: Report
    up: asyncio.Event
    gid: int | None = None
    seq: int = 0
    over: bool = True
    active: list[str] = field(default_factory=list)
    answered: list[tuple[int, int, list[dict[str, Any]]]] = field(default_factory=list)
    unanswered: dict[int, int] = field(default_factory=dict)
    created: list[int] = field(default_factory=list)
    kills_left: int = 0
    stretch_from: int | None = None  # answered hands when the last restart was done
    kill_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    done: bool = False


def deal(rng: random.Random, names: list[str]) -> list[dict[str, Any]]:
    cards = rng.sample(DECK, 7 * len(names))
    ender = rng.randrange(len(names))
    return [{"name": name, "hand": cards[7 * k:7 * k + 7], **({"knocked": True} if k == ender
            else {})} for k, name in enumerate(names)]


async def post_hands(t: Table, client: httpx.AsyncClient, rng: random.Random, total: int,
                     kill_at: list[int], warmup: int) -> None:
    while len(t.answered) < total:
        try:
            if t.over:
                r = await client.post("/api/games", json={"variant": "chicago",
                                                          "players": PLAYERS})
                r.raise_for_status()
                t.gid, t.over, t.active, t.seq = r.json()["id"], False, list(PLAYERS), 0
                t.created.append(t.gid)
                continue
            players = deal(rng, t.active)
            r = await client.post(f"/api/games/{t.gid}/hands", json={"players": players})
        except httpx.TransportError:
            if t.gid is not None and not t.over:
                t.unanswered[t.gid] = t.unanswered.get(t.gid, 0) + 1
            await resync(t, client)
            continue
        if r.status_code != 201:
            raise RuntimeError(f"hand refused: {r.status_code} {r.text}")
        body = r.json()
        assert t.gid is not None
        t.answered.append((t.gid, body["n"], players))
        t.seq, t.over = body["seq"], body["game_over"]
        t.active = [p["name"] for p in body["players"] if not p["eliminated"]]
        done = len(t.answered)
        if kill_at and done == kill_at[0]:
            kill_at.pop(0)
            t.tasks.append(asyncio.create_task(kill_and_restart(t, rng.uniform(0.0, 0.03))))
        if t.stretch_from is not None and done == t.stretch_from + warmup:
            t.report.rss_start_kib = t.server.memory_kib()[0]


async def resync(t: Table, client: httpx.AsyncClient, timeout: float = 120.0) -> None:
    """After a kill: wait for the restart, then read back what the game really holds.

    The next kill may land between the restart and the read-back (kill points close
    together), so the read-back is retried, each time after waiting for the server again.
    """
    t.report.unanswered += 1
    deadline = time.monotonic() + timeout
    while True:
        await asyncio.wait_for(t.up.wait(), max(deadline - time.monotonic(), 0.1))
        if t.gid is None:
            return
        try:
            r = await client.get(f"/api/games/{t.gid}")
            r.raise_for_status()
            break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)  # the restart's task clears `up` at once; look again
    view = r.json()
    t.seq, t.over = view["seq"], view["game_over"]
    t.active = [p["name"] for p in view["players"] if not p.get("eliminated")]


async def kill_and_restart(t: Table, delay: float) -> None:
    await asyncio.sleep(delay)  # lands inside a request more often than not
    async with t.kill_lock:  # two kill points close together: one after the other
        t.up.clear()
        t.server.kill()
        t.report.kills += 1
        t.report.restart_s.append(await asyncio.to_thread(t.server.start))
        t.kills_left -= 1
        if t.kills_left == 0:
            t.stretch_from = len(t.answered)
        t.up.set()


async def follow(t: Table, client: httpx.AsyncClient, rng: random.Random,
                 seen: dict[int, int]) -> None:
    """One phone: follow the current game; drop off now and then, as phones do."""
    while not t.done:
        gid = t.gid
        if gid is None:
            await asyncio.sleep(0.05)
            continue
        headers = {"Last-Event-ID": str(seen[gid])} if gid in seen else {}
        budget = rng.randint(5, 40)
        try:
            async with client.stream("GET", f"/api/games/{gid}/events",
                                     headers=headers) as response:
                buffer = b""
                async for chunk in response.aiter_raw():
                    *events, buffer = (buffer + chunk).split(b"\n\n")
                    for event in events:
                        if event.startswith(b"id: "):
                            seq = int(event[4:event.index(b"\n")])
                            t.report.out_of_order += int(seq <= seen.get(gid, -1))
                            seen[gid] = seq
                            t.report.events += 1
                            budget -= 1
                    if t.done or t.gid != gid or budget <= 0:
                        break
        except httpx.TransportError:
            await asyncio.sleep(0.1)
        t.report.reconnects += 1


async def soak(t: Table, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    first = max(2, args.hands // 20)
    last = max(first, int(args.hands * 0.5))
    kill_at = sorted(rng.sample(range(first, last + 1), min(args.kills, last - first + 1)))
    t.kills_left = len(kill_at)
    t.stretch_from = None if kill_at else 0
    warmup = max(3, (args.hands - last) // 5)
    limits = httpx.Limits(max_connections=args.clients + 5)
    timeout = httpx.Timeout(10, read=args.keepalive * 10)
    async with httpx.AsyncClient(base_url=t.server.url, timeout=timeout, limits=limits) as phones, \
            httpx.AsyncClient(base_url=t.server.url, headers=ADMIN, timeout=10) as admin:
        seen: list[dict[int, int]] = [{} for _ in range(args.clients)]
        followers = [asyncio.create_task(follow(t, phones, random.Random(args.seed + i), s))
                     for i, s in enumerate(seen)]
        await post_hands(t, admin, rng, args.hands, kill_at, warmup)
        await asyncio.gather(*t.tasks)
        t.report.stretch_hands = args.hands - (t.stretch_from or 0) - warmup
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            t.report.clients_caught_up = sum(s.get(t.gid or -1) == t.seq for s in seen)
            if t.report.clients_caught_up == args.clients:
                break
            await asyncio.sleep(0.1)
        t.report.rss_end_kib, t.report.rss_peak_kib = t.server.memory_kib()
        t.done = True
        await asyncio.wait(followers, timeout=args.keepalive * 3)
        for task in followers:
            task.cancel()


def verify(t: Table, report: Report) -> None:
    """Every answered write stored, nothing else but one request per kill, file intact."""
    views = {gid: httpx.get(f"{t.server.url}/api/games/{gid}").json() for gid in t.created}
    mine: dict[int, int] = {}
    for gid, n, players in t.answered:
        mine[gid] = mine.get(gid, 0) + 1
        hands = views[gid].get("hands", [])
        if n > len(hands) or hands[n - 1]["players"] != players:
            report.problems.append(f"answered hand {n} of game {gid} is missing or changed")
    for gid, view in views.items():
        extra = len(view.get("hands", [])) - mine.get(gid, 0)
        if not 0 <= extra <= t.unanswered.get(gid, 0):
            report.problems.append(f"game {gid}: {extra} hands stored that nobody was told of")
    t.server.stop()
    with sqlite3.connect(t.server.data / "soak.db") as conn:
        report.integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="answered hands in all")
    parser.add_argument("--clients", type=int, default=20, help="phones on the event stream")
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs, in the first half")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keepalive", type=float, default=1.0, help="SSE keep-alive, s")
    parser.add_argument("--max-growth", type=float, default=5.0, help="RSS growth limit, %%")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args(argv)
    report = Report(clients=args.clients, max_growth_pct=args.max_growth)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        server = Server(Path(tmp), args.keepalive)
        table = Table(server, report, asyncio.Event())
        try:
            server.start()
            table.up.set()
            asyncio.run(soak(table, args))
            report.hands, report.games = len(table.answered), len(table.created)
            server.stop()
            server.start()  # the check reads what a fresh start finds
            verify(table, report)
        finally:
            server.stop()
    report.wall_s = time.monotonic() - began
    print(report.summary())
    if args.json:
        print(json.dumps({**asdict(report), "growth_pct": report.growth_pct, "ok": report.ok}))
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
