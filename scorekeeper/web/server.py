"""`scorekeeper serve`: run the table server and tell the players where to point their phones."""

from __future__ import annotations

import asyncio
import io
import ipaddress
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any, TextIO

import qrcode
import uvicorn

from scorekeeper.club.mode import mode_line
from scorekeeper.files import write_atomic
from scorekeeper.settings import Settings
from scorekeeper.store.faults import StoreError
from scorekeeper.web.app import create_app
from scorekeeper.web.http.auth import resolve_token
from scorekeeper.web.http.connections import raise_file_limit, server_config
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.state import parts

log = logging.getLogger(__name__)

ALL_INTERFACES = {"", "0.0.0.0", "::"}


def lan_ip(host: str) -> str:
    """The address phones should use: the host if specific, else this machine's LAN IP.

    Connecting a UDP socket sends nothing; it only asks the kernel which local address
    would route outward.
    """
    if host not in ALL_INTERFACES:
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError as exc:  # no route out: no network yet (reach_note says so)
        log.info("no LAN address (%s): showing 127.0.0.1", exc)
        return "127.0.0.1"


def is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def reach_note(host: str, shown_ip: str) -> str | None:
    """Why phones cannot open the address, when they cannot (else None).

    A server bound to loopback answers this machine only, and one whose LAN address could
    not be found shows 127.0.0.1: either way the QR code would lead a phone nowhere.
    """
    if is_loopback(host):
        return (f"Note: bound to {host}, this machine only: phones cannot open it. To let "
                "the table's phones in: make run ARGS='--host 0.0.0.0'")
    if host in ALL_INTERFACES and is_loopback(shown_ip):
        return ("Note: this machine has no network address yet: phones can open the page once "
                "it joins the table's Wi-Fi (the address above is this machine's own)")
    return None


def base_url(host: str, port: int) -> str:
    ip = lan_ip(host)
    return f"http://[{ip}]:{port}/" if ":" in ip else f"http://{ip}:{port}/"


def terminal_qr(text: str) -> str:
    """A QR code in block characters, to scan straight off the terminal."""
    qr = qrcode.QRCode(border=1)
    qr.add_data(text)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


ADMIN_LINK_FILE = "admin-link"


def admin_link_path(data_dir: Path) -> Path:
    """Where `serve` keeps the admin link for `scorekeeper admin-link` (mode 0600)."""
    return data_dir / ADMIN_LINK_FILE


def write_admin_link(path: Path, link: str) -> None:
    """Write the link readable by this user only, whole or not at all."""
    write_atomic(path, link + "\n", private=True)


def goes_to_a_log(out: TextIO) -> bool:
    """Whether `out` ends in a log (systemd's journal, a file) rather than a person's screen.

    The journal is readable by more people than the data folder is (adm, systemd-journal
    groups), and a token in it stays there for weeks.
    """
    if os.environ.get("INVOCATION_ID") or os.environ.get("JOURNAL_STREAM"):
        return True
    try:
        return not out.isatty()
    except (AttributeError, ValueError):
        return True


def admin_link_command(config: Path | None = None) -> str:
    """The command that prints the admin link, as the person reading the log should type it."""
    from scorekeeper.config import SYSTEM_CONFIG

    program = Path(sys.argv[0])
    command = str(program.absolute()) if program.name == "scorekeeper" else "scorekeeper"
    under_systemd = bool(os.environ.get("INVOCATION_ID") or os.environ.get("JOURNAL_STREAM"))
    prefix = "sudo " if under_systemd else ""
    suffix = f" --config {config}" if config is not None and config != SYSTEM_CONFIG else ""
    return f"{prefix}{command} admin-link{suffix}"


