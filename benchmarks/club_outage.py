"""Club night through outages: the club server killed with kill -9, stopped for five minutes,
and a table's network cut, while every table keeps scoring. After each, every table's events
are at the club exactly once (counted and compared event by event, in order) and the
league's standings equal a replay of the tables' own events from scratch.

The set-up is club_load.py's (benchmarks/club/): PostgreSQL (a throwaway cluster, or
`--db`), the club server as a real process, `--tables` tables (SQLite stores and the
product's forwarder threads) posting rummy hands every `--hand-s` seconds. One evening, in
order:

(a) kill -9 of the club server in play; restarted after `--down-s`, and killed again one
    second into the tables' catch-up (batches in flight), then restarted;
(b) the club server stopped (SIGTERM, as `systemctl stop`) for `--outage-s` (300), restarted;
(c) the first `--cut-tables` tables' network cut for `--cut-s`, then restored: those tables
    run in their own network namespace (`ip netns add`, a veth pair, their process started
    with `ip netns exec`), the club server listening on the veth's host side, and the cut is
    `ip link set <host side> down`: packets vanish without a reset, as when the Wi-Fi goes.
    Without root or `ip`, (c) stops the club server instead, and says so.

After each: the tables stop posting, the club must hold everything within
`--drain-timeout-s`; then the check, then play resumes.

    .venv/bin/python benchmarks/club_outage.py [--outage-s 300] [--cut-s 300] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from club import setup
from club.setup import CLUB_PLAYERS, Night, Postgres, club_night, finish

from scorekeeper.club.standings import RANKINGS, GameRecord, name_key, tables
from scorekeeper.rules import Game
from scorekeeper.rules.names import safe_json


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


class Netns:
    """A network namespace joined to this one by a veth pair: the cut tables' network."""

    def __init__(self) -> None:
        pid = os.getpid()
        self.name = f"skclub{pid}"
        self.host_if, self.ns_if = f"skc{pid}h"[:15], f"skc{pid}n"[:15]
        used = subprocess.run(["ip", "-o", "-4", "addr"], capture_output=True, text=True,
                              check=False).stdout
        third = pid % 250 + 1
        while f"10.231.{third}." in used:
            third = third % 250 + 1
        self.host_ip, self.ns_ip = f"10.231.{third}.1", f"10.231.{third}.2"
        self.made = False

    @staticmethod
    def unavailable() -> str | None:
        """Why namespaces cannot be made here, or None."""
        if os.geteuid() != 0:
            return "not root"
        if shutil.which("ip") is None:
            return "no `ip` command"
        probe = f"skprobe{os.getpid()}"
        try:
            _ip("netns", "add", probe)
            _ip("netns", "del", probe)
        except (subprocess.CalledProcessError, OSError) as exc:
            return f"`ip netns add` failed: {getattr(exc, 'stderr', '') or exc}"
        return None

    def make(self) -> None:
        _ip("netns", "add", self.name)
        self.made = True
        _ip("link", "add", self.host_if, "type", "veth", "peer", "name", self.ns_if)
        _ip("link", "set", self.ns_if, "netns", self.name)
        _ip("addr", "add", f"{self.host_ip}/30", "dev", self.host_if)
        _ip("link", "set", self.host_if, "up")
        inside = ["netns", "exec", self.name, "ip"]
        _ip(*inside, "addr", "add", f"{self.ns_ip}/30", "dev", self.ns_if)
        _ip(*inside, "link", "set", self.ns_if, "up")
        _ip(*inside, "link", "set", "lo", "up")

    @property
    def prefix(self) -> list[str]:
        return ["ip", "netns", "exec", self.name]

    def cut(self) -> None:
        _ip("link", "set", self.host_if, "down")

    def restore(self) -> None:
        _ip("link", "set", self.host_if, "up")

    def close(self) -> None:
        if self.made:
            subprocess.run(["ip", "link", "del", self.host_if], capture_output=True, check=False)
            subprocess.run(["ip", "netns", "del", self.name], capture_output=True, check=False)


# --- the check: every event once, the standings a replay -----------------------------------

@dataclass
class TableGame:
    table: str
    id: int
    variant: str
    players: list[str]
    settings: dict[str, Any] | None
    created_at: str
    events: list[dict[str, Any]]


