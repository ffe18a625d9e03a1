"""Live events against the real server: snapshot on connect, one event per change, resume."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchmarks.spawn import ServerProcess, start_server

TOKEN = "sse-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
OUT = {"players": [{"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["3C"]}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("sse")
    srv = start_server(tmp / "games.db", tmp, TOKEN, keepalive_s=0.3)
    yield srv
    srv.stop()


@pytest.fixture
def client(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=5) as c:
        yield c


def new_game(client: httpx.Client) -> int:
    body = {"variant": "rummy", "players": ["Ann", "Bob"], "settings": {"target": 10000}}
    r = client.post("/api/games", json=body, headers=ADMIN)
    assert r.status_code == 201
    return int(r.json()["id"])


def blocks(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """SSE blocks as dicts; comment lines are collected under "comments"."""
    block: dict[str, Any] = {}
    for line in response.iter_lines():
        if not line:
            if block:
                yield block
            block = {}
        elif line.startswith(":"):
            block.setdefault("comments", []).append(line[1:].strip())
        else:
            field, _, value = line.partition(":")
            block[field] = value.removeprefix(" ")


def next_event(it: Iterator[dict[str, Any]]) -> dict[str, Any]:
    return next(b for b in it if "data" in b)


def test_snapshot_then_one_event_per_change(client: httpx.Client) -> None:
    gid = new_game(client)
    with client.stream("GET", f"/api/games/{gid}/events") as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        it = blocks(r)
        first = next_event(it)
        assert first["id"] == "0"
        assert json.loads(first["data"]) == client.get(f"/api/games/{gid}").json()
        assert client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN).status_code == 201
        second = next_event(it)
        assert second["id"] == "1"
        assert json.loads(second["data"]) == client.get(f"/api/games/{gid}").json()
        client.delete(f"/api/games/{gid}/hands/last", headers=ADMIN)
        third = json.loads(next_event(it)["data"])
        assert third["seq"] == 2 and third["hands"] == []
        assert "keep-alive" in next(b for b in it if "comments" in b)["comments"]


def test_reconnect_with_current_id_gets_no_resend(client: httpx.Client) -> None:
    gid = new_game(client)
    client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    with client.stream("GET", f"/api/games/{gid}/events", headers={"Last-Event-ID": "1"}) as r:
        it = blocks(r)
        assert "data" not in next(b for b in it if "comments" in b)  # a keep-alive, no snapshot
        client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
        assert next_event(it)["id"] == "2"


def test_reconnect_with_stale_id_gets_the_current_snapshot(client: httpx.Client) -> None:
    gid = new_game(client)
    client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    with client.stream("GET", f"/api/games/{gid}/events", headers={"Last-Event-ID": "1"}) as r:
        event = next_event(blocks(r))
        assert event["id"] == "2" and len(json.loads(event["data"])["hands"]) == 2


def test_unknown_game_stream_is_404(client: httpx.Client) -> None:
    r = client.get("/api/games/999/events")
    assert r.status_code == 404 and "999" in r.json()["detail"]


async def _listen(
    client: httpx.AsyncClient, gid: int, ready: asyncio.Event, got: list[int]
) -> None:
    async with client.stream("GET", f"/api/games/{gid}/events") as r:
        async for line in r.aiter_lines():
            if line.startswith("id: "):
                seq = int(line[4:])
                got.append(seq)
                if seq == 0:
                    ready.set()
                if seq == 1:
                    return


async def _many(url: str, gid: int, n: int) -> list[list[int]]:
    limits = httpx.Limits(max_connections=n + 10)
    async with httpx.AsyncClient(base_url=url, timeout=10, limits=limits) as client:
        readies = [asyncio.Event() for _ in range(n)]
        seen: list[list[int]] = [[] for _ in range(n)]
        tasks = [
            asyncio.create_task(_listen(client, gid, e, s))
            for e, s in zip(readies, seen, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in readies)), 10)
        r = await client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
        assert r.status_code == 201
        await asyncio.wait_for(asyncio.gather(*tasks), 10)
        return seen


def test_a_hundred_and_twenty_phones(client: httpx.Client, server: ServerProcess) -> None:
    gid = new_game(client)
    seen = asyncio.run(_many(server.url, gid, 120))
    assert all(s == [0, 1] for s in seen)


def test_stop_ends_open_streams_promptly(tmp_path: Path) -> None:
    srv = start_server(tmp_path / "games.db", tmp_path, TOKEN)
    with httpx.Client(base_url=srv.url, timeout=5) as client:
        gid = new_game(client)
        with client.stream("GET", f"/api/games/{gid}/events") as r:
            it = blocks(r)
            next_event(it)
            began = time.monotonic()
            srv.proc.terminate()
            assert list(it) == []  # the stream ends cleanly instead of being cut
            srv.proc.wait(5)
    assert time.monotonic() - began < 2
    assert srv.proc.returncode in (0, -signal.SIGTERM)  # uvicorn re-raises the signal
    assert "Exception" not in srv.log.read_text()
