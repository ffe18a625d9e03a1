"""`scorekeeper club`: the club server and its tables, from the club's terminal.

`add-table`, `rotate-token` and `tables` open the club's database themselves (`--db`, an
SQLite file or a postgresql:// URL, else the configured one), so they run beside a club
server on PostgreSQL; an SQLite file is held by its server, which says so. `leave` runs on
a table instead, its server stopped. The league's actions (standings, players, seasons)
are added by cli/league.py.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

from scorekeeper.club.tables import TableError, Tables
from scorekeeper.store.faults import StoreError

if TYPE_CHECKING:
    from scorekeeper.club import presence as presence_module

from scorekeeper.cli.common import EXIT_BAD_INPUT, settings_for

Actions: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


@contextmanager
def _tables(args: argparse.Namespace) -> Iterator[Tables]:
    from scorekeeper.store.opener import open_database

    target: str | Path | None = args.db
    if target is None:

        target = settings_for(args).db_target
    db = open_database(target)
    try:
        yield Tables(db)
    finally:
        db.close()


def club_url(args: argparse.Namespace) -> str:
    """`--url`, else this machine's address on the club's network and the server's port."""
    if args.url:
        return str(args.url).rstrip("/")
    from scorekeeper.web.server import base_url

    settings = settings_for(args)
    return base_url(settings.host, settings.port, settings.tls).rstrip("/")


def show_token(name: str, token: str, url: str, out: TextIO) -> None:
    """The token once, and the exact ways to give it to the table's Pi."""
    out.write(f"table {name}: its token (shown this once; keep it private):\n  {token}\n\n"
              f"On the table's Pi, either run:\n"
              f"  scorekeeper serve --club {url} --club-token {token}\n"
              f"or, for the installed service, put the token in a file only the service "
              f"reads\n  (e.g. /var/lib/scorekeeper/club_token, mode 0600) and in "
              f"/etc/scorekeeper/config.toml:\n"
              f"  [club]\n  url = \"{url}\"\n  token_file = \"/var/lib/scorekeeper/club_token\"\n"
              f"then: sudo systemctl restart scorekeeper\n")


def _add_table(args: argparse.Namespace, tables: Tables, out: TextIO) -> int:
    show_token(args.name, tables.add(args.name), club_url(args), out)
    return 0


def _rotate(args: argparse.Namespace, tables: Tables, out: TextIO) -> int:
    token = tables.rotate(args.name)
    out.write("The old token no longer works.\n")
    show_token(args.name, token, club_url(args), out)
    return 0


def _list(args: argparse.Namespace, tables: Tables, out: TextIO) -> int:
    from scorekeeper.club.presence import presence

    rows = tables.listing()
    if not rows:
        out.write("no tables yet: scorekeeper club add-table NAME\n")
    width = max([len(r.name) for r in rows] + [5])
    when = datetime.now(UTC)
    out.writelines(f"{r.name:<{width}}  {_state(presence(r.last_seen, r.pending_events, when))}"
                   f"  last seen {r.last_seen or 'never':<25}  "
                   f"{r.games} game{'' if r.games == 1 else 's'}\n" for r in rows)
    return 0


def _state(found: presence_module.Presence) -> str:
    """A table's state in a column: live, offline, or behind with its count."""
    if found.state == "behind":
        return f"{'behind ' + str(found.pending_events):<14}"
    return f"{found.state:<14}"


Action = Callable[[argparse.Namespace, Tables, TextIO], int]