def show_admin_link(settings: Settings, out: TextIO, err: TextIO) -> int:
    """`scorekeeper admin-link`: print the link (and its QR on a terminal) from the file."""
    path = admin_link_path(settings.data_dir)
    try:
        link = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        err.write(f"scorekeeper: no admin link in {path} yet: the server writes it when it "
                  f"starts (is it running? sudo systemctl status scorekeeper)\n")
        return 2
    except PermissionError:
        err.write(f"scorekeeper: cannot read {path}: only the service user may; "
                  f"run this with sudo\n")
        return 2
    out.write(link + "\n")
    if not goes_to_a_log(out):
        out.write(terminal_qr(link))
    return 0


def banner(url: str, token: str, note: str, db: Path | str, out: TextIO,
           link_file: Path | None = None, show_link: bool = True,
           command: str = "scorekeeper admin-link", reach: str | None = None,
           club: str | None = None) -> None:
    """Print the table address and the admin link, each with its QR code, and `club`, the
    server's club role (club/mode.py), when it has one.

    With `show_link` False (output bound for a log) the admin link is not printed: only
    where it is kept (`link_file`) and the `command` that shows it. `reach` says why phones
    cannot use the address, when they cannot (see `reach_note`).
    """
    admin = f"{url}#token={token}"
    first = f"scorekeeper: serving at {url}" if reach else \
        f"scorekeeper: open {url} on any phone on this network"
    lines = [first, terminal_qr(url)]
    if reach:
        lines.insert(1, reach)
    if show_link:
        lines += ["Admin link (logs a phone in as scorekeeper; keep it private):",
                  admin, terminal_qr(admin)]
    else:
        lines += [f"Admin link: not printed here, as this output goes to a log; it is in "
                  f"{link_file} (readable by this service's user only). Show it with its "
                  f"QR code: {command}"]
    lines += [line for line in (club,) if line]
    lines += [f"admin token: {note}", f"database: {db}"]
    for line in lines:
        try:
            print(line, file=out)
        except UnicodeEncodeError:
            print("(QR code not shown: the terminal cannot print it)", file=out)
    out.flush()


class _Server(uvicorn.Server):
    """uvicorn that also ends the live event streams when asked to stop.

    Streams never end by themselves, so without this a Ctrl-C would wait out the
    graceful-shutdown timeout whenever a phone is watching.
    """

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub
        self.loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.hub.close)


def serve(
    db: Path | str | None = None,
    host: str | None = None,
    port: int | None = None,
    camera: str | None = None,
    config: Path | None = None,
    club_url: str | None = None,
    club_token: str | None = None,
    club_server: bool | None = None,
) -> None:
    """Run the server until interrupted; None means the config's, environment's or default.

    A bad config file exits with status 2, which the systemd unit treats as "do not restart".
    """
    from scorekeeper.config import ConfigError, find_config, load_settings

    try:
        settings = load_settings(find_config(config), db=db, host=host, port=port,
                                 camera=camera, club_url=club_url, club_token=club_token,
                                 club_server=club_server)
    except ConfigError as exc:
        print(f"scorekeeper: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    token, created = resolve_token(settings)
    token_file = settings.admin_token_path
    if created:
        note = f"new, saved in {token_file}"
    elif settings.admin_token is not None and settings.admin_token.get_secret_value().strip():
        note = "from SCOREKEEPER_ADMIN_TOKEN"
    else:
        note = f"kept in {token_file}"
    try:
        app = create_app(settings, token)
    except (StoreError, ConfigError) as exc:  # another server on this file, a damaged file,
        # an unreadable club token file: say so
        print(f"scorekeeper: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    url = base_url(settings.host, settings.port)
    reach = reach_note(settings.host, lan_ip(settings.host))
    link_file = admin_link_path(settings.data_dir)
    write_admin_link(link_file, f"{url}#token={token}")
    banner(url, token, note, settings.db_shown, sys.stdout, link_file=link_file,
           show_link=not goes_to_a_log(sys.stdout), command=admin_link_command(config),
           reach=reach, club=mode_line(settings, url))
    # header deadline, connection caps and the file limit: see connections.py
    uvicorn_config = server_config(app, settings.host, settings.port, raise_file_limit())
    _Server(uvicorn_config, parts(app).hub).run()
