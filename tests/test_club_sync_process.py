"""Club night with real servers: tables forwarding over HTTP to a club server that is
away, killed with kill -9, or cut off by the network, and a table killed mid-forward.
Afterwards every table event is at the club exactly once, in order (counted).

`CLUB_OUTAGE_S` sets how long the club stays away in the outage test (docs/club.md's
5-minute figure: CLUB_OUTAGE_S=300).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_club_sync_helpers import TARGET, assert_same_games, hand

from benchmarks.spawn import ServerProcess, free_port
from scorekeeper.club.tables import Tables
from scorekeeper.store import GameStore
from scorekeeper.store.opener import open_database

ADMIN = {"Authorization": "Bearer admin"}
OUTAGE_S = float(os.environ.get("CLUB_OUTAGE_S", "3"))
TABLE_ENV = {"SCOREKEEPER_CLUB_RETRY_MAX_S": "0.5", "SCOREKEEPER_CLUB_TIMEOUT_S": "1"}


@pytest.fixture(params=["sqlite", "postgresql"])
def club_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "club" / "club.db")
    return str(request.getfixturevalue("pg_url"))


def spawn(data_dir: Path, port: int, env: dict[str, str]) -> ServerProcess:
    """`python -m scorekeeper.web` on 127.0.0.1:`port`, once its health answers."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"server-{port}-{time.monotonic_ns()}.log"
    full = {**os.environ, "SCOREKEEPER_DATA_DIR": str(data_dir),
            "SCOREKEEPER_ADMIN_TOKEN": "admin", "SCOREKEEPER_CAMERA": "none", **env}
    cmd = [sys.executable, "-m", "scorekeeper.web", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=full, stdout=out, stderr=subprocess.STDOUT)
    server = ServerProcess(proc, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{server.url}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    server.stop()
    raise RuntimeError(f"server did not answer:\n{log.read_text()}")


def club_server(tmp_path: Path, db: str, port: int) -> ServerProcess:
    return spawn(tmp_path / "club", port, {"SCOREKEEPER_DB": db,
                                          "SCOREKEEPER_CLUB_SERVER": "true"})


def table_server(tmp_path: Path, name: str, token: str, club_url: str) -> ServerProcess:
    return spawn(tmp_path / name, free_port(), {
        **TABLE_ENV, "SCOREKEEPER_DB": str(tmp_path / name / "table.db"),
        "SCOREKEEPER_CLUB_URL": club_url, "SCOREKEEPER_CLUB_TOKEN": token})


def register(db: str, *names: str) -> list[str]:
    """The tables' tokens, registered straight in the club's database (the club may be
    away: that is the point)."""
    database = open_database(db if db.startswith("postgresql") else Path(db))
    try:
        tables = Tables(database)
        return [tables.add(name) for name in names]
    finally:
        database.close()


def new_game(table: ServerProcess) -> int:
    body = {"variant": "rummy", "players": ["Ann", "Bob"], "settings": TARGET}
    r = httpx.post(f"{table.url}/api/games", json=body, headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def post_hand(client: httpx.Client, gid: int, i: int) -> None:
    r = client.post(f"/api/games/{gid}/hands", json={"players": hand(i)["players"]})
    assert r.status_code == 201, r.text


def club_health(table: ServerProcess) -> dict[str, Any]:
    health: dict[str, Any] = httpx.get(f"{table.url}/api/health", timeout=5).json()["club"]
    return health


def wait_for(what: str, test: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def took_a_batch(table: ServerProcess) -> Callable[[], bool]:
    """Whether the club has acknowledged a batch since this was called."""
    before = club_health(table)["last_success"]
    return lambda: club_health(table)["last_success"] not in (None, before)


def all_sent(*tables: ServerProcess) -> Callable[[], bool]:
    return lambda: all(club_health(t)["pending_events"] == 0 for t in tables)


def compare(tmp_path: Path, db: str, names: list[str], games: dict[str, list[int]]) -> int:
    """With every server stopped: each table's games are at the club exactly once; the
    number of events compared."""
    club = GameStore(db if db.startswith("postgresql") else Path(db))
    try:
        total = 0
        for name in names:
            table = GameStore(tmp_path / name / "table.db")
            try:
                total += assert_same_games(table, club, name, games[name])
            finally:
                table.close()
        return total
    finally:
        club.close()


class Posters:
    """Threads posting hands to a table's games back to back until stopped."""

    def __init__(self, table: ServerProcess, games: list[int]) -> None:
        self.stop = threading.Event()
        self.count = 0
        self.threads = [threading.Thread(target=self._post, args=(table.url, gid, 1000 * k))
                        for k, gid in enumerate(games)]
        for t in self.threads:
            t.start()

    def _post(self, url: str, gid: int, start: int) -> None:
        with httpx.Client(base_url=url, headers=ADMIN, timeout=10) as client:
            i = start
            while not self.stop.is_set():
                post_hand(client, gid, i)
                self.count += 1
                i += 1
                time.sleep(0.01)

    def join(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(20)


def test_the_club_stopped_mid_evening_gets_every_event_once(
        tmp_path: Path, club_db: str) -> None:
    names = ["table-1", "table-2"]
    tokens = register(club_db, *names)
    port = free_port()
    club = club_server(tmp_path, club_db, port)
    tables = [table_server(tmp_path, n, t, f"http://127.0.0.1:{port}")
              for n, t in zip(names, tokens, strict=True)]

    def play(hands: range) -> None:
        for name, table in zip(names, tables, strict=True):
            with httpx.Client(base_url=table.url, headers=ADMIN) as client:
                for i in hands:
                    for gid in games[name]:
                        post_hand(client, gid, i)

    try:
        games = {name: [new_game(table) for _ in range(3)]
                 for name, table in zip(names, tables, strict=True)}
        play(range(4))
        wait_for("the club to have the first hands", all_sent(*tables))
        club.stop()  # mid-evening: the club server stops, the tables play on
        away = time.monotonic()
        play(range(4, 12))
        time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - away)))
        for table in tables:
            health = club_health(table)
            assert health["connected"] is False and health["pending_events"] == 24
            assert "cannot be reached" in health["last_error"]
        club = club_server(tmp_path, club_db, port)
        wait_for("the tables to catch up", all_sent(*tables))
        assert all(club_health(t)["connected"] for t in tables)
    finally:
        for server in [*tables, club]:
            server.stop()
    assert compare(tmp_path, club_db, names, games) == 2 * 36
    print(f"club away {OUTAGE_S:g} s mid-evening: 2 tables, 72 of 72 events at the club "
          f"once, in order")


def test_kill_9_of_the_club_mid_sync_loses_and_doubles_nothing(
        tmp_path: Path, club_db: str) -> None:
    [token] = register(club_db, "table-1")
    port = free_port()
    club = club_server(tmp_path, club_db, port)
    table = table_server(tmp_path, "table-1", token, f"http://127.0.0.1:{port}")
    try:
        games = [new_game(table) for _ in range(3)]
        posters = Posters(table, games)
        for _ in range(2):  # kill mid-stream, keep scoring while it is dead, restart
            wait_for("the club to take a batch", took_a_batch(table))
            time.sleep(0.5)
            club.kill()
            before = posters.count
            time.sleep(1.0)
            assert posters.count > before, "the table stopped scoring without its club"
            assert club_health(table)["connected"] is False
            club = club_server(tmp_path, club_db, port)
        posters.join()
        wait_for("the table to catch up", all_sent(table))
    finally:
        table.stop()
        club.stop()
    assert compare(tmp_path, club_db, ["table-1"], {"table-1": games}) == posters.count
    print(f"club killed twice: {posters.count} of {posters.count} events at the club once")


def test_kill_9_of_a_table_mid_forward_resumes_without_doubles(
        tmp_path: Path, club_db: str) -> None:
    [token] = register(club_db, "table-1")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    table = table_server(tmp_path, "table-1", token, url)  # club away: a backlog builds
    games = [new_game(table) for _ in range(4)]
    with httpx.Client(base_url=table.url, headers=ADMIN) as client:
        for i in range(100):
            for gid in games:
                post_hand(client, gid, i)
    club = club_server(tmp_path, club_db, port)
    try:
        wait_for("forwarding to start", lambda: club_health(table)["pending_events"] < 400)
        table.kill()
        table = table_server(tmp_path, "table-1", token, url)
        wait_for("the table to catch up", all_sent(table))
    finally:
        table.stop()
        club.stop()
    assert compare(tmp_path, club_db, ["table-1"], {"table-1": games}) == 400


class Wire:
    """A TCP relay standing for the Wi-Fi: `cut` drops every connection and then swallows
    new ones without a word (as a dead network does), `restore` relays again."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.up = True
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.conns.append(conn)
            if not self.up:
                continue  # held open, never answered
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.conns.append(upstream)
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up = False
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self.conns.clear()

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


def sse_seqs(url: str, gid: int, want: int, timeout: float = 10) -> list[int]:
    """The seqs the table's live stream sends until it reaches `want`."""
    seen: list[int] = []
    with httpx.stream("GET", f"{url}/api/games/{gid}/events", timeout=timeout) as r:
        for line in r.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["seq"])
                if seen[-1] >= want:
                    return seen
    return seen


