"""A throwaway PostgreSQL server for the store's contract tests.

Debian's PostgreSQL binaries (`/usr/lib/postgresql/<version>/bin`) run a private cluster in
a temporary folder, on a Unix socket in that folder, for the test session; each test gets
its own database. initdb refuses to run as root, so as root the cluster belongs to the
`postgres` user. SCOREKEEPER_TEST_PG_URL names a server to use instead (its user must be
allowed to create databases). Where no server can be had the tests are skipped, and say
exactly why (on CI they fail instead: .ci/run installs PostgreSQL).
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

ENV_URL = "SCOREKEEPER_TEST_PG_URL"


class NoPostgres(Exception):
    """PostgreSQL cannot run here; the message says why (the skip reason)."""


def find_bin() -> Path:
    """The newest installed PostgreSQL's bin folder (where initdb and pg_ctl are)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise NoPostgres("PostgreSQL is not installed here (no initdb in /usr/lib/postgresql/*/bin "
                     "or on PATH): apt-get install postgresql, or set "
                     f"{ENV_URL} to a server whose user may create databases")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner() -> list[str]:
    """The prefix that runs a command as the cluster's owner: `postgres` when we are root."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise NoPostgres("running as root, and there is no `postgres` user to own the test "
                         "cluster (initdb refuses root)") from None
    runuser = shutil.which("runuser")
    if runuser is None:
        raise NoPostgres("running as root without runuser, so initdb cannot run as postgres")
    return [runuser, "-u", "postgres", "--"]


@contextmanager
def local_server() -> Iterator[str]:
    """Start a private cluster; yields the URL of its `postgres` database; stops it after."""
    bin_dir = find_bin()
    prefix = _as_owner()
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    if prefix:
        entry = pwd.getpwnam("postgres")
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    data, port = folder / "data", _free_port()
    log = folder / "server.log"

    def run(*args: str) -> None:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}\n{tail}")

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "-E", "UTF8", "--no-sync")
        # durability is the store's to prove on its own terms; the test server need not fsync
        options = (f"-k {folder} -p {port} -c listen_addresses='' -c fsync=off "
                   f"-c full_page_writes=off -c max_connections=100")
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options,
            "-w", "-t", "60", "start")
        try:
            yield f"postgresql://postgres@/postgres?host={quote(str(folder), safe='')}&port={port}"
        finally:
            subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                            "-w", "stop"], capture_output=True, check=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def with_dbname(url: str, name: str) -> str:
    """`url` pointing at database `name` instead."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def fresh_database(server_url: str) -> str:
    """A new, empty database on the server; its URL."""
    import psycopg

    name = f"sk_test_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_dbname(server_url, name)


def drop_database(server_url: str, url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
