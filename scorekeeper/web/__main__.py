"""`python -m scorekeeper.web`: the server without the CLI (tests and benchmarks use it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from scorekeeper.web.server import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.web")
    parser.add_argument("--db", help="SQLite file or PostgreSQL URL")
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--camera")
    parser.add_argument("--config", type=Path)
    args = parser.parse_args(argv)
    serve(args.db, args.host, args.port, args.camera, args.config)


if __name__ == "__main__":
    main()