def test_a_table_cut_off_keeps_scoring_live_and_catches_up(
        tmp_path: Path, club_db: str) -> None:
    [token] = register(club_db, "table-1")
    club = club_server(tmp_path, club_db, free_port())
    wire = Wire(int(club.url.rpartition(":")[2]))
    table = table_server(tmp_path, "table-1", token, f"http://127.0.0.1:{wire.port}")
    try:
        games = [new_game(table) for _ in range(2)]
        with httpx.Client(base_url=table.url, headers=ADMIN) as client:
            post_hand(client, games[0], 0)
            wait_for("the club to have the first hand", all_sent(table))
            wire.cut()
            for i in range(1, 10):
                for gid in games:
                    post_hand(client, gid, i)
            # the phones' live stream follows the game as ever, the club gone
            streamed: list[int] = []
            reader = threading.Thread(target=lambda: streamed.extend(
                sse_seqs(table.url, games[0], 11)))
            reader.start()
            time.sleep(0.5)
            post_hand(client, games[0], 10)
            reader.join(15)
            assert streamed[0] == 10 and streamed[-1] == 11
            wait_for("the table to notice", lambda: not club_health(table)["connected"])
            assert club_health(table)["pending_events"] == 19
            wire.restore()
            wait_for("the table to catch up", all_sent(table))
    finally:
        table.stop()
        club.stop()
        wire.close()
    assert compare(tmp_path, club_db, ["table-1"], {"table-1": games}) == 20
