"""Live-event load: N phones on one game, hands posted back to back, delivery latency.

Starts the real server on loopback, opens `--clients` SSE streams, posts `--hands` hands and
times each event from just before its POST is sent until each client has read it.
Prints p50/p99/max latency in ms and the server's resident memory. Target: p99 <= 200 ms.

    .venv/bin/python benchmarks/bench_events.py [--clients 100] [--hands 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from spawn import memory_kib, start_server

TOKEN = "bench-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
CARDS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]


def hand(i: int) -> dict[str, object]:
    return {"players": [{"name": "Ann", "hand": [], "went_out": True},
                        {"name": "Bob", "hand": [CARDS[i % len(CARDS)]]}]}


async def listen(client: httpx.AsyncClient, gid: int, last: int, ready: asyncio.Event,
                 arrivals: dict[int, float]) -> None:
    """Record when each event id arrives; raw bytes keep the client's own cost low."""
    buffer = b""
    async with client.stream("GET", f"/api/games/{gid}/events") as response:
        async for chunk in response.aiter_raw():
            now = time.perf_counter()
            *done, buffer = (buffer + chunk).split(b"\n\n")
            for event in done:
                if event.startswith(b"id: "):
                    seq = int(event[4:event.index(b"\n")])
                    arrivals[seq] = now
                    if seq == 0:
                        ready.set()
                    if seq >= last:
                        return


async def run(url: str, clients: int, hands: int) -> tuple[list[float], list[float], int]:
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        body = {"variant": "rummy", "players": ["Ann", "Bob"], "settings": {"target": 100_000}}
        gid = (await client.post("/api/games", json=body, headers=ADMIN)).json()["id"]
        readies = [asyncio.Event() for _ in range(clients)]
        arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
        tasks = [asyncio.create_task(listen(client, gid, hands, r, a))
                 for r, a in zip(readies, arrivals, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
        sent: dict[int, float] = {}
        posts: list[float] = []
        async with httpx.AsyncClient(base_url=url, timeout=30, headers=ADMIN) as poster:
            for i in range(1, hands + 1):
                sent[i] = time.perf_counter()
                answer = await poster.post(f"/api/games/{gid}/hands", json=hand(i))
                answer.raise_for_status()
                posts.append((time.perf_counter() - sent[i]) * 1000)
        await asyncio.wait_for(asyncio.gather(*tasks), 30)
    latencies = [(a[seq] - sent[seq]) * 1000 for a in arrivals for seq in sent if seq in a]
    missed = clients * hands - len(latencies)
    return latencies, posts, missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--hands", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp) / "bench.db", Path(tmp), TOKEN)
        try:
            began = time.perf_counter()
            latencies, posts, missed = asyncio.run(run(server.url, args.clients, args.hands))
            elapsed = time.perf_counter() - began
            memory = memory_kib(server.pid)
        finally:
            server.stop()
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    print(f"clients={args.clients} hands={args.hands} events={len(latencies)} "
          f"missed={missed} wall={elapsed:.2f}s")
    print(f"latency ms: p50={cuts[49]:.1f} p99={cuts[98]:.1f} max={max(latencies):.1f}")
    # The POST round trip includes the fsync'd commit: when it is slow, so is every event.
    print(f"POST round trip ms: p50={statistics.median(posts):.1f} max={max(posts):.1f}")
    print(f"server RSS: {memory['VmRSS'] / 1024:.1f} MiB (peak {memory['VmHWM'] / 1024:.1f} MiB)")
    print("target p99 <= 200 ms:", "met" if cuts[98] <= 200 else "MISSED")


if __name__ == "__main__":
    main()
