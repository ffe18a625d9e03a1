"""Shared test helpers."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pg  # tests/pg.py (pytest puts tests/ on the path for this conftest)
import pytest
from apiclient import client  # noqa: F401  (the app most API tests drive: a fixture)

from scorekeeper.rules.cards import Card, parse_cards
from scorekeeper.store import GameStore

# Servers the tests start record where they run (web/running.py) in a folder of the tests'
# own, never in the real user's, where `scorekeeper admin-link` would find them.
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="scorekeeper-tests-run-")


def cards(text: str) -> list[Card]:
    """'7H 7S 2C' → cards; the tables below read like the hands at the table."""
    return parse_cards(text.split())


# --- the store on both databases (tests/pg.py runs a throwaway PostgreSQL) ----------------

@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """A PostgreSQL server's URL for the session: SCOREKEEPER_TEST_PG_URL, else a private
    cluster; skipped (on CI: failed) only where PostgreSQL cannot run, saying why."""
    given = os.environ.get(pg.ENV_URL)
    if given:
        yield given
        return
    try:
        server = pg.local_server()
        url = server.__enter__()
    except pg.NoPostgres as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed on CI (.ci/run installs it): {exc}")
        pytest.skip(str(exc))
    try:
        yield url
    finally:
        server.__exit__(None, None, None)


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for this test, dropped after it."""
    url = pg.fresh_database(pg_server)
    yield url
    pg.drop_database(pg_server, url)


@pytest.fixture(params=["sqlite", "postgresql"])
def any_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a store lives: an SQLite file, then a PostgreSQL database (the same tests)."""
    if request.param == "sqlite":
        return tmp_path / "games.db"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def any_store(any_target: Path | str) -> Iterator[GameStore]:
    """A fresh GameStore on each backend."""
    store = GameStore(any_target)
    yield store
    store.close()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user of their own for a `serve` or `admin-link`: a home, a runtime folder, and no
    data folder, config, token or certificate set anywhere (nor systemd's journal)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "SCOREKEEPER_DATA_DIR", "SCOREKEEPER_CONFIG",
                 "SCOREKEEPER_ADMIN_TOKEN", "SCOREKEEPER_TLS_CERT", "SCOREKEEPER_TLS_KEY",
                 "INVOCATION_ID", "JOURNAL_STREAM"):
        monkeypatch.delenv(name, raising=False)
    return home