def table_games(name: str, db: Path) -> list[TableGame]:
    """A table's games and events, read from its SQLite file (read-only: its process holds
    the file, paused)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        events: dict[int, list[dict[str, Any]]] = {}
        for gid, seq, body in conn.execute("SELECT game_id, seq, body FROM events"
                                           " ORDER BY game_id, seq"):
            found = events.setdefault(int(gid), [])
            if seq != len(found) + 1:
                raise RuntimeError(f"{name} game {gid}: seq {seq} after {len(found)}")
            found.append(safe_json(json.loads(body)))
        return [TableGame(name, int(gid), str(variant), json.loads(players),
                          json.loads(settings) or None, str(created), events.get(int(gid), []))
                for gid, variant, players, settings, created in conn.execute(
                    "SELECT id, variant, players, settings, created_at FROM games ORDER BY id")]
    finally:
        conn.close()


def replay_standings(games: list[TableGame], ranking: str) -> list[dict[str, Any]]:
    """The standings of every game, each replayed from its events with the rules, from
    scratch: what the club's must equal."""
    records = []
    for n, game in enumerate(games, start=1):
        played = Game(game.variant, game.players, game.settings)
        for event in game.events:
            played.apply(event)
        records.append(GameRecord.of({"id": n, "variant": game.variant,
                                      "created_at": game.created_at, **played.snapshot()}))
    club = {name_key(name): name for name in CLUB_PLAYERS}
    return [t.as_dict() for t in tables(records, club, ranking)]


def check(pg: Postgres, club_url: str, folder: Path, names: list[str]) -> dict[str, Any]:
    """Every table's events at the club once, in order, the same; the standings a replay."""
    import psycopg

    games = [g for name in names for g in table_games(name, folder / name / "table.db")]
    with psycopg.connect(pg.url, autocommit=True) as conn:
        mapped = {(str(t), int(tg)): int(g) for t, tg, g in conn.execute(
            "SELECT t.name, c.table_game_id, c.game_id FROM club_games c"
            " JOIN club_tables t ON t.id = c.table_id")}
        club_events: dict[int, list[dict[str, Any]]] = {}
        for gid, body in conn.execute("SELECT game_id, body FROM events ORDER BY game_id, seq"):
            club_events.setdefault(int(gid), []).append(json.loads(body))
        row = conn.execute("SELECT COUNT(*) FROM games WHERE id NOT IN"
                           " (SELECT game_id FROM club_games)").fetchone()
        orphans = int(row[0]) if row else -1
    table_events = sum(len(g.events) for g in games)
    same = missing = differing = 0
    unmapped = 0
    for game in games:
        gid = mapped.get((game.table, game.id))
        if gid is None:
            unmapped += 1
            missing += len(game.events)
            continue
        theirs = club_events.get(gid, [])
        for n, event in enumerate(game.events):
            if n >= len(theirs):
                missing += 1
            elif theirs[n] == event:
                same += 1
            else:
                differing += 1
    club_total = sum(len(e) for e in club_events.values())
    standings_equal = {}
    for ranking in RANKINGS:
        r = httpx.get(f"{club_url}/api/club/standings",
                      params={"season": "all", "ranking": ranking}, timeout=30)
        r.raise_for_status()
        standings_equal[ranking] = r.json()["tables"] == replay_standings(games, ranking)
    finished = sum(1 for g in games if g.events and _over(g))
    ok = (same == table_events == club_total and missing == differing == unmapped == orphans
          == 0 and len(mapped) == len(games) and all(standings_equal.values()))
    return {"ok": ok, "table_events": table_events, "club_events": club_total,
            "same": same, "missing": missing, "differing": differing,
            "extra": club_total - same - differing, "games": len(games),
            "club_games_mapped": len(mapped), "unmapped": unmapped, "orphan_club_games": orphans,
            "finished_games": finished, "standings_equal": standings_equal}


def _over(game: TableGame) -> bool:
    played = Game(game.variant, game.players, game.settings)
    for event in game.events:
        played.apply(event)
    return bool(played.snapshot().get("game_over"))


# --- the evening ------------------------------------------------------------------------------

