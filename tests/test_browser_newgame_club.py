"""The new-game sheet at a table in club mode, on a 390×844 phone in Debian's Chromium
against a real club server and table server: the club's players offered to tap and as
suggestions while a name is typed, each row marked club player or guest, the game created
with the club's spellings (and forwarded to the club); with the club away, the list the
table kept, with its age; outside club mode, none of it. Readable (axe) and screenshotted.
Run: `.venv/bin/python -m pytest tests/test_browser_newgame_club.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from benchmarks.spawn import free_port
from scorekeeper.club.league import League
from scorekeeper.club.roster import CACHE_NAME
from scorekeeper.club.tables import Tables
from scorekeeper.store import GameStore
from tests.test_browser import (  # noqa: F401  (browser is a fixture)
    TOKEN,
    Phone,
    Server,
    axe_problems,
    browser,
    expect,
    open_phone,
    shot,
)

pytestmark = pytest.mark.browser

MEMBERS = ["Ana", "Bruno", "Carla Dias", "Duarte", "Eva", "Filipe", "Gil", "Helena", "Inês",
           "Joana", "João", "Lara", "Miguel", "Nuno"]


def start(srv: Server, monkeypatch: pytest.MonkeyPatch, **env: str) -> Server:
    """Start `srv` with these SCOREKEEPER_* variables (each server its own)."""
    srv.data_dir.mkdir(exist_ok=True)
    with monkeypatch.context() as m:
        for name, value in env.items():
            m.setenv(f"SCOREKEEPER_{name}", value)
        srv.start()
    return srv


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, str]]:
    """A club server with its players, and table-07's token."""
    srv = Server(tmp_path / "club")
    srv.data_dir.mkdir()
    store = GameStore(srv.data_dir / "scorekeeper.db")
    League(store.database).add_players(MEMBERS)
    token = Tables(store.database).add("table-07")
    store.close()
    start(srv, monkeypatch, CLUB_SERVER="true")
    yield srv, token
    srv.stop()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for srv in started:
        srv.stop()


@pytest.fixture
def phone(browser: Any) -> Iterator[list[Phone]]:
    opened: list[Phone] = []
    yield opened
    for ph in opened:
        assert ph.errors == [], f"JavaScript errors: {ph.errors}"
        ph.page.context.close()


def open_sheet(browser: Any, table: Server, opened: list[Phone]) -> Phone:
    admin = open_phone(browser, f"{table.url}/#token={TOKEN}")
    opened.append(admin)
    admin.tid("empty-new-game").click()
    expect(admin.tid("newgame-sheet")).to_be_visible()
    return admin


def chip(admin: Phone, name: str) -> Any:
    return admin.tid("newgame-roster").get_by_role("button", name=name, exact=True)


