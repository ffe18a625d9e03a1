"""Club night under load: thirty tables forwarding hands to one club server on PostgreSQL,
six phones per table and a few big screens on its live streams (docs/club.md, Figures).

Everything runs on this machine, in separate processes:

- PostgreSQL: a throwaway cluster (tests/pg.py, with fsync turned back on, as a real server
  runs), or `--db URL`, an empty database.
- The club server: `python -m scorekeeper serve --club-server` (uvicorn, one process), the
  tables registered through its admin route as a club admin would.
- The tables (role `tables`, one process): each table its own SQLite GameStore and the
  product's own Forwarder thread (club/forwarder.py), with its own token, outbox and
  connections. A hand is a valid rummy hand appended with `GameStore.append`, the call a
  table's POST /hands ends in. The table's HTTP front and its own phones are left out:
  what is measured starts at the table's commit, and thirty table servers on two cores
  would measure themselves rather than the club.
- The phones (role `phones`, one process of asyncio clients): `--phones` per table on the
  club's GET /api/games/{id}/events of the table's current game (moving on when it ends,
  as the club's database shows the next), and `--screens` on GET /api/club/events.

Pace: every table posts a hand every `--hand-s LO,HI` seconds, uniformly. A real evening is
120,240 (a hand every 2 to 4 minutes); compressed, 4,6 says more in a few minutes.

Delivery latency: from the table's append returning (committed) to the arrival at a phone
of the chunk holding a view with that seq or a later one (two hands in one batch are one
view), for the events committed after that phone's stream was subscribed. Every process
reads the same clock (CLOCK_MONOTONIC). Its legs: commit to the forwarder picking the event
up (its poll), and to the club's answer acknowledging it (stored at the club).

Each commit wakes the table's forwarder, as the table app's hub does; `--no-wake` leaves
it to the forwarder's 1 s poll alone, to compare (docs/club.md, Figures).

    .venv/bin/python benchmarks/club_load.py --minutes 5 --hand-s 4,6 [--no-wake] [--json FILE]

The pieces are in benchmarks/club/ (the processes' set-up, the two roles, the figures);
this file is the command, and each role process runs it again with the role's name.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from club import setup
from club.figures import club_map, figures, summary
from club.phones import Phones
from club.roles import ROLES
from club.setup import club_night, finish, seed_history
from club.system import Cpu, cpu_s, profile
from club.tables import run_tables


def run_load(args: argparse.Namespace) -> dict[str, Any]:
    with club_night(args, "club-load-") as night:
        pg, club = night.pg, night.club
        seeded = seed_history(pg.url, args.history, night.names)
        if args.history and not args.quiet:
            print(f"  {args.history} finished games at the club beforehand "
                  f"({seeded:.0f} s to make)", flush=True)
        tables = night.tables(night.tokens)
        tables.expect("ready", 120)
        phones = night.start("phones", {
            "club_url": club.url, "db_url": pg.url, "tables": night.names,
            "phones": args.phones, "screens": args.screens,
            "out": str(night.folder / "phones.result.json")})
        streams = int(phones.expect("ready", 120)["streams"])

        def parts() -> dict[str, float | None]:
            return {"club_server": cpu_s(club.pid), "postgresql": pg.cpu_s(),
                    "tables": tables.cpu_s(), "phones": phones.cpu_s()}

        before = Cpu.now(parts())
        began = time.monotonic()
        tables.send("go")
        spy = profile(args.profile, club.pid, args.minutes * 60)
        while (left := args.minutes * 60 - (time.monotonic() - began)) > 0:
            time.sleep(min(left, 30.0))
            if not args.quiet and left > 30:
                print(f"  ... {(time.monotonic() - began) / 60:.1f} min", flush=True)
        cpu = Cpu.now(parts()).since(before)
        if spy is not None:
            spy.wait(60)
        rss = club.memory_kib()[0]
        tables.send("stop")
        drained = tables.expect("done", args.drain_timeout_s + 60)
        time.sleep(2.0)  # the last views reach the phones
        phones.send("stop")
        phones.expect("done", 60)
        mapping = club_map(pg.url)
        version = pg.version()
        club.stop()
        return figures(args, tables.result(), phones.result(), mapping, drained, cpu,
                       streams, club.problems(), version, rss)


def own_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--phones", type=int, default=6, help="phones per table")
    parser.add_argument("--screens", type=int, default=4, help="big screens")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--history", type=int, default=0,
                        help="finished games at the club before the evening (a season's)")
    parser.add_argument("--no-wake", dest="wake", action="store_false",
                        help="leave each commit to the forwarder's 1 s poll alone")
    parser.add_argument("--p99-ms", type=float, default=200.0, help="the figure to pass")
    parser.add_argument("--profile", type=Path, default=None,
                        help="py-spy the club server over the run: collapsed stacks here")


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    return setup.arguments(__doc__, own_arguments, 120.0, argv)


def role_main(role: str, spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    if role == "tables":
        run_tables(spec)
    else:
        asyncio.run(Phones(spec).main())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ROLES:
        role_main(argv[0], argv[1])
        return 0
    args = arguments(argv)
    result = run_load(args)
    return finish(result, summary(result), args.json)


if __name__ == "__main__":
    sys.exit(main())
