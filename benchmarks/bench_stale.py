"""Stale writes (412) on a long game, and what they cost a hand on another game.

Starts the real server on loopback, plays `--hands` hands into one game through the API,
then times: a stale write on it (If-Match naming version 0: refused, 412) one after
another; a hand on another game alone; and that hand sent at the same moment as
`--stale` stale writes on the long game, `--rounds` times. Prints p50 and max in ms.
Targets: a 412 at 500 hands <= 20 ms; the other game's hand as fast under the stale
writes as alone (it waits for no replay of the long game).

    .venv/bin/python benchmarks/bench_stale.py [--hands 500] [--stale 10] [--rounds 10]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
from spawn import start_server

TOKEN = "bench-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
CARDS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
NEVER_ENDS = {"target": 100_000}  # a hand scores at most 9 here


def hand(i: int) -> dict[str, object]:
    return {"players": [{"name": "Ann", "hand": [], "went_out": True},
                        {"name": "Bob", "hand": [CARDS[i % len(CARDS)]]}]}


def new_game(client: httpx.Client) -> int:
    body = {"variant": "rummy", "players": ["Ann", "Bob"], "settings": NEVER_ENDS}
    answer = client.post("/api/games", json=body)
    answer.raise_for_status()
    return int(answer.json()["id"])


def timed(client: httpx.Client, gid: int, i: int, stale: bool) -> float:
    """One POST of a hand, in ms: stale (If-Match "0") must be a 412, else a 201."""
    headers = {"If-Match": '"0"'} if stale else {}
    began = time.perf_counter()
    answer = client.post(f"/api/games/{gid}/hands", json=hand(i), headers=headers)
    took = (time.perf_counter() - began) * 1000
    assert answer.status_code == (412 if stale else 201), answer.text
    return took


def burst(url: str, long_id: int, other: int, stale: int, i: int) -> tuple[float, list[float]]:
    """`stale` stale writes on the long game and one hand on the other, sent together."""
    gate = threading.Barrier(stale + 1)
    stale_ms: list[float] = []
    clients = [httpx.Client(base_url=url, headers=ADMIN, timeout=600) for _ in range(stale + 1)]

    def refused(client: httpx.Client) -> None:
        gate.wait()
        stale_ms.append(timed(client, long_id, i, stale=True))

    threads = [threading.Thread(target=refused, args=(c,)) for c in clients[1:]]
    for t in threads:
        t.start()
    gate.wait()
    time.sleep(0.005)  # the stale writes first: the hand arrives while they are in hand
    other_ms = timed(clients[0], other, i, stale=False)
    for t in threads:
        t.join()
    for c in clients:
        c.close()
    return other_ms, stale_ms


def summary(values: list[float]) -> str:
    return f"p50 {statistics.median(values):.1f} ms, max {max(values):.1f} ms ({len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--stale", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp) / "games.db", Path(tmp), TOKEN)
        try:
            with httpx.Client(base_url=server.url, headers=ADMIN, timeout=600) as client:
                long_id, other = new_game(client), new_game(client)
                began = time.perf_counter()
                for i in range(args.hands):
                    timed(client, long_id, i, stale=False)
                played = time.perf_counter() - began
                client.get(f"/api/games/{long_id}").raise_for_status()  # a phone loads it
                alone_stale = [timed(client, long_id, i, stale=True)
                               for i in range(args.rounds)]
                alone_other = [timed(client, other, i, stale=False)
                               for i in range(args.rounds)]
            bursts = [burst(server.url, long_id, other, args.stale, i)
                      for i in range(args.rounds)]
        finally:
            server.stop()
    print(f"{args.hands} hands played in {played:.1f} s "
          f"({played / max(args.hands, 1) * 1000:.1f} ms a hand)")
    print(f"stale write (412) on the {args.hands}-hand game, alone: {summary(alone_stale)}")
    print(f"a hand on another game, alone: {summary(alone_other)}")
    print(f"a hand on another game, sent with {args.stale} stale writes: "
          f"{summary([o for o, _ in bursts])}")
    print(f"those stale writes: {summary([s for _, ms in bursts for s in ms])}")
    p50 = statistics.median(alone_stale)
    print("target 412 <= 20 ms at 500 hands:", "met" if p50 <= 20 else "MISSED")


if __name__ == "__main__":
    main()