def _runner(action: Action, what: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            with _tables(args) as tables:
                return action(args, tables, sys.stdout)
        except (TableError, StoreError, OSError) as exc:
            sys.stderr.write(f"scorekeeper club {what}: {exc}\n")
            return EXIT_BAD_INPUT
    return run


def _leave(args: argparse.Namespace) -> int:
    """`club leave`, on a table: it forgets its club, so that it can join another (or none)
    without sending the new club the games it played for the old one."""
    from scorekeeper.club.forwarder import shown_url
    from scorekeeper.club.outbox import Outbox
    from scorekeeper.club.roster import forget
    from scorekeeper.store import GameStore

    settings = settings_for(args)
    target = args.db if args.db is not None else settings.db_target
    try:
        store = GameStore(target, backups=None if args.db else settings.backups_path)
    except (StoreError, OSError) as exc:
        sys.stderr.write(f"scorekeeper club leave: {exc}\n(stop the table's server first: "
                         f"sudo systemctl stop scorekeeper)\n")
        return EXIT_BAD_INPUT
    try:
        outbox = Outbox(store)
        events, games = outbox.pending()
        if events and not args.force:
            sys.stderr.write(
                f"scorekeeper club leave: {events} event{_s(events)} of {games} "
                f"game{_s(games)} {'has' if events == 1 else 'have'} not reached the club "
                f"yet. Start the table while the club answers until /api/health shows "
                f"club.pending_events 0, or run again with --force to keep them on this "
                f"table only.\n")
            return EXIT_BAD_INPUT
        outbox.leave()
        played = len(store.games())
    finally:
        store.close()
    url = shown_url(settings.club_url) if settings.club_url else None
    _left(url, played, events, forget(settings.data_dir), sys.stdout)
    return 0


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _left(url: str | None, played: int, events: int, had_list: bool, out: TextIO) -> None:
    out.write(f"This table has left its club. Its {played} game{_s(played)} "
              f"{'stays' if played == 1 else 'stay'} here: "
              f"they are not sent to that club nor to the next one; only games started "
              f"after club mode starts again are.\n")
    if events:
        out.write(f"{events} event{_s(events)} the club had not received "
                  f"{'stays' if events == 1 else 'stay'} here only.\n")
    if had_list:
        out.write("The club's player list kept here is deleted.\n")
    if url:
        out.write(f"The config still names the club {url}: in /etc/scorekeeper/config.toml, "
                  f"set [club] url and the token_file's token to the new club's (or remove "
                  f"[club] to play at home), then: sudo systemctl restart scorekeeper\n")
    else:
        out.write("To join a club: scorekeeper serve --club URL --club-token TOKEN, or "
                  "[club] url and token_file in the config (docs/club.md).\n")


def _serve(args: argparse.Namespace) -> int:
    """`club serve`: `serve --club-server`, with no camera unless one is named."""
    from scorekeeper.web.server import serve

    serve(db=args.db, host=args.host, port=args.port, camera=args.camera or "none",
          config=args.config, club_server=True)
    return 0


def _common(parser: argparse.ArgumentParser, action: Action, what: str, url: bool) -> None:
    parser.add_argument("--db", default=None,
                        help="the club's database: an SQLite file or a postgresql:// URL "
                             "(default: the configured one)")
    if url:
        parser.add_argument("--url", default=None,
                            help="the club server's address as the tables reach it (default: "
                                 "this machine's network address and the configured port)")
    _add_config(parser)
    parser.set_defaults(func=_runner(action, what))


def _add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="TOML config (default: $SCOREKEEPER_CONFIG, "
                             "else /etc/scorekeeper/config.toml if present)")


def add_parser(sub: Actions) -> Actions:
    """The `club` command; returns its actions, to which the league adds its own."""
    club = sub.add_parser("club", help="club night: the club server, its tables and league")
    actions = club.add_subparsers(dest="action", required=True)

    serve = actions.add_parser("serve", help="run the club server (serve --club-server)")
    serve.add_argument("--db", default=None,
                       help="the club's database, e.g. postgresql://scorekeeper@/club")
    serve.add_argument("--host", default=None, help="default: all interfaces")
    serve.add_argument("--port", type=int, default=None, help="default: 8000")
    serve.add_argument("--camera", default=None, help="default: none")
    _add_config(serve)
    serve.set_defaults(func=_serve)

    add = actions.add_parser("add-table", help="register a table; prints its token once")
    add.add_argument("name", help="letters, digits, '_', '.', '-' (e.g. table-7)")
    _common(add, _add_table, "add-table", url=True)
    rotate = actions.add_parser("rotate-token", help="a new token for a table; the old one "
                                                     "stops working")
    rotate.add_argument("name")
    _common(rotate, _rotate, "rotate-token", url=True)
    _common(actions.add_parser("tables", help="the tables: last seen, games sent"), _list,
            "tables", url=False)

    leave = actions.add_parser(
        "leave", help="on a table: forget its club (to join another); its games stay here")
    leave.add_argument("--db", default=None,
                       help="the table's database (default: the configured one)")
    leave.add_argument("--force", action="store_true",
                       help="leave even though some events have not reached the club")
    _add_config(leave)
    leave.set_defaults(func=_leave)

    # the league's actions (standings, players, seasons), from cli/league.py
    if importlib.util.find_spec("scorekeeper.cli.league") is not None:
        from scorekeeper.cli.league import add_league_actions

        add_league_actions(actions)
    return actions
