"""The processes of a club night, as club_load.py and club_outage.py set them up:
PostgreSQL (a throwaway cluster, tests/pg.py, with fsync on as a real server runs it, or
`--db URL`), the club server (`python -m scorekeeper serve --club-server`, restartable on
its address), the tables registered through its admin route, and the options both
commands take."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import parse_qs, urlsplit

import httpx
from spawn import Restartable, free_port

from club.roles import Role
from club.system import tree_cpu_s
from scorekeeper.store import GameStore

BENCHMARKS = Path(__file__).resolve().parent.parent
ROOT = BENCHMARKS.parent
ADMIN = "club-bench-admin"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]
PLAYERS = [f"Player {i:02d}" for i in range(1, 61)]
CLUB_PLAYERS = PLAYERS[:45]  # on the club's list; the other 15 play as guests
EVENING = (120.0, 240.0)
COMPRESSED = (4.0, 6.0)


def deal(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A valid rummy hand: one player goes out, the others hold 1 to 4 cards of one deck."""
    deck = DECK[:]
    rng.shuffle(deck)
    out = rng.choice(players)
    hands: list[dict[str, Any]] = []
    for name in players:
        if name == out:
            hands.append({"name": name, "hand": [], "went_out": True})
        else:
            hands.append({"name": name, "hand": [deck.pop() for _ in range(rng.randint(1, 4))]})
    return {"type": "hand", "players": hands}


def table_names(count: int) -> list[str]:
    return [f"table-{i:02d}" for i in range(1, count + 1)]


# --- PostgreSQL -------------------------------------------------------------------------------

@dataclass
class Postgres:
    """The club's database, and where its server's processes are (for their CPU)."""

    url: str
    postmaster: int | None

    def version(self) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            row = conn.execute("SHOW server_version").fetchone()
        return str(row[0]).split()[0] if row else "?"

    def cpu_s(self) -> float | None:
        """The server's CPU seconds: the postmaster, its backends, and those that ended."""
        return None if self.postmaster is None else tree_cpu_s(self.postmaster)


def _postmaster(url: str) -> int | None:
    """The postmaster of a tests/pg.py cluster (its socket folder holds data/), else None."""
    hosts = parse_qs(urlsplit(url).query).get("host", [])
    try:
        first = (Path(hosts[0]) / "data" / "postmaster.pid").read_text().split()[0]
        return int(first)
    except (IndexError, OSError, ValueError):
        return None


@contextlib.contextmanager
def postgres(url: str | None) -> Iterator[Postgres]:
    """`url`, or a throwaway cluster (tests/pg.py) with a fresh database, fsync on."""
    if url:
        yield Postgres(url, _postmaster(url))
        return
    sys.path.insert(0, str(ROOT / "tests"))
    import pg  # tests/pg.py
    import psycopg

    with pg.local_server() as server:
        # tests/pg.py turns fsync off for speed; a club's server has it on, so this does too
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET fsync = on")
            conn.execute("ALTER SYSTEM SET full_page_writes = on")
            conn.execute("SELECT pg_reload_conf()")
        yield Postgres(pg.fresh_database(server), _postmaster(server))


# --- the club server ----------------------------------------------------------------------------

