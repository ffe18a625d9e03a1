"""`GET /api/club/players` on a table: the club's players for the new-game sheet, asked of
the club with the table's token and kept in the data folder, so a table whose club is away
still offers them (saying how old they are); outside club mode it says club mode is off."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from test_club_sync_helpers import bearer

from scorekeeper.club.forwarder import Unreachable
from scorekeeper.club.roster import CACHE_NAME, FRESH_S, RETRY_S, Roster
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
CLUB_URL = "http://club.local:8000"
PATH = "/api/club/players"


class ClubLink:
    """The table's GET to the club, through the club's app, cut when `up` is False."""

    def __init__(self, club: TestClient) -> None:
        self.club, self.up, self.asked = club, True, 0
        self.tokens: list[str] = []

    def __call__(self, url: str, token: str, timeout: float) -> tuple[int, Any]:
        self.asked += 1
        self.tokens.append(token)
        if not self.up:
            raise Unreachable("the club server cannot be reached: [Errno 111] refused")
        r = self.club.get(urlsplit(url).path, headers=bearer(token))
        return r.status_code, r.json()


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Club:
    client: TestClient
    token: str  # table-07's


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    settings = Settings(data_dir=tmp_path / "club", club_server=True, camera="none")
    with TestClient(create_app(settings, token="admin")) as client:
        r = client.post("/api/club/players", json={"names": ["Bruno", "ana", "Carla Dias"]},
                        headers=bearer("admin"))
        assert r.status_code == 201
        r = client.post("/api/club/tables", json={"name": "table-07"}, headers=bearer("admin"))
        yield Club(client, r.json()["token"])


def table_app(tmp_path: Path, club: Club | None) -> tuple[TestClient, Roster | None]:
    """A table (in club mode when `club` is given) whose link to the club is a ClubLink and
    whose roster's clock is a Clock; the app's lifespan (the forwarder) is not run."""
    extra: dict[str, Any] = {}
    if club is not None:
        extra = {"club_url": CLUB_URL, "club_token": club.token}
    app = create_app(Settings(data_dir=tmp_path / "table", camera="none", **extra),
                     token="table-admin")
    OPEN.append(app.state.parts.store)
    roster: Roster | None = app.state.parts.roster
    if roster is not None and club is not None:
        roster.fetch, roster.clock = ClubLink(club.client), Clock()
    return TestClient(app), roster


OPEN: list[GameStore] = []  # the tables' stores, closed after each test


@pytest.fixture(autouse=True)
def close_tables() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def link_of(roster: Roster | None) -> ClubLink:
    assert roster is not None and isinstance(roster.fetch, ClubLink)
    return roster.fetch


def clock_of(roster: Roster | None) -> Clock:
    assert roster is not None and isinstance(roster.clock, Clock)
    return roster.clock


def test_in_club_mode_the_table_offers_the_clubs_players(club: Club,
                                                          tmp_path: Path) -> None:
    table, roster = table_app(tmp_path, club)
    r = table.get(PATH)  # public: any phone at the table
    assert r.status_code == 200
    body = r.json()
    assert body["club"] is True and body["fresh"] is True and body["problem"] is None
    assert body["players"] == ["ana", "Bruno", "Carla Dias"]
    assert body["age_s"] == 0
    assert datetime.fromisoformat(body["fetched_at"]) <= datetime.now(UTC)
    link = link_of(roster)
    assert link.tokens == [club.token]  # asked with the table's token
    kept = json.loads((tmp_path / "table" / CACHE_NAME).read_text())
    assert kept["players"] == body["players"] and kept["club"] == CLUB_URL
    # within FRESH_S the club is not asked again; after it, a player added there shows
    assert table.get(PATH).json()["players"] == body["players"] and link.asked == 1
    club.client.post("/api/club/players", json={"names": ["Duarte"]}, headers=bearer("admin"))
    clock_of(roster).t += FRESH_S
    assert table.get(PATH).json()["players"] == ["ana", "Bruno", "Carla Dias", "Duarte"]
    assert link.asked == 2


def test_with_the_club_away_the_kept_list_is_offered_with_its_age(
        club: Club, tmp_path: Path) -> None:
    table, roster = table_app(tmp_path, club)
    assert table.get(PATH).json()["fresh"] is True
    link, clock = link_of(roster), clock_of(roster)
    link.up = False
    clock.t += FRESH_S
    body = table.get(PATH).json()
    assert body["club"] is True and body["fresh"] is False
    assert body["players"] == ["ana", "Bruno", "Carla Dias"]
    assert "cannot be reached" in body["problem"]
    assert link.asked == 2
    # a failed club is not asked again for RETRY_S: the phone never waits on it twice
    table.get(PATH)
    assert link.asked == 2
    clock.t += RETRY_S
    table.get(PATH)
    assert link.asked == 3

    # the table restarted an hour later, the club still away: the list from disk, its age
    cache = tmp_path / "table" / CACHE_NAME
    kept = json.loads(cache.read_text())
    kept["fetched_at"] = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="seconds")
    cache.write_text(json.dumps(kept))
    OPEN.pop().close()
    again, roster = table_app(tmp_path, club)
    link_of(roster).up = False
    body = again.get(PATH).json()
    assert body["players"] == ["ana", "Bruno", "Carla Dias"] and body["fresh"] is False
    assert 3590 <= body["age_s"] <= 3660 and body["fetched_at"] == kept["fetched_at"]
    # and when the club is back, the list is fresh again
    link_of(roster).up = True
    clock_of(roster).t += RETRY_S
    body = again.get(PATH).json()
    assert body["fresh"] is True and body["age_s"] == 0 and body["problem"] is None


def test_no_list_yet_and_the_club_away(club: Club, tmp_path: Path) -> None:
    table, roster = table_app(tmp_path, club)
    link_of(roster).up = False
    body = table.get(PATH).json()
    assert body == {"club": True, "players": [], "fetched_at": None, "age_s": None,
                    "fresh": False, "problem": body["problem"]}
    assert "cannot be reached" in body["problem"]


def test_another_clubs_list_is_not_offered(club: Club, tmp_path: Path) -> None:
    """A table moved to another club never offers the old club's players, even offline."""
    cache = tmp_path / "table" / CACHE_NAME
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps({"club": "http://old-club:8000", "players": ["Zed"],
                                 "fetched_at": "2026-01-01T20:00:00+00:00"}))
    table, roster = table_app(tmp_path, club)
    link_of(roster).up = False
    assert table.get(PATH).json()["players"] == []


def test_a_refused_token_is_said(club: Club, tmp_path: Path) -> None:
    table, roster = table_app(tmp_path, club)
    assert roster is not None
    roster.fetch = lambda url, token, timeout: (401, {"detail": "table token required"})
    body = table.get(PATH).json()
    assert body["problem"] == "the club refused this table's token" and body["players"] == []


def test_outside_club_mode_the_route_says_so(tmp_path: Path) -> None:
    table, roster = table_app(tmp_path, None)
    assert roster is None
    r = table.get(PATH)
    assert r.status_code == 200
    body = r.json()
    assert body["club"] is False and body["players"] == [] and body["fetched_at"] is None
    assert "club mode is off" in body["problem"]
    assert not (tmp_path / "table" / CACHE_NAME).exists()
