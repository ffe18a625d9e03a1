"""Floods that hold places: slow bodies and live streams cannot lock a new phone out.

At the cap on connections, a request still sending its body gives its place like a
half-sent head, the one silent longest first (web/http/connections.py); live streams are
capped per address and per game, shared out between addresses at the caps, and phones
over a cap arriving together are each refused cleanly (web/live/hub.py). The latency of a
new phone under these floods is measured by benchmarks/bench_flood.py.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from scorekeeper.web.deps import get_hub
from scorekeeper.web.http.connections import ConnectionPolicy, protocol_class
from scorekeeper.web.live.hub import Hub, StreamRefused
from tests.test_hardening_clients import (
    app_without_model,
    parsers,
    raw,
    read_all,
    serve_in_thread,
)

TOKEN = "floods-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
GAME = {"variant": "rummy", "players": ["Ann", "Bob"]}


# ---- slow bodies -------------------------------------------------------------------------

def reader_app(seen: list[str]) -> Callable[..., Any]:
    """Reads each request's whole body, then answers; notes a client that went away."""
    async def app(scope: dict[str, Any], receive: Callable[..., Any],
                  send: Callable[..., Any]) -> None:
        if scope["type"] != "http":
            return
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                seen.append("gone")
                return
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    return app


BODY_HEAD = b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n"


@parsers()
def test_slow_bodies_give_their_places_to_a_new_phone(parser: str) -> None:
    """Twenty addresses hold every place with bodies that trickle in: a new phone is still
    answered, and the body silent longest is the one that gives way."""
    seen: list[str] = []
    policy = ConnectionPolicy(exempt=lambda host: False, per_client=8, max_connections=40)
    http = protocol_class(policy, parser)
    with serve_in_thread(reader_app(seen), http=http, lifespan="off") as url:
        flood = [raw(url, BODY_HEAD + b"x", f"127.0.0.{2 + i % 20}") for i in range(40)]
        time.sleep(0.3)
        for sock in flood[1:]:  # all but the first keep trickling
            sock.sendall(b"x")
        time.sleep(0.2)
        assert policy.total == 40 and policy.evicted == 0
        phone = raw(url, b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                    "127.0.0.99")
        assert read_all(phone, timeout=2).endswith(b"ok")
        answer = read_all(flood[0], timeout=2)  # the silent one: told to send it again
        assert answer.startswith(b"HTTP/1.1 503") and b"send the request again" in answer
        assert policy.evicted == 1
        deadline = time.monotonic() + 2
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen == ["gone"]  # the app reading that body was told the client went away
        for sock in flood[1:]:  # the others are still being read
            sock.settimeout(0.1)
            with pytest.raises(TimeoutError):
                sock.recv(1)
            sock.close()


def test_a_body_still_arriving_keeps_its_place_before_an_idle_connection() -> None:
    policy = ConnectionPolicy(max_connections=2)
    with serve_in_thread(reader_app([]), http=protocol_class(policy), lifespan="off") as url:
        head = BODY_HEAD.replace(b"Host: t\r\n", b"Host: t\r\nConnection: close\r\n")
        sending = raw(url, head + b"x" * 500)
        time.sleep(0.05)
        idle = raw(url, b"")
        time.sleep(0.05)
        sending.sendall(b"x" * 200)  # heard from just now: the idle one gives way
        time.sleep(0.05)
        assert httpx.get(url, timeout=2, headers={"Connection": "close"}).text == "ok"
        assert read_all(idle, timeout=2) == b""  # sent nothing: just closed
        sending.sendall(b"x" * 300)
        assert read_all(sending, timeout=2).startswith(b"HTTP/1.1 200")


# ---- live streams ------------------------------------------------------------------------

def test_at_the_cap_a_new_address_takes_a_place_from_the_one_holding_most() -> None:
    async def run() -> None:
        hub = Hub(max_streams=6, per_client=4, exempt=lambda host: False)
        held = [hub.subscribe(1, "10.0.0.2") for _ in range(4)] + [
            hub.subscribe(2, "10.0.0.3") for _ in range(2)]
        phone = hub.subscribe(1, "10.0.0.9")  # 4 vs 0: the oldest of 10.0.0.2's goes
        assert hub.streams == 6 and hub.evicted == 1
        ended = [held[0].get_nowait(), held[0].get_nowait()]
        assert ended[0] is not None and ended[0][1].startswith("retry: 10000\n")
        assert ended[1] is None  # the stream ends; its phone tries again in 10 s
        hub.unsubscribe(1, held[0], "10.0.0.2")  # as its stream ends: nothing counted twice
        assert hub.streams == 6
        hub.subscribe(1, "10.0.0.9")  # 3, 2, 1: 10.0.0.2 still holds two more
        with pytest.raises(StreamRefused) as refused:  # 2, 2, 2: shared out
            hub.subscribe(2, "10.0.0.9")
        assert refused.value.status == 503 and refused.value.limit == 6
        assert phone.empty()

    asyncio.run(run())


def test_one_game_cannot_take_every_stream() -> None:
    async def run() -> None:
        hub = Hub(max_streams=100, per_client=10, per_game=3, exempt=lambda host: False)
        for _ in range(3):
            hub.subscribe(1, "10.0.0.2")
        with pytest.raises(StreamRefused) as refused:  # one address holds this game's cap
            hub.subscribe(1, "10.0.0.2")
        assert refused.value.status == 503 and "this game's" in refused.value.message
        hub.subscribe(2, "10.0.0.2")  # another game has its own places
        hub.subscribe(1, "10.0.0.3")  # and a new phone of game 1 takes one of 10.0.0.2's
        assert hub.evicted == 1 and hub.streams == 4

    asyncio.run(run())


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return app_without_model(tmp_path, TOKEN)


def test_streams_over_the_cap_arriving_together_are_each_refused(app: Any) -> None:
    """Before, they all passed the check, then the late ones got a 200 and a stream that
    ended at once."""
    hub = Hub(per_client=2, exempt=lambda host: False)
    app.dependency_overrides[get_hub] = lambda: hub
    with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=5) as c:
        assert c.post("/api/games", json=GAME, headers=ADMIN).status_code == 201
        answers: list[tuple[int, str, str]] = []
        start = threading.Barrier(6)
        done = threading.Event()

        def open_one() -> None:
            with httpx.Client(base_url=url, timeout=30) as own:
                start.wait()
                with own.stream("GET", "/api/games/1/events") as r:
                    if r.status_code == 200:
                        lines = r.iter_lines()  # kept: a reader dropped closes the stream
                        first = next(line for line in lines if line.startswith("data:"))
                        answers.append((200, first[:5], ""))
                        done.wait(30)  # held open until all have answered
                        del lines
                    else:
                        r.read()
                        answers.append((r.status_code, r.json()["code"],
                                        r.headers.get("retry-after", "")))

        threads = [threading.Thread(target=open_one) for _ in range(6)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while len(answers) < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        done.set()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [(200, "data:", "")] * 2 + [(429, "live_client_full", "10")] * 4
        deadline = time.monotonic() + 5
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.streams == 0  # every place given back
