"""`scorekeeper` command line. Heavy stages (web, vision) are imported only by their command.

Each stage's commands live in this package beside it (calibrate.py, decks.py, club.py,
league.py), every one taking its settings from config.py through `common.settings_for`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import TextIO

from scorekeeper.cli.common import (
    EXIT_BAD_INPUT,
    add_config,
    add_data_dir,
    add_deck_option,
    add_models,
    deck_for,
    serve_text,
    settings_for,
)
from scorekeeper.cli.common import models_dir as _models


def _score(source: TextIO, out: TextIO, err: TextIO) -> int:
    from scorekeeper.rules import RulesError, score_line

    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            result = score_line(json.loads(line))
        except json.JSONDecodeError as exc:
            err.write(f"line {number}: not valid JSON ({exc.msg} at column {exc.colno}): "
                      f"{line.strip()[:80]!r}\n")
            return EXIT_BAD_INPUT
        except RecursionError:
            err.write(f"line {number}: not valid JSON (nested too deeply)\n")
            return EXIT_BAD_INPUT
        except RulesError as exc:
            err.write(f"line {number}: {exc}\n")
            return EXIT_BAD_INPUT
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    if args.file is None or args.file == "-":
        return _score(sys.stdin, sys.stdout, sys.stderr)
    try:
        with open(args.file, encoding="utf-8") as fh:
            return _score(fh, sys.stdout, sys.stderr)
    except OSError as exc:
        sys.stderr.write(f"cannot read {args.file}: {exc.strerror}\n")
        return EXIT_BAD_INPUT




def _cmd_serve(args: argparse.Namespace) -> int:
    from scorekeeper.web.server import serve

    serve(db=args.db, host=args.host, port=args.port, camera=args.camera, config=args.config,
          club_url=args.club, club_token=args.club_token, club_server=args.club_server,
          data_dir=args.data_dir, tls_cert=args.tls_cert, tls_key=args.tls_key)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.stage == "rules":
        from scorekeeper.rules.bench import run

        run(hands=args.hands, seed=args.seed, out=sys.stdout)
    else:
        from scorekeeper.vision.bench import FRAMES
        from scorekeeper.vision.bench import run as run_vision

        run_vision(runtimes=args.runtimes, repeats=args.repeats, out=sys.stdout,
                   models=_models(args), frames=args.frames or FRAMES)
    return 0


def _cmd_read(args: argparse.Namespace) -> int:
    from scorekeeper.vision.read_cmd import read_images

    return read_images(args.images, as_json=args.json, annotate=args.annotate,
                       runtime=args.runtime, out=sys.stdout, err=sys.stderr,
                       models=_models(args), deck=deck_for(args))


def _deck_adapt(args: argparse.Namespace) -> int:
    """The one deck action that trains: the lab's `deck-adapt` runs it, in its own process,
    so the runtime never imports training (a Pi install has no lab)."""
    from scorekeeper.decks.adapting import lab_command, unavailable

    why = unavailable(_models(args))
    if why:
        sys.stderr.write(f"scorekeeper deck adapt: {why}\n")
        return EXIT_BAD_INPUT
    cmd = [*lab_command(), "deck-adapt", args.name, "--minutes", str(args.minutes),
           "--seed", str(args.seed)]
    cmd += ["--scenes"] * args.scenes + ["--classifier-only"] * args.classifier_only
    cmd += ["--fans"] * args.fans
    for flag in ("models", "config"):
        if getattr(args, flag, None) is not None:
            cmd += [f"--{flag}", str(getattr(args, flag))]
    return subprocess.call(cmd)


def _cmd_deck(args: argparse.Namespace) -> int:
    from scorekeeper.cli import decks as deck_cli
    from scorekeeper.decks.profile import DeckError
    from scorekeeper.vision.reader import VisionError

    settings = settings_for(args)
    data_dir, models = settings.data_dir, _models(args)
    try:
        if args.action == "adapt":
            return _deck_adapt(args)
        return deck_cli.run(args, data_dir, models, sys.stdout)
    except (DeckError, VisionError) as exc:
        sys.stderr.write(f"scorekeeper deck {args.action}: {exc}\n")
        return EXIT_BAD_INPUT


def _cmd_db(args: argparse.Namespace) -> int:
    from scorekeeper.store import admin

    settings = settings_for(args, db=args.db)
    db = settings.db_target
    if args.action == "backup":
        return admin.backup(db, args.to, sys.stdout, sys.stderr, folder=settings.backups_path)
    if args.action == "restore":
        return admin.restore_from(db, args.source, sys.stdout, sys.stderr)
    return admin.check(db, sys.stdout, sys.stderr)


def _cmd_admin_link(args: argparse.Namespace) -> int:
    from scorekeeper.web.server import show_admin_link

    return show_admin_link(settings_for(args, data_dir=args.data_dir), sys.stdout, sys.stderr,
                           port=args.port)


def _add_deck(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", default=None,
                        help="read with this deck's adapted classifier (`scorekeeper deck`)")


def _add_db(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db = sub.add_parser("db", help="back up, restore or check the games database")
    actions = db.add_subparsers(dest="action", required=True)
    backup = actions.add_parser("backup", help="copy the database (safe while serving)")
    backup.add_argument("--to", type=Path, default=None,
                        help="file or folder (default: the backups folder beside the database)")
    restore = actions.add_parser("restore", help="replace the database by a backup "
                                                 "(stop the server first)")
    restore.add_argument("source", type=Path, help="the backup file")
    actions.add_parser("check", help="SQLite's integrity check (PostgreSQL: whether it "
                                     "answers); names the fix if damaged")
    for action in (backup, restore, actions.choices["check"]):
        action.add_argument("--db", default=None, help="SQLite file or PostgreSQL URL "
                                                        "(default: the configured one)")
        add_config(action)
    db.set_defaults(func=_cmd_db)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper",
                                     description="Camera-backed scorekeeper for rummy.")
    sub = parser.add_subparsers(dest="command", required=True)

    score = sub.add_parser("score", help="score hands given as JSON lines")
    score.add_argument("file", nargs="?", help="JSON-lines file (default: standard input)")
    score.set_defaults(func=_cmd_score)

    serve = sub.add_parser(
        "serve", help="run the table server and phone page", description=serve_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_dir(serve)
    serve.add_argument("--db", default=None, help="SQLite file (default: scorekeeper.db in the "
                                                  "data folder), or a PostgreSQL URL: "
                                                  "postgresql://USER@HOST/DB")
    serve.add_argument("--host", default=None, help="address to listen on (default: all "
                                                    "interfaces, so phones on the Wi-Fi can "
                                                    "connect; $SCOREKEEPER_HOST)")
    serve.add_argument("--port", type=int, default=None,
                       help="port the phones open (default: 8000; $SCOREKEEPER_PORT)")
    serve.add_argument("--camera", default=None, help="camera source, e.g. replay:PATH or none")
    serve.add_argument("--club", default=None, metavar="URL",
                       help="club mode: forward every game to this club server (docs/club.md)")
    serve.add_argument("--club-token", default=None, metavar="TOKEN",
                       help="this table's token from `scorekeeper club add-table` "
                            "(or SCOREKEEPER_CLUB_TOKEN, or the config's [club] token_file)")
    serve.add_argument("--club-server", action="store_true", default=None,
                       help="be the club server: take the tables' games (`club serve`)")
    serve.add_argument("--tls-cert", type=Path, default=None, metavar="PEM",
                       help="serve HTTPS with this certificate (with --tls-key; "
                            "$SCOREKEEPER_TLS_CERT; `scorekeeper tls self-signed` makes one)")
    serve.add_argument("--tls-key", type=Path, default=None, metavar="PEM",
                       help="the certificate's private key ($SCOREKEEPER_TLS_KEY)")
    add_config(serve)
    serve.set_defaults(func=_cmd_serve)

    bench = sub.add_parser("bench", help="print speed figures")
    bench.add_argument("stage", choices=["rules", "vision"])
    bench.add_argument("--hands", type=int, default=10_000, help="rules: random hands")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--runtimes", "--runtime", nargs="+", default=["onnx", "ncnn", "torch"],
                       help="vision: runtimes to time")
    bench.add_argument("--repeats", type=int, default=5, help="vision: frames per case")
    bench.add_argument("--frames", type=Path, default=None,
                       help="vision: folder of frames.json and its frames "
                            "(default: the repository's benchmarks/frames)")
    add_models(bench)
    bench.set_defaults(func=_cmd_bench)

    read = sub.add_parser("read", help="read the cards in images")
    read.add_argument("images", nargs="+", type=Path)
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    read.add_argument("--annotate", type=Path, default=None,
                      help="write the image(s) with boxes and labels (a file, or a folder)")
    read.add_argument("--runtime", choices=["onnx", "ncnn", "torch"], default=None)
    add_deck_option(read)
    add_models(read)
    read.set_defaults(func=_cmd_read)

    _add_db(sub)
    from scorekeeper.cli.decks import add_parser as add_deck

    add_deck(sub, _cmd_deck, add_models)
    link = sub.add_parser("admin-link", help="print the admin link the server made "
                                             "(needs read access to the data folder)",
                          description="Print the running server's admin link. Without "
                                      "--port, --data-dir or $SCOREKEEPER_DATA_DIR it reads "
                                      "the folder of the server you are running; it says "
                                      "which folder it read, and warns when no running "
                                      "server uses it.")
    link.add_argument("--port", type=int, default=None,
                      help="the link of your server running on this port")
    add_data_dir(link)
    add_config(link)
    link.set_defaults(func=_cmd_admin_link)

    from scorekeeper.cli.calibrate import add_parser as add_calibrate

    add_calibrate(sub)
    from scorekeeper.cli.club import add_parser as add_club

    add_club(sub)
    from scorekeeper.cli.tls import add_parser as add_tls

    add_tls(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
