"""`scorekeeper tls self-signed`: a certificate for a table without its own, so that phones
get a secure page (the offline reload, the live viewfinder: docs/server.md, HTTPS)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scorekeeper.cli.common import EXIT_BAD_INPUT, add_config, add_data_dir, settings_for


def _self_signed(args: argparse.Namespace) -> int:
    from scorekeeper.web.tls import MAX_DAYS, default_names, san_entry, self_signed

    out: Path = args.out or settings_for(args, data_dir=args.data_dir).data_dir / "tls"
    names = [*default_names(), *args.name]
    try:
        cert, key = self_signed(out, names, days=args.days or MAX_DAYS, force=args.force)
    except (ValueError, OSError) as exc:
        print(f"scorekeeper: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    cert, key = cert.resolve(), key.resolve()
    listed = ", ".join(dict.fromkeys(san_entry(name).partition(":")[2] for name in names))
    print(f"wrote {cert} (self-signed, for {listed})\n"
          f"wrote {key} (readable by you only)\n\n"
          f"Add to the config file, at its end:\n"
          f'[tls]\ncert = "{cert}"\nkey = "{key}"\n\n'
          f"or start the server with: scorekeeper serve --tls-cert {cert} --tls-key {key}\n"
          f"Each phone warns once that the certificate is not trusted: accept it "
          f"(docs/server.md, HTTPS).")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tls = sub.add_parser("tls", help="HTTPS certificates for the table server")
    actions = tls.add_subparsers(dest="action", required=True)
    made = actions.add_parser(
        "self-signed", help="write a self-signed certificate and key for this machine",
        description="Write cert.pem and key.pem (mode 0600) for this machine's name, "
                    "name.local, its LAN addresses and localhost, plus each --name, and "
                    "print the config lines that serve HTTPS with them. Needs the openssl "
                    "command.")
    made.add_argument("--out", type=Path, default=None, metavar="FOLDER",
                      help="where to write them (default: tls/ in the data folder)")
    made.add_argument("--name", action="append", default=[], metavar="HOST",
                      help="another host name or IP address phones use (repeatable)")
    made.add_argument("--days", type=int, default=None,
                      help="how long it is valid (default and most: 825, as phones refuse "
                           "longer)")
    made.add_argument("--force", action="store_true",
                      help="replace a certificate already in the folder")
    add_data_dir(made)
    add_config(made)
    made.set_defaults(func=_self_signed)