class ClubServer(Restartable):
    """`python -m scorekeeper serve --club-server` on a fixed address, restartable there."""

    stop_wait_s = 15.0

    def __init__(self, db_url: str, folder: Path, host: str = "127.0.0.1",
                 port: int | None = None) -> None:
        self.db_url, self.folder, self.host = db_url, folder, host
        self.port = port or free_port()
        self.starts = 0
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def log(self) -> Path:
        return self.folder / "club-server.log"

    def start(self, timeout: float = 60.0) -> float:
        """Start it and wait for its health; the seconds that took."""
        env = {**os.environ, "SCOREKEEPER_ADMIN_TOKEN": ADMIN,
               "SCOREKEEPER_DATA_DIR": str(self.folder / "data"), "SCOREKEEPER_CAMERA": "none"}
        cmd = [sys.executable, "-m", "scorekeeper", "serve", "--club-server", "--db",
               self.db_url, "--host", self.host, "--port", str(self.port), "--camera", "none"]
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"\n=== start {self.starts} ===\n".encode())
        return self.launch(cmd, env, self.log, timeout)

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        r = httpx.request(method, self.url + path, json=body, timeout=30,
                          headers={"Authorization": f"Bearer {ADMIN}"})
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    def problems(self) -> list[str]:
        """The log's lines that say something went wrong (tracebacks, errors, 5xx)."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(errors="replace").splitlines()
        return [ln for ln in lines if "Traceback" in ln or " ERROR" in ln or "ERROR:" in ln
                or '" 5' in ln]


def register(club: ClubServer, names: list[str]) -> dict[str, str]:
    """Register the tables through the club's admin route; their tokens by name. The club's
    player list too (PLAYERS beyond it play as guests)."""
    tokens = {name: str(club.admin("POST", "/api/club/tables", {"name": name})["token"])
              for name in names}
    club.admin("POST", "/api/club/players", {"names": CLUB_PLAYERS})
    return tokens


def seed_history(db_url: str, games: int, names: list[str]) -> float:
    """`games` finished games already at the club, as from earlier evenings, spread over
    the tables (linked as theirs, dated in the past): what the big screen and the standings
    read on every build. The seconds that took."""
    if games <= 0:
        return 0.0
    began = time.monotonic()
    rng = random.Random(7)
    store = GameStore(db_url)
    try:
        with store.database.read() as tx:
            ids = {str(n): int(i) for i, n in tx.fetchall("SELECT id, name FROM club_tables")}
        for n in range(games):
            players = rng.sample(PLAYERS, rng.randint(2, 4))
            game = int(store.create("rummy", players, {"target": 150})["id"])
            while not store.append(game, deal(rng, players))[0].get("game_over"):
                pass
            day = f"2026-{1 + n * 10 // games:02d}-{1 + n % 28:02d}T20:00:00+00:00"
            with store.database.transaction() as tx:
                tx.execute("INSERT INTO club_games (table_id, table_game_id, game_id,"
                           " created_at) VALUES (?, ?, ?, ?)",
                           (ids[names[n % len(names)]], 1_000_000 + n, game, day))
    finally:
        store.close()
    return time.monotonic() - began


# --- one night: the folder, the database, the club server, the roles -----------------------

@dataclass
class Night:
    """A run's club, set up: its folder, database and server, the tables registered, and the
    role processes started on it (closed when the night ends)."""

    args: argparse.Namespace
    folder: Path
    pg: Postgres
    club: ClubServer
    names: list[str]
    tokens: dict[str, str]
    roles: list[Role] = field(default_factory=list)

    def tables(self, tokens: dict[str, str], label: str = "tables", seed: int = 1,
               prefix: list[str] | None = None) -> Role:
        """A `tables` role playing the tables of `tokens` (run under `prefix`, if any)."""
        a = self.args
        spec = {"label": label, "club_url": self.club.url, "wake": a.wake, "hand_s": a.hand_s,
                "target": a.target, "seed": seed, "retry_max_s": a.retry_max_s,
                "timeout_s": a.timeout_s, "drain_timeout_s": a.drain_timeout_s,
                "out": str(self.folder / f"{label}.result.json"),
                "tables": [{"name": n, "token": t, "dir": str(self.folder / n)}
                           for n, t in tokens.items()]}
        return self.start("tables", spec, prefix)

    def start(self, role: str, spec: dict[str, Any], prefix: list[str] | None = None) -> Role:
        started = Role(role, spec, self.folder, prefix)
        self.roles.append(started)
        return started


@contextlib.contextmanager
def club_night(args: argparse.Namespace, prefix: str, host: str = "127.0.0.1"
               ) -> Iterator[Night]:
    """PostgreSQL, the club server on `host` and `args.tables` tables registered there, in a
    new folder (kept with `--keep`); the roles closed and the server stopped at the end."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    names = table_names(args.tables)
    roles: list[Role] = []
    club: ClubServer | None = None
    try:
        with postgres(args.db) as pg:
            club = ClubServer(pg.url, folder / "club", host=host)
            club.start()
            yield Night(args, folder, pg, club, names, register(club, names), roles)
    finally:
        for role in roles:
            role.close()
        if club is not None:
            club.stop()
        if args.keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


# --- the commands' options and ending ------------------------------------------------------

def parse_pace(text: str) -> tuple[float, float]:
    """`LO,HI` seconds, or `evening` / `compressed`."""
    presets = {"evening": EVENING, "compressed": COMPRESSED}
    if text in presets:
        return presets[text]
    lo, _, hi = text.partition(",")
    low, high = float(lo), float(hi or lo)
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"--hand-s LO,HI with 0 < LO <= HI, got {text!r}")
    return low, high


def arguments(doc: str, add: Callable[[argparse.ArgumentParser], None],
              drain_timeout_s: float, argv: list[str] | None) -> argparse.Namespace:
    """The options of a club benchmark: those every one takes, and those `add` adds."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="an empty PostgreSQL database's URL "
                        "(default: a throwaway cluster, tests/pg.py)")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--hand-s", type=parse_pace, default=COMPRESSED,
                        help="LO,HI seconds between a table's hands, or evening (120,240) or "
                             "compressed (4,6, the default)")
    parser.add_argument("--target", type=int, default=150, help="the rummy games' target")
    add(parser)
    parser.add_argument("--retry-max-s", type=float, default=30.0,
                        help="the forwarders' longest back-off (the product's default: 30)")
    parser.add_argument("--timeout-s", type=float, default=10.0,
                        help="the forwarders' request timeout (the product's default: 10)")
    parser.add_argument("--drain-timeout-s", type=float, default=drain_timeout_s)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder and logs")
    parser.add_argument("--quiet", action="store_true")
    return parser.parse_args(argv)


def write_json(path: Path | None, result: dict[str, Any], out: TextIO = sys.stdout) -> None:
    if path is not None:
        path.write_text(json.dumps(result, indent=1) + "\n")
        out.write(f"figures written to {path}\n")


def finish(result: dict[str, Any], summary: str, path: Path | None) -> int:
    """Print the summary, write the figures to `path` (if any); the exit status."""
    print(summary)
    write_json(path, result)
    return 0 if result["ok"] else 1