class Evening:
    """The club server, the tables' processes, and the scenarios played on them."""

    def __init__(self, night: Night) -> None:
        self.args, self.pg, self.club, self.roles = night.args, night.pg, night.club, night.roles
        self.names, self.folder = night.names, night.folder

    def status(self) -> dict[str, Any]:
        found = []
        for role in self.roles:
            role.send("status")
            found.append(role.expect("status", 60))
        warnings: Counter[str] = Counter()
        for s in found:
            warnings.update(s["warnings"])
        return {"hands": sum(s["hands"] for s in found), "warnings": warnings,
                "pending_events": sum(s["pending_events"] for s in found),
                "refused": sum(s["refused"] for s in found),
                "connected": sum(s["connected"] for s in found),
                "per_table": {k: v for s in found for k, v in s["per_table"].items()}}

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(f"  [{time.strftime('%H:%M:%S')}] {text}", flush=True)

    def catch_up(self, since: float) -> float | None:
        """Seconds from `since` until the backlog was sent (at most one event a table
        pending, as in play), or None if it was not within the drain timeout."""
        while time.monotonic() - since < self.args.drain_timeout_s:
            if self.status()["pending_events"] <= len(self.names):
                return round(time.monotonic() - since, 1)
            time.sleep(0.5)
        return None

    def settle(self, label: str, what: str, facts: dict[str, Any]) -> dict[str, Any]:
        """Play `--after-s` more, stop posting, wait for the club to hold everything, check."""
        self.say(f"{label}: playing on {self.args.after_s:g} s")
        time.sleep(self.args.after_s)
        drained = []
        for role in self.roles:
            role.send("pause")
        for role in self.roles:
            drained.append(role.expect("drained", self.args.drain_timeout_s + 60))
        found = check(self.pg, self.club.url, self.folder, self.names)
        problems = [p for p in self.club.problems() if "Traceback" in p]
        result = {"scenario": label, "what": what, **facts,
                  "drained": all(d["ok"] for d in drained),
                  "drain_s": max(d["drain_s"] for d in drained), **found,
                  "club_tracebacks": len(problems)}
        result["ok"] = bool(found["ok"] and result["drained"] and not problems)
        self.say(line(result))
        for role in self.roles:
            role.send("resume")
        return result

    def recovered(self, label: str, what: str, before: dict[str, Any], down: float,
                  back: float, then: dict[str, Any], backlog: int, **facts: Any
                  ) -> dict[str, Any]:
        """The club away from `down` to `back` (monotonic seconds): wait for the tables'
        backlog (`backlog` events at `back`, `then` their status), then `settle`. `before`
        is their status as the outage began."""
        cleared = self.catch_up(back)
        facts = {"down_s": round(back - down, 1),
                 "hands_meanwhile": then["hands"] - before["hands"],
                 "backlog_at_restart": backlog, **facts, "caught_up_s": cleared,
                 "forwarder_warnings": dict(self.status()["warnings"] - before["warnings"])}
        return self.settle(label, what, facts)

    def restart(self, label: str, what: str, before: dict[str, Any], down: float
                ) -> dict[str, Any]:
        """The club server started again after being down since `down`, then `recovered`."""
        then = self.status()
        back = time.monotonic()
        self.club.start()
        return self.recovered(label, what, before, down, back, then, then["pending_events"])

    def kill(self) -> dict[str, Any]:
        self.say("(a) kill -9 of the club server")
        before = self.status()
        self.club.kill()
        down = time.monotonic()
        time.sleep(self.args.down_s)
        self.club.start()
        time.sleep(1.0)  # the tables are catching up: batches are in flight
        self.club.kill()
        self.say("(a) killed again 1 s into the catch-up")
        time.sleep(2.0)
        return self.restart("a", "club server killed with kill -9 in play, restarted, killed "
                                 "again 1 s into the catch-up, restarted", before, down)

    def stop(self, seconds: float, label: str = "b", what: str | None = None
             ) -> dict[str, Any]:
        self.say(f"({label}) club server stopped for {seconds:g} s")
        before = self.status()
        self.club.stop()
        down = time.monotonic()
        time.sleep(seconds)
        return self.restart(label, what or f"club server stopped (SIGTERM) for {seconds:g} s "
                                           f"while the tables scored, then restarted",
                            before, down)

    def cut(self, ns: Netns, cut: list[str]) -> dict[str, Any]:
        seconds = self.args.cut_s
        self.say(f"(c) network of {', '.join(cut)} cut for {seconds:g} s")
        before = self.status()
        ns.cut()
        down = time.monotonic()
        time.sleep(seconds)
        then = self.status()
        cut_pending = sum(then["per_table"][n] for n in cut)
        ns.restore()
        back = time.monotonic()
        return self.recovered(
            "c", f"network of {len(cut)} table(s) cut for {seconds:g} s (their own network "
                 f"namespace, the veth link down), then restored, while every table scored",
            before, down, back, then, cut_pending,
            others_pending_at_restore=then["pending_events"] - cut_pending, cut_tables=cut)


