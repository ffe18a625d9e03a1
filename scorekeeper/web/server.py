"""`scorekeeper serve`: run the table server and tell the players where to point their phones."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

import uvicorn

from scorekeeper.club.mode import mode_line
from scorekeeper.store.faults import StoreError
from scorekeeper.web.admin_link import (
    admin_link_command,
    admin_link_path,
    goes_to_a_log,
    may_print_link,
    show_admin_link,
    terminal_qr,
    under_systemd,
    write_admin_link,
)
from scorekeeper.web.app import create_app
from scorekeeper.web.http.auth import resolve_token
from scorekeeper.web.http.collector import QuietCollector, take_full_passes
from scorekeeper.web.http.connections import raise_file_limit, server_config
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.reach import base_url, is_loopback, lan_ip, phone_urls, reach_note
from scorekeeper.web.running import forget, record
from scorekeeper.web.state import parts
from scorekeeper.web.tls import check_tls

log = logging.getLogger(__name__)

__all__ = ["admin_link_command", "admin_link_path", "banner", "base_url", "goes_to_a_log",
           "is_loopback", "lan_ip", "reach_note", "serve", "show_admin_link", "terminal_qr"]


def banner(url: str, token: str, note: str, db: Path | str, out: TextIO,
           link_file: Path | None = None, show_link: bool = True,
           command: str = "scorekeeper admin-link", reach: str | None = None,
           club: str | None = None, data_dir: Path | None = None,
           also: Sequence[str] = ()) -> None:
    """Print the table address (and `also`, its other addresses) and the admin link, each
    with its QR code, the data folder, and `club`, the server's club role (club/mode.py),
    when it has one.

    With `show_link` False (output bound for the journal, or a log of a folder not the
    user's own: may_print_link) the admin link is not printed: only where it is kept
    (`link_file`) and the `command` that shows it. `reach` says why phones cannot use the
    address, when they cannot (see `reach_note`).
    """
    admin = f"{url}#token={token}"
    first = f"scorekeeper: serving at {url}" if reach else \
        f"scorekeeper: open {url} on any phone on this network"
    lines = [first, terminal_qr(url)]
    if reach:
        lines.insert(1, reach)
    lines += [f"also at: {other}" for other in also if other != url]
    if show_link:
        lines += ["Admin link (logs a phone in as scorekeeper; keep it private):",
                  admin, terminal_qr(admin)]
    else:
        lines += [f"Admin link: not printed here, as this output goes to a log; it is in "
                  f"{link_file} (readable by this service's user only). Show it with its "
                  f"QR code: {command}"]
    lines += [line for line in (club,) if line]
    if data_dir is not None:
        lines.append(f"data folder: {data_dir}")
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

    def __init__(self, config: uvicorn.Config, hub: Hub,
                 on_exit: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self.hub = hub
        self.on_exit = on_exit
        self.loop: asyncio.AbstractEventLoop | None = None
        self.collector: QuietCollector | None = None
        self._collecting: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop, then `on_exit`: here, as uvicorn raises the SIGTERM it caught again once
        serving ends, so nothing after `run()` would run."""
        if self._collecting is not None:
            self._collecting.cancel()
            gc.set_threshold(*self._thresholds)
        try:
            await super().shutdown(sockets)
        finally:
            if self.on_exit is not None:
                self.on_exit()

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start, then spare the event loop the cyclic garbage collector's full passes:
        each walks every object, and under a flood of connections they stalled every
        request (docs/server.md). The objects made so far (modules, the app, its routes:
        they live as long as the server) are set aside, and full passes run when few
        connections are open (web/http/collector.py)."""
        await super().startup(sockets)
        gc.collect()
        gc.freeze()
        policy = getattr(self.config.http, "policy", None)
        if policy is not None:
            take_full_passes()
            self.collector = QuietCollector(busy=lambda: policy.total)
            self._collecting = asyncio.get_running_loop().create_task(self.collector.run())

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
    data_dir: Path | None = None,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
) -> None:
    """Run the server until interrupted; None means the config's, environment's or default.

    A bad config file exits with status 2, which the systemd unit treats as "do not restart".
    """
    from scorekeeper.config import ConfigError, find_config, load_settings

    try:
        settings = load_settings(find_config(config), db=db, host=host, port=port,
                                 camera=camera, club_url=club_url, club_token=club_token,
                                 club_server=club_server, data_dir=data_dir,
                                 tls_cert=tls_cert, tls_key=tls_key)
        tls = check_tls(settings)
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
    url = base_url(settings.host, settings.port, settings.tls)
    reach = reach_note(settings.host, lan_ip(settings.host))
    link_file = admin_link_path(settings.data_dir)
    write_admin_link(link_file, f"{url}#token={token}")
    banner(url, token, note, settings.db_shown, sys.stdout, link_file=link_file,
           show_link=may_print_link(sys.stdout, settings.data_dir),
           command=admin_link_command(config, settings.port if settings.port != 8000 else None),
           reach=reach, club=mode_line(settings, url), data_dir=settings.data_dir,
           also=phone_urls(settings.host, settings.port, settings.tls))
    # header deadline, connection caps and the file limit: see connections.py
    uvicorn_config = server_config(app, settings.host, settings.port, raise_file_limit(), tls)
    # where this server runs, for `scorekeeper admin-link` (running.py); a service is found
    # through its config instead, so it leaves no record in its home
    me = record(settings.data_dir, settings.port, url, index=not under_systemd())
    try:
        _Server(uvicorn_config, parts(app).hub, on_exit=lambda: forget(me)).run()
    finally:
        forget(me)  # a start that failed; forget() leaves another server's records alone
