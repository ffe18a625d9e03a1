"""Role `phones`: `--phones` phones per table on the club's GET /api/games/{id}/events of the
table's current game (moving on when it ends, as the club's database shows the next), and
`--screens` big screens on GET /api/club/events, all asyncio clients in one process. Each
records when its stream was subscribed and when each view arrived."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from club.roles import clock, commands, say


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
        orders = commands()
        threading.Thread(target=lambda: (orders.get(), loop.call_soon_threadsafe(stop.set)),
                         daemon=True).start()
        tasks = [asyncio.create_task(self.directory.run())]
        tasks += [asyncio.create_task(self.phone(t, k)) for t in self.spec["tables"]
                  for k in range(self.spec["phones"])]
        tasks += [asyncio.create_task(self.screen(k)) for k in range(self.spec["screens"])]
        ready = asyncio.create_task(self.all_ready.wait())
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait([ready, stopped], return_when=asyncio.FIRST_COMPLETED)
        if self.all_ready.is_set():
            say("ready", streams=self.open)
        await stopped
        streams_at_stop = self.open
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        Path(self.spec["out"]).write_text(json.dumps({
            "subs": [sub.__dict__ for sub in self.subs], "screens": self.screens,
            "errors": self.errors, "streams_at_stop": streams_at_stop,
            "most_open": self.most_open}))
        say("done")
