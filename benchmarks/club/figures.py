"""club_load's figures, joined from the roles' records: delivery to the phones and the big
screens from the table's commit, its legs, what reached the club, the errors, the CPU;
and the summary printed from them."""

from __future__ import annotations

import argparse
import bisect
import math
import os
from typing import Any


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p95, p99 (nearest rank) and max, in milliseconds; None when there are none."""
    ordered = sorted(values)

    def rank(q: float) -> float | None:
        if not ordered:
            return None
        return round(1000 * ordered[max(0, math.ceil(q * len(ordered)) - 1)], 1)

    return {"n": len(ordered), "p50": rank(0.50), "p95": rank(0.95), "p99": rank(0.99),
            "max": rank(1.0)}


def shown_ms(stats: dict[str, Any]) -> str:
    if not stats.get("n"):
        return "none measured"
    return (f"p50 {stats['p50']:.0f} ms, p95 {stats['p95']:.0f}, p99 {stats['p99']:.0f}, "
            f"max {stats['max']:.0f} (n={stats['n']})")


def club_map(db_url: str) -> dict[tuple[str, int], tuple[int, int]]:
    """(table, table game) → (club game, events the club holds of it)."""
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        rows = conn.execute("SELECT t.name, c.table_game_id, c.game_id, g.seq FROM club_games c"
                            " JOIN club_tables t ON t.id = c.table_id"
                            " JOIN games g ON g.id = c.game_id").fetchall()
    return {(str(t), int(tg)): (int(g), int(s)) for t, tg, g, s in rows}


def delivery(commits: list[list[Any]], mapping: dict[tuple[str, int], tuple[int, int]],
             subs: list[dict[str, Any]]) -> tuple[list[float], int, int]:
    """(latencies in s, events missed by a phone that was subscribed, events measured)."""
    by_game: dict[int, list[tuple[int, float]]] = {}
    for table, tgid, seq, committed, *_ in commits:
        club = mapping.get((table, tgid))
        if club is not None:
            by_game.setdefault(club[0], []).append((seq, committed))
    latencies: list[float] = []
    missed = 0
    events: set[tuple[int, int]] = set()
    for sub in subs:
        if sub["ready"] is None:
            continue
        seqs = [s for s, _ in sub["arrivals"]]
        for seq, committed in by_game.get(sub["game"], []):
            if committed <= sub["ready"] or (sub["error"] and committed >= sub["ended"]):
                continue
            at = bisect.bisect_left(seqs, seq)
            if at == len(seqs):
                missed += sub["error"] is None
                continue
            latencies.append(sub["arrivals"][at][1] - committed)
            events.add((sub["game"], seq))
    return latencies, missed, len(events)


def screen_delivery(commits: list[list[Any]], mapping: dict[tuple[str, int], tuple[int, int]],
                    screens: list[dict[str, Any]]) -> list[float]:
    """Commit to the big screen showing that seq (or a later one) of the table's game."""
    latencies: list[float] = []
    for screen in screens:
        if screen["ready"] is None:
            continue
        shown: dict[int, list[tuple[int, float]]] = {}
        for _table, game, seq, arrived in screen["changes"]:
            shown.setdefault(game, []).append((seq, arrived))
        for table, tgid, seq, committed, *_ in commits:
            club = mapping.get((table, tgid))
            if club is None or committed <= screen["ready"]:
                continue
            rows = shown.get(club[0], [])
            at = bisect.bisect_left([s for s, _ in rows], seq)
            if at < len(rows):
                latencies.append(rows[at][1] - committed)
    return latencies


