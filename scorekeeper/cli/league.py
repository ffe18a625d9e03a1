"""`scorekeeper club standings | players | seasons`: the league from the club's terminal.

Each action opens the club's database itself (`--db`, a file or a postgresql:// URL, else
the configured one), so it runs beside a club server on PostgreSQL; an SQLite file is held
by its server, which says so (stop the server, or use the page and the API).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from scorekeeper.cli.common import EXIT_BAD_INPUT, settings_for
from scorekeeper.club import league_board
from scorekeeper.club.league import League, LeagueError, UnknownSeason, new_season
from scorekeeper.club.standings import ALL, DEFAULT_RANKING, RANKINGS, Table, csv_rows
from scorekeeper.store import GameStore
from scorekeeper.store.faults import StoreError

Action = Callable[[argparse.Namespace, GameStore, League, TextIO], int]


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[tuple[GameStore, League]]:
    if args.db is not None:
        store = GameStore(args.db)
    else:

        settings = settings_for(args)
        store = GameStore(settings.db_target, backups=settings.backups_path)
    try:
        yield store, League(store.database)
    finally:
        store.close()


def _standings(args: argparse.Namespace, store: GameStore, league: League, out: TextIO) -> int:
    season, rule, tables = league_board.select(store, league, args.season, args.variant,
                                               args.ranking)
    if args.csv is not None:
        _write_csv(args.csv, tables, out)
        return 0
    out.write(f"{season.name} ({season.starts} to {season.ends})" if season else "every game")
    out.write(f", ranked by {rule}: {RANKINGS[rule]}\n")
    if not tables:
        out.write("no finished games yet\n")
    for t in tables:
        out.write(f"\n{t.label} ({'lowest' if t.low_wins else 'highest'} points best)\n")
        out.write(f"{'#':>3}  {'player':<24} {'played':>6} {'wins':>5} {'points':>7} "
                  f"{'avg':>7}\n")
        for r in t.rows:
            place = "-" if r.rank is None else str(r.rank)
            name = r.name + (" (guest)" if r.guest else "")
            out.write(f"{place:>3}  {name:<24} {r.played:>6} {r.wins:>5} {r.points:>7} "
                      f"{float(r.average):>7.2f}\n")
    return 0


def _write_csv(where: str, tables: list[Table], out: TextIO) -> None:
    """The standings as CSV, to a file or (`-`) standard output."""
    if where == "-":
        csv.writer(out, lineterminator="\n").writerows(csv_rows(tables))
        return
    with open(where, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(csv_rows(tables))
    sys.stderr.write(f"wrote {where}\n")


def _players_add(args: argparse.Namespace, store: GameStore, league: League, out: TextIO) -> int:
    added, known = league.add_players(args.names)
    for name in added:
        out.write(f"added {name}\n")
    for name in known:
        out.write(f"{name}: already on the list\n")
    return 0


def _players_list(args: argparse.Namespace, store: GameStore, league: League,
                  out: TextIO) -> int:
    for name in league.players():
        out.write(f"{name}\n")
    return 0


def _seasons_add(args: argparse.Namespace, store: GameStore, league: League, out: TextIO) -> int:
    season = league.add_season(new_season(args.name, args.starts, args.ends, args.ranking))
    out.write(f"season {season.name}: {season.starts} to {season.ends}, "
              f"ranked by {season.ranking}\n")
    return 0


def _seasons_list(args: argparse.Namespace, store: GameStore, league: League,
                  out: TextIO) -> int:
    current = league.season(None)
    for s in league.seasons():
        mark = "  (current)" if current and s.name == current.name else ""
        out.write(f"{s.name}: {s.starts} to {s.ends}, ranked by {s.ranking}{mark}\n")
    return 0


def _runner(action: Action, what: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            with _opened(args) as (store, league):
                return action(args, store, league, sys.stdout)
        except (LeagueError, UnknownSeason, StoreError, OSError) as exc:
            sys.stderr.write(f"scorekeeper club {what}: {exc}\n")
            return EXIT_BAD_INPUT
    return run


def _common(parser: argparse.ArgumentParser, action: Action, what: str) -> None:
    parser.add_argument("--db", default=None,
                        help="the club's database: an SQLite file or a postgresql:// URL "
                             "(default: the configured one)")
    parser.add_argument("--config", type=Path, default=None,
                        help="TOML config (default: $SCOREKEEPER_CONFIG, "
                             "else /etc/scorekeeper/config.toml if present)")
    parser.set_defaults(func=_runner(action, what))


def add_league_actions(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add standings, players and seasons to `scorekeeper club`'s actions."""
    rules = ", ".join(f"{k}: {v}" for k, v in RANKINGS.items())
    standings = actions.add_parser("standings", help="print or export the league table")
    standings.add_argument("--season", default=None,
                           help=f"a season's name ({ALL!r}: every game; default: the season "
                                "running today, else every game)")
    standings.add_argument("--variant", default=None, help="one variant only")
    standings.add_argument("--ranking", choices=list(RANKINGS), default=None,
                           help=f"override the season's rule ({rules})")
    standings.add_argument("--csv", metavar="FILE", default=None,
                           help="write CSV to FILE ('-': standard output)")
    _common(standings, _standings, "standings")

    players = actions.add_parser("players", help="the club's players (identities across games)")
    p_actions = players.add_subparsers(dest="players_action", required=True)
    add = p_actions.add_parser("add", help="add players to the club's list")
    add.add_argument("names", nargs="+")
    _common(add, _players_add, "players add")
    _common(p_actions.add_parser("list", help="list the club's players"), _players_list,
            "players list")

    seasons = actions.add_parser("seasons", help="the league's seasons")
    s_actions = seasons.add_subparsers(dest="seasons_action", required=True)
    s_add = s_actions.add_parser("add", help="add a season")
    s_add.add_argument("name")
    s_add.add_argument("--starts", required=True, help="first day (YYYY-MM-DD, UTC)")
    s_add.add_argument("--ends", required=True, help="last day (YYYY-MM-DD, UTC)")
    s_add.add_argument("--ranking", choices=list(RANKINGS), default=DEFAULT_RANKING,
                       help=rules)
    _common(s_add, _seasons_add, "seasons add")
    _common(s_actions.add_parser("list", help="list the seasons"), _seasons_list,
            "seasons list")