def line(r: dict[str, Any]) -> str:
    rules = r["standings_equal"]
    equal = "yes" if all(rules.values()) else \
        "NO (" + ", ".join(k for k, v in rules.items() if not v) + ")"
    caught = "not within the timeout" if r["caught_up_s"] is None else f"{r['caught_up_s']} s"
    others = "" if "others_pending_at_restore" not in r else \
        f" (the other tables' then: {r['others_pending_at_restore']})"
    return (f"({r['scenario']}) {r['what']}: down {r['down_s']} s, {r['hands_meanwhile']} "
            f"hands scored meanwhile, {r['backlog_at_restart']} events waiting at the "
            f"restart{others}, sent within {caught}; at the club: {r['same']} of "
            f"{r['table_events']} "
            f"events, once, in order ({r['missing']} missing, {r['differing']} differing, "
            f"{r['extra']} extra, {r['orphan_club_games']} duplicate games), {r['games']} "
            f"games; standings = replay from scratch: {equal} ({len(rules)} rules, "
            f"{r['finished_games']} finished games): {'PASS' if r['ok'] else 'FAIL'}")


def run_outage(args: argparse.Namespace) -> dict[str, Any]:
    why_not = "--no-netns" if args.no_netns else Netns.unavailable()
    ns = None if why_not else Netns()
    try:
        if ns is not None:
            ns.make()
        with club_night(args, "club-outage-", ns.host_ip if ns else "127.0.0.1") as night:
            cut = night.names[:args.cut_tables] if ns else []
            night.tables({n: t for n, t in night.tokens.items() if n not in cut},
                         seed=args.seed)
            if cut:
                night.tables({n: night.tokens[n] for n in cut}, label="tables-cut",
                             seed=args.seed + 1, prefix=ns.prefix if ns else None)
            for role in night.roles:
                role.expect("ready", 120)
            evening = Evening(night)
            began = time.monotonic()
            for role in night.roles:
                role.send("go")
            evening.say(f"{args.tables} tables playing; warming up {args.warm_s:g} s")
            time.sleep(args.warm_s)
            results = [evening.kill(), evening.stop(args.outage_s)]
            if ns is not None:
                results.append(evening.cut(ns, cut))
            else:
                results.append(evening.stop(
                    args.cut_s, "c", f"no network namespace here ({why_not}): the club server "
                                     f"stopped for {args.cut_s:g} s instead of a cut network"))
            for role in night.roles:
                role.send("stop")
            for role in night.roles:
                role.expect("done", args.drain_timeout_s + 60)
            version = night.pg.version()
            night.club.stop()
            lo, hi = args.hand_s
            return {"tables": args.tables, "hand_s": [lo, hi], "postgresql": version,
                    "cores": os.cpu_count(), "netns": why_not is None,
                    "minutes": round((time.monotonic() - began) / 60, 1),
                    "retry_max_s": args.retry_max_s, "scenarios": results,
                    "ok": all(r["ok"] for r in results)}
    finally:
        if ns is not None:
            ns.close()


def summary(result: dict[str, Any]) -> str:
    lo, hi = result["hand_s"]
    lines = [f"club_outage: {result['tables']} tables, a hand every {lo:g}-{hi:g} s per table, "
             f"PostgreSQL {result['postgresql']}, {result['cores']} cores, forwarder back-off "
             f"up to {result['retry_max_s']:g} s, {result['minutes']} min of play"]
    for r in result["scenarios"]:
        lines.append("  " + line(r))
        seen = ", ".join(f"{n} x {k}" for k, n in sorted(r["forwarder_warnings"].items(),
                                                       key=lambda kv: -kv[1]))
        lines.append(f"      the tables' forwarders said: {seen or 'nothing'}")
    lines.append("  PASS" if result["ok"] else "  FAIL")
    return "\n".join(lines)


def own_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--warm-s", type=float, default=60.0, help="play before (a)")
    parser.add_argument("--down-s", type=float, default=20.0, help="(a): down after the kill")
    parser.add_argument("--outage-s", type=float, default=300.0, help="(b): the club stopped")
    parser.add_argument("--cut-s", type=float, default=300.0, help="(c): the network cut")
    parser.add_argument("--cut-tables", type=int, default=1, help="(c): tables cut off")
    parser.add_argument("--after-s", type=float, default=30.0,
                        help="play after each recovery, before the check")
    parser.add_argument("--no-netns", action="store_true",
                        help="(c) stops the club server instead of cutting a network")
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 16))


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    args = setup.arguments(__doc__, own_arguments, 180.0, argv)
    args.wake = False  # the product as shipped
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    result = run_outage(args)
    return finish(result, summary(result), args.json)


if __name__ == "__main__":
    sys.exit(main())
