"""`kill -9` mid-stream loses no answered write and leaves a sound database."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.spawn import ServerProcess, start_server

TOKEN = "crash-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
CARDS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
POSTERS = 4


def hand(i: int) -> dict[str, Any]:
    """A different valid hand for each i, so a stored hand shows which post it came from."""
    left = [CARDS[i % 13], CARDS[(i // 13) % 13].replace("C", "D")]
    ann = {"name": "Ann", "hand": [], "went_out": True}
    return {"players": [ann, {"name": "Bob", "hand": left}]}


def post_until_dead(url: str, gid: int, answered: list[tuple[int, int, int]], start: int) -> None:
    """Post hands back to back; record (game, n, i) for each 201 the server answered."""
    with httpx.Client(base_url=url, headers=ADMIN, timeout=5) as client:
        i = start
        while True:
            try:
                r = client.post(f"/api/games/{gid}/hands", json=hand(i))
            except httpx.TransportError:
                return
            assert r.status_code == 201, r.text
            answered.append((gid, r.json()["n"], i))
            i += 1


def kill_mid_stream(srv: ServerProcess, games: list[int], after: int) -> list[tuple[int, int, int]]:
    answered: list[tuple[int, int, int]] = []
    threads = [
        threading.Thread(target=post_until_dead, args=(srv.url, gid, answered, 1000 * k))
        for k, gid in enumerate(games)
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while len(answered) < after and time.monotonic() < deadline:
        time.sleep(0.005)
    srv.kill()
    for t in threads:
        t.join(10)
    assert len(answered) >= after, "the server answered too few writes before the kill"
    return answered


def test_kill_9_loses_no_answered_write(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    srv = start_server(db, tmp_path, TOKEN)
    body = {"variant": "rummy", "players": ["Ann", "Bob"], "settings": {"target": 100_000}}
    games = [httpx.post(f"{srv.url}/api/games", json=body, headers=ADMIN).json()["id"]
             for _ in range(POSTERS)]
    answered: list[tuple[int, int, int]] = []
    for round_ in range(2):  # kill, restart on the same file, kill again
        answered += kill_mid_stream(srv, games, after=40 * (round_ + 1))
        srv = start_server(db, tmp_path, TOKEN)
        for gid in games:
            stored = httpx.get(f"{srv.url}/api/games/{gid}").json()
            for g, n, i in answered:
                if g == gid:
                    assert n <= len(stored["hands"]), f"answered hand {n} of game {gid} is lost"
                    assert stored["hands"][n - 1]["players"] == hand(i)["players"]
            mine = [n for g, n, _ in answered if g == gid]
            assert len(set(mine)) == len(mine)  # no answered hand number was handed out twice
            # Besides those, only the one unanswered request per kill may have committed.
            assert 0 <= len(stored["hands"]) - len(mine) <= round_ + 1
    srv.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