def test_club_players_are_picked_and_guests_marked(
        browser: Any, club: tuple[Server, str], servers: list[Server], phone: list[Phone],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    club_srv, token = club
    table = start(Server(tmp_path / "table"), monkeypatch, CLUB_URL=club_srv.url,
                  CLUB_TOKEN=token)
    servers.append(table)
    admin = open_sheet(browser, table, phone)
    roster = admin.tid("newgame-roster")
    expect(roster).to_be_visible()
    expect(admin.tid("roster-age")).to_have_text("Club list updated just now")
    expect(roster).to_contain_text("…and 2 more: type a name to find them.")
    expect(admin.tid("add-player")).to_have_text("+ Add a guest")

    chip(admin, "Ana").click()  # a tap fills the first empty row
    expect(admin.tid("player-input-0")).to_have_value("Ana")
    expect(admin.tid("player-who-0")).to_have_text("Club")
    expect(chip(admin, "Ana")).to_have_count(0)  # seated: no longer offered

    admin.tid("player-input-1").fill("jo")  # typing: the matching club players
    expect(roster).to_contain_text("Club players matching “jo”")
    expect(admin.page.locator("[data-testid=roster-chip]")).to_have_count(2)
    expect(admin.tid("player-who-1")).to_have_text("Guest")  # not a club name (yet)
    shot(admin, "newgame-club-typing.png")
    chip(admin, "João").click()
    expect(admin.tid("player-input-1")).to_have_value("João")
    expect(admin.tid("player-who-1")).to_have_text("Club")

    admin.tid("add-player").click()  # a guest: any other name
    admin.tid("player-input-2").fill("Visitor")
    expect(admin.tid("player-who-2")).to_have_text("Guest")
    admin.tid("add-player").click()
    admin.tid("player-input-3").fill("carla dias")  # a club player, typed in lower case
    expect(admin.tid("player-who-3")).to_have_text("Club")
    admin.tid("player-input-3").blur()
    admin.tid("newgame-roster").scroll_into_view_if_needed()
    assert axe_problems(admin) == []
    path = shot(admin, "newgame-club-players.png")

    admin.tid("create-game").click()
    expect(admin.tid("newgame-sheet")).to_be_hidden()
    games = table.api("GET", "/api/games")
    names = [p["name"] for p in games[0]["players"]]
    assert names == ["Ana", "João", "Visitor", "Carla Dias"]  # the club's spellings
    # the table forwards it: the club's screen shows table-07's game with the same names
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        tables = club_srv.api("GET", "/api/club/live")["tables"]
        if tables:
            break
        time.sleep(0.2)
    assert [p["name"] for p in tables[0]["players"]] == names and tables[0]["table"] == "table-07"
    assert path.is_file()


def test_with_the_club_away_the_table_offers_the_list_it_kept(
        browser: Any, servers: list[Server], phone: list[Phone], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    gone = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    table = Server(tmp_path / "table")
    table.data_dir.mkdir()
    fetched = (datetime.now(UTC) - timedelta(hours=2)).isoformat(timespec="seconds")
    (table.data_dir / CACHE_NAME).write_text(json.dumps(
        {"club": gone, "fetched_at": fetched, "players": MEMBERS[:6]}))
    servers.append(start(table, monkeypatch, CLUB_URL=gone, CLUB_TOKEN="sk-table-x"))
    admin = open_sheet(browser, table, phone)
    expect(admin.tid("roster-age")).to_have_text("Club list updated 2 h ago, kept at this table")
    expect(admin.tid("roster-away")).to_be_visible()
    expect(admin.page.locator("[data-testid=roster-chip]")).to_have_count(6)
    chip(admin, "Bruno").click()
    expect(admin.tid("player-who-0")).to_have_text("Club")
    assert axe_problems(admin) == []
    shot(admin, "newgame-club-away.png")


def test_outside_club_mode_the_sheet_is_as_at_home(
        browser: Any, servers: list[Server], phone: list[Phone], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = start(Server(tmp_path / "table"), monkeypatch)
    servers.append(table)
    admin = open_sheet(browser, table, phone)
    admin.tid("player-input-0").fill("Ana")
    expect(admin.tid("add-player")).to_have_text("+ Add player")
    admin.page.wait_for_timeout(300)  # the club list's answer (club mode off) has come
    expect(admin.tid("newgame-roster")).to_be_hidden()
    expect(admin.tid("player-who-0")).to_be_hidden()


def test_a_sheet_left_open_shows_the_clubs_list_as_it_changes(
        browser: Any, servers: list[Server], phone: list[Phone], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's answers are stood in for (the table itself asks its club once a minute,
    test_club_roster.py); the page's clock is run on instead of waited for."""
    table = start(Server(tmp_path / "table"), monkeypatch)
    servers.append(table)
    fetched = datetime.now(UTC).isoformat(timespec="seconds")
    answer = {"club": True, "players": MEMBERS[:3], "fetched_at": fetched, "age_s": 0,
              "fresh": True, "problem": None}
    asked: list[str] = []

    def club_list(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(json=answer)

    admin = open_phone(browser, f"{table.url}/#token={TOKEN}")
    phone.append(admin)
    admin.page.route("**/api/club/players", club_list)
    admin.page.clock.install()
    admin.tid("empty-new-game").click()
    expect(admin.page.locator("[data-testid=roster-chip]")).to_have_count(3)
    admin.tid("player-input-1").fill("Zoe")  # not a club player yet
    expect(admin.tid("player-who-1")).to_have_text("Guest")
    admin.tid("player-input-0").fill("Ev")  # a name being typed when the list changes

    answer = {**answer, "players": [*MEMBERS[:3], "Eva", "Zoe"]}  # the club adds two
    admin.page.clock.run_for(31_000)
    expect(admin.tid("newgame-roster")).to_contain_text("Club players matching “Ev”")
    expect(chip(admin, "Eva")).to_be_visible()
    expect(admin.tid("player-who-1")).to_have_text("Club")
    expect(admin.tid("player-input-0")).to_be_focused()
    expect(admin.tid("player-input-0")).to_have_value("Ev")

    admin.tid("newgame-close").click()  # closed: no more asking
    expect(admin.tid("newgame-sheet")).to_be_hidden()
    before = len(asked)
    admin.page.clock.run_for(95_000)
    assert len(asked) == before
