"""The admin link: where `serve` keeps it, when it may print it, and `scorekeeper admin-link`,
which finds the running server's folder (running.py) rather than guessing one.
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import qrcode

from scorekeeper.files import write_atomic
from scorekeeper.settings import Settings, default_data_dir
from scorekeeper.web.running import RunningServer, folder_server, running_servers

ADMIN_LINK_FILE = "admin-link"
EXIT_NO_LINK = 2


def terminal_qr(text: str) -> str:
    """A QR code in block characters, to scan straight off the terminal."""
    qr = qrcode.QRCode(border=1)
    qr.add_data(text)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def admin_link_path(data_dir: Path) -> Path:
    """Where `serve` keeps the admin link for `scorekeeper admin-link` (mode 0600)."""
    return data_dir / ADMIN_LINK_FILE


def write_admin_link(path: Path, link: str) -> None:
    """Write the link readable by this user only, whole or not at all."""
    write_atomic(path, link + "\n", private=True)


def under_systemd() -> bool:
    return bool(os.environ.get("INVOCATION_ID") or os.environ.get("JOURNAL_STREAM"))


def goes_to_a_log(out: TextIO) -> bool:
    """Whether `out` ends in a log (systemd's journal, a file) rather than a person's screen."""
    if under_systemd():
        return True
    try:
        return not out.isatty()
    except (AttributeError, ValueError):
        return True


def own_folder(data_dir: Path) -> bool:
    """Whether the data folder is the user's own: inside their home and theirs (a laptop's
    `make run`), not a service's folder (an installed table's, whose home it is)."""
    try:
        home, folder = Path.home().resolve(), data_dir.resolve()
        return folder != home and folder.is_relative_to(home) \
            and folder.stat().st_uid == os.getuid()
    except (OSError, RuntimeError):
        return False


def may_print_link(out: TextIO, data_dir: Path) -> bool:
    """Whether `serve` prints the admin link itself: on a screen, or into a log when the data
    folder is the user's own (who reads the log reads the folder anyway). Never into the
    journal: more people may read it than the data folder (adm, systemd-journal groups), and
    a token in it stays there for weeks."""
    if under_systemd():
        return False
    return not goes_to_a_log(out) or own_folder(data_dir)


def admin_link_command(config: Path | None = None, port: int | None = None) -> str:
    """The command that prints the admin link, as the person reading the log should type it."""
    from scorekeeper.config import SYSTEM_CONFIG

    program = Path(sys.argv[0])
    command = str(program.absolute()) if program.name == "scorekeeper" else "scorekeeper"
    prefix = "sudo " if under_systemd() else ""
    suffix = f" --config {config}" if config is not None and config != SYSTEM_CONFIG else ""
    suffix += f" --port {port}" if port is not None and not under_systemd() else ""
    return f"{prefix}{command} admin-link{suffix}"


@dataclass
class Found:
    """The folder whose link to show, its running server (None: none runs with it), and
    what to tell the person about the choice."""

    folder: Path
    server: RunningServer | None
    notes: list[str] = field(default_factory=list)


class NoChoice(Exception):
    """Which server is meant cannot be told (several run, or none on the port asked for)."""


def _listed(servers: list[RunningServer]) -> str:
    return "; ".join(f"port {s.port} with data in {s.data_dir} "
                     f"(scorekeeper admin-link --port {s.port})" for s in servers)


def find_link(settings: Settings, port: int | None = None) -> Found:
    """The folder to read: the server on `port` if given; else the configured folder when
    one is set (SCOREKEEPER_DATA_DIR, the config, --data-dir); else this user's running
    server. Raises NoChoice when that cannot be told."""
    live, stale = running_servers()
    notes = [f"note: ignored a stale record of a server on port {s.port} with data in "
             f"{s.data_dir} (its process {s.pid} is gone)" for s in stale]
    if port is not None:
        match = [s for s in live if s.port == port]
        if not match:
            running = f" (running: {_listed(live)})" if live else ""
            raise NoChoice(f"no server of yours is running on port {port}{running}")
        return Found(match[0].data_dir, match[0], notes)
    folder = settings.data_dir.resolve()
    same = [s for s in live if s.data_dir == folder]
    if folder == default_data_dir().resolve() and not same:
        if len(live) == 1:
            return Found(live[0].data_dir, live[0], notes)
        if len(live) > 1:
            raise NoChoice(f"several servers are running: {_listed(live)}")
    server = same[0] if same else folder_server(folder)
    if server is None:
        notes.append(f"warning: no running server uses {folder}: this is the link its server "
                     f"made when it last ran")
        others = [s for s in live if s.data_dir != folder]
        if others:
            notes.append(f"running elsewhere: {_listed(others)}")
    return Found(folder, server, notes)


def show_admin_link(settings: Settings, out: TextIO, err: TextIO,
                    port: int | None = None) -> int:
    """`scorekeeper admin-link`: say which server's folder it read (on `err`), then print
    the link alone on `out` (and its QR code on a terminal)."""

    try:
        found = find_link(settings, port)
    except NoChoice as exc:
        err.write(f"scorekeeper: {exc}\n")
        return EXIT_NO_LINK
    for note in found.notes:
        err.write(f"scorekeeper: {note}\n")
    path = admin_link_path(found.folder)
    try:
        link = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        err.write(f"scorekeeper: no admin link in {path} yet: the server writes it when it "
                  f"starts (is it running? make run, or on a table: "
                  f"sudo systemctl status scorekeeper)\n")
        return EXIT_NO_LINK
    except PermissionError:
        err.write(f"scorekeeper: cannot read {path}: only the service user may; "
                  f"run this with sudo\n")
        return EXIT_NO_LINK
    if found.server is not None:
        err.write(f"scorekeeper: the admin link of {found.server.describe()}:\n")
    else:
        err.write(f"scorekeeper: read {path}:\n")
    out.write(link + "\n")
    if not goes_to_a_log(out):
        out.write(terminal_qr(link))
    return 0
