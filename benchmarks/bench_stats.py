"""How long `GET /api/stats` takes on a table with N finished games.

The games are played through the store (fast to set up): Rummy games whose losers hold
real cards (dealt from one deck, each loser 2 to 7 of them) and Chicago games of typed
points, 2 to 4 players from a club of 12 names, each played until the rules end it. The
app then opens the database as a freshly started server would, and the request is timed
in-process (no socket): the first request (nothing cached), then `--requests` more
(p50/p99), then the first request after one hand of one game is undone (only that game
changed). The database lies in `--folder` (default: /dev/shm where there is one, so that
setting up is not a wait on the disk's syncs; the requests read no disk once warm).

    .venv/bin/python benchmarks/bench_stats.py [--games 100 300] [--requests 50] [--folder DIR]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from scorekeeper.rules.cards import RANKS, SUITS, parse_cards
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
DECK = [rank + suit for suit in SUITS for rank in RANKS]  # one deck's codes, as the rules read them


def hand(rng: random.Random, variant: str, players: list[dict[str, Any]]) -> dict[str, Any]:
    """One hand as the table enters it: the ender out, the others' points or cards."""
    standing = [p["name"] for p in players if not p.get("eliminated")]
    ender = rng.choice(standing)
    deck = rng.sample(DECK, len(DECK))
    rows: list[dict[str, Any]] = []
    for name in standing:
        if variant == "chicago":
            rows.append({"name": name, "held": 0, "knocked": True} if name == ender
                        else {"name": name, "held": rng.randint(2, 40)})
        elif name == ender:
            rows.append({"name": name, "went_out": True, "hand": []})
        else:
            k = rng.randint(2, 7)
            cards, deck = deck[:k], deck[k:]
            rows.append({"name": name, "hand": cards})
    return {"type": "hand", "players": rows}


def fill(path: Path, games: int, seed: int = 7) -> int:
    """`games` finished games in the database at `path`; the hands played in all."""
    rng = random.Random(seed)
    store = GameStore(path)
    hands = 0
    try:
        for n in range(games):
            variant = "rummy" if n % 3 else "chicago"
            gid = int(store.create(variant, rng.sample(NAMES, rng.randint(2, 4)))["id"])
            view = store.get(gid)
            while not view["game_over"]:
                view, _ = store.append(gid, hand(rng, variant, view["players"]))
                hands += 1
    finally:
        store.close()
    return hands


def timed(client: TestClient, n: int) -> list[float]:
    """`n` requests' times in ms, each checked for an answer."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        r = client.get("/api/stats")
        times.append((time.perf_counter() - start) * 1000)
        assert r.status_code == 200, r.text
    return times


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def run(games: int, requests: int, where: Path | None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-stats-", dir=where))
    try:
        measure(folder, games, requests)
    finally:
        shutil.rmtree(folder)


def measure(folder: Path, games: int, requests: int) -> None:
    hands = fill(folder / "scorekeeper.db", games)
    app = create_app(Settings(data_dir=folder, camera="none", admin_token=None), token="t")
    with TestClient(app) as client:
        first = timed(client, 1)[0]
        warm = timed(client, requests)
        answer = client.get("/api/stats").json()
        assert answer["games"] == games, answer["games"]
        r = client.delete("/api/games/1/hands/last", headers={"Authorization": "Bearer t"})
        assert r.status_code == 200, r.text
        after_undo = timed(client, 1)[0]
    print(f"{games} games, {hands} hands: first {first:.1f} ms; then p50 {p(warm, 50):.1f} "
          f"ms, p99 {p(warm, 99):.1f} ms over {requests}; after an undo {after_undo:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--requests", type=int, default=50)
    shm = Path("/dev/shm")
    parser.add_argument("--folder", type=Path, default=shm if shm.is_dir() else None)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    parse_cards(DECK)  # every code the hands use is one the rules read
    for games in args.games:
        run(games, args.requests, args.folder)


if __name__ == "__main__":
    main()