def figures(args: argparse.Namespace, tables: dict[str, Any], phones: dict[str, Any],
            mapping: dict[tuple[str, int], tuple[int, int]], drained: dict[str, Any],
            cpu: dict[str, float | None], streams: int, club_problems: list[str],
            version: str, rss_kib: int) -> dict[str, Any]:
    commits = tables["commits"]
    latencies, missed, measured = delivery(commits, mapping, phones["subs"])
    held = {key: seq for key, (_, seq) in mapping.items()}
    last: dict[tuple[str, int], int] = {}
    for table, tgid, seq, *_ in commits:
        last[(table, tgid)] = max(seq, last.get((table, tgid), 0))
    at_club = sum(min(held.get(k, 0), s) for k, s in last.items())
    picked = [p - c for _, _, _, c, p, _ in commits if p is not None]
    acked = [a - c for _, _, _, c, _, a in commits if a is not None]
    wanted = args.tables * args.phones + args.screens
    errors = len(phones["errors"]) + tables["warnings"] + len(club_problems)
    p99 = percentiles(latencies)["p99"]
    result: dict[str, Any] = {
        "tables": args.tables, "phones_per_table": args.phones, "screens": args.screens,
        "history_games": args.history,
        "hand_s": list(args.hand_s), "minutes": args.minutes, "wake": args.wake,
        "postgresql": version, "cores": os.cpu_count(),
        "hands": len(commits), "games": sum(len(g) for g in tables["games"].values()),
        "events_at_club": at_club, "drained": drained.get("ok", False),
        "delivery": percentiles(latencies), "missed": missed, "events_measured": measured,
        "picked_up": percentiles(picked), "acked": percentiles(acked),
        "screen": percentiles(screen_delivery(commits, mapping, phones["screens"])),
        "screen_messages": sum(s["messages"] for s in phones["screens"]),
        "streams_wanted": wanted, "streams": streams,
        "streams_at_stop": phones["streams_at_stop"],
        "errors": errors, "stream_errors": phones["errors"][:10],
        "forwarder_warnings": tables["warnings"], "last_warnings": tables["last_warnings"],
        "club_log_problems": club_problems[:10], "cpu_pct": cpu, "club_rss_mib":
        round(rss_kib / 1024, 1), "p99_limit_ms": args.p99_ms,
    }
    result["ok"] = bool(
        errors == 0 and missed == 0 and result["drained"] and at_club == len(commits)
        and streams == wanted and p99 is not None and p99 <= args.p99_ms)
    return result


def summary(r: dict[str, Any]) -> str:
    cpu = r["cpu_pct"]

    def pct(name: str) -> str:
        return "n/a" if cpu.get(name) is None else f"{cpu[name]:.1f}%"

    lo, hi = r["hand_s"]
    verdict = "PASS" if r["ok"] else "FAIL"
    p99 = r["delivery"]["p99"]
    why = [] if r["ok"] else [w for w, bad in [
        (f"p99 {p99} ms > {r['p99_limit_ms']:g} ms", p99 is None or p99 > r["p99_limit_ms"]),
        (f"{r['errors']} errors", r["errors"] > 0), (f"{r['missed']} missed", r["missed"] > 0),
        ("not every event reached the club", r["events_at_club"] != r["hands"]),
        (f"{r['streams']} of {r['streams_wanted']} streams", r["streams"] != r["streams_wanted"]),
    ] if bad]
    return "\n".join([
        f"club_load: {r['tables']} tables x {r['phones_per_table']} phones + {r['screens']} "
        f"big screens, a hand every {lo:g}-{hi:g} s per table, {r['minutes']:g} min, "
        f"{r['history_games']} earlier games at the club, "
        f"PostgreSQL {r['postgresql']}, {r['cores']} cores, forwarder wake on commit: "
        f"{'on (as shipped)' if r['wake'] else 'off (the 1 s poll alone)'}",
        f"  hands {r['hands']}, games {r['games']}; at the club: {r['events_at_club']} of "
        f"{r['hands']} events",
        f"  live streams: {r['streams']} of {r['streams_wanted']} connected, "
        f"{r['streams_at_stop']} still at the end",
        f"  delivery to phones (commit at the table -> phone): {shown_ms(r['delivery'])}; "
        f"missed {r['missed']}; events measured {r['events_measured']}",
        f"    commit -> picked up by the forwarder: {shown_ms(r['picked_up'])}",
        f"    commit -> acknowledged by the club:   {shown_ms(r['acked'])}",
        f"  big screens (0.5 s debounce by design): {shown_ms(r['screen'])}, "
        f"{r['screen_messages']} messages",
        f"  errors: {r['errors']} (streams {len(r['stream_errors'])}, forwarder warnings "
        f"{r['forwarder_warnings']}, club log {len(r['club_log_problems'])})",
        f"  CPU (100% = one core): club server {pct('club_server')}, PostgreSQL "
        f"{pct('postgresql')}, tables {pct('tables')}, phones {pct('phones')}; machine busy "
        f"{pct('machine_busy_pct')} of all cores; club server RSS {r['club_rss_mib']} MiB",
        f"  {verdict}" + (f": {'; '.join(why)}" if why else
                          f" (p99 <= {r['p99_limit_ms']:g} ms, no error, nothing missed)"),
    ])
