"""Full garbage-collector passes run when the server is quiet, not in the middle of a flood."""

from __future__ import annotations

import asyncio
import gc
import socket

from fastapi import FastAPI

from scorekeeper.web.http.collector import (
    BUSY_AFTER,
    NEVER,
    QUIET_AFTER,
    QUIET_CONNECTIONS,
    QuietCollector,
)
from scorekeeper.web.http.connections import server_config
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.server import _Server


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def collector(open_now: list[int], pending: list[int], clock: Clock,
              runs: list[float]) -> QuietCollector:
    return QuietCollector(busy=lambda: open_now[0], collect=lambda: runs.append(clock.now),
                          passes=lambda: pending[0], clock=clock, longest_s=300.0)


def test_a_quiet_server_collects_once_middle_passes_have_piled_up() -> None:
    clock, runs = Clock(), []
    c = collector([QUIET_CONNECTIONS - 1], [QUIET_AFTER - 1], clock, runs)
    assert not c.tick()  # nothing much to walk yet
    c.passes = lambda: QUIET_AFTER
    assert c.tick() and runs == [clock.now]


def test_a_flood_defers_the_full_pass_until_the_longest_wait() -> None:
    clock, runs = Clock(), []
    open_now, pending = [500], [BUSY_AFTER * 5]
    c = collector(open_now, pending, clock, runs)
    for _ in range(59):  # five minutes of checks every 5 s, hundreds of connections open
        clock.now += 5
        assert not c.tick()
    clock.now += 5
    assert c.tick()  # the longest wait is up: old cycles are still freed under a flood
    clock.now += 5
    assert not c.tick()  # and the wait starts again
    open_now[0] = 2  # the flood ends
    assert c.tick() and len(runs) == 2


def test_a_busy_server_with_little_to_walk_does_not_collect() -> None:
    clock, runs = Clock(), []
    c = collector([500], [BUSY_AFTER - 1], clock, runs)
    clock.now += 3600
    assert not c.tick() and runs == []


def test_the_server_takes_full_passes_off_pythons_trigger_and_gives_them_back() -> None:
    """Started as `scorekeeper serve` starts it: Python's full-pass trigger is off, the
    collector counts the server's own connections; stopped: the thresholds are back."""
    before = gc.get_threshold()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = _Server(server_config(FastAPI(), "127.0.0.1", port, files=1024), Hub())
    seen: dict[str, object] = {}

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        seen["threshold"] = gc.get_threshold()
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.sleep(0.05)
        assert server.collector is not None
        seen["busy"] = server.collector.busy()
        writer.close()
        server.should_exit = True
        await task

    try:
        asyncio.run(run())
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    assert seen["threshold"] == (before[0], before[1], NEVER)
    assert seen["busy"] == 1  # the one connection opened above
    assert gc.get_threshold() == before
