"""The league on the club server: its players and seasons (on SQLite and PostgreSQL), the
routes (public reads, admin writes, clear refusals), the live tables and the big screen's
feed (one build per burst of changes, nothing sent when nothing changed)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.club.league import League, LeagueError, SeasonExists, UnknownSeason, new_season
from scorekeeper.club.league_board import Link, board, records
from scorekeeper.club.tables import Tables
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.store.database import Database
from scorekeeper.web.app import create_app
from scorekeeper.web.live.club_feed import ClubFeed
from scorekeeper.web.live.hub import Hub
from tests import pg

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "club-secret"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
OUT = [{"name": "Ann", "held": 0, "went_out": True}, {"name": "Bob", "held": 20}]


@pytest.fixture(scope="module", name="pg_server")
def pg_server_fixture() -> Iterator[str]:
    try:
        with pg.local_server() as url:
            yield url
    except pg.NoPostgres as why:
        pytest.skip(str(why))


@pytest.fixture(params=["sqlite", "postgresql"], name="store")
def store_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """The club's store on each backend (test_club_board_cache.py uses it too)."""
    if request.param == "sqlite":
        opened = GameStore(tmp_path / "club.db")
    else:
        server = request.getfixturevalue("pg_server")
        opened = GameStore(pg.fresh_database(server))
    yield opened
    opened.close()


def link_game(db: Database, table: str, game_id: int, started: str | None = None) -> None:
    """What the sync writes when a table's game reaches the club (club_games' columns)."""
    with db.transaction() as tx:
        row = tx.fetchone("SELECT id FROM club_tables WHERE name = ?", (table,))
        assert row is not None
        tx.execute("INSERT INTO club_games (table_id, table_game_id, game_id, created_at)"
                   " VALUES (?, ?, ?, ?)", (row[0], game_id, game_id, started))


# ---- players and seasons, on both databases ---------------------------------------------


def test_players_are_identities_whatever_the_case(store: GameStore) -> None:
    league = League(store.database)
    assert league.add_players(["Ann", " bob ", "Zoë"]) == (["Ann", "bob", "Zoë"], [])
    assert league.add_players(["ANN", "Cy"]) == (["Cy"], ["ANN"])
    assert league.players() == ["Ann", "bob", "Cy", "Zoë"]
    assert league.identities()["bob"] == "bob"
    with pytest.raises(LeagueError, match="a player's name cannot be empty"):
        league.add_players(["Dee", "  "])
    assert "Dee" not in league.players()  # all or nothing
    League(store.database)  # opening again migrates nothing twice


def test_seasons_are_checked_and_the_current_one_found(store: GameStore) -> None:
    league = League(store.database)
    league.add_season(new_season("Autumn", "2025-09-01", "2025-11-30", "points"))
    league.add_season(new_season("Sept cup", "2025-09-15", "2025-09-30"))
    assert [s.name for s in league.seasons()] == ["Sept cup", "Autumn"]
    assert league.season(None, on="2025-09-20").name == "Sept cup"  # type: ignore[union-attr]
    assert league.season(None, on="2025-10-01").name == "Autumn"  # type: ignore[union-attr]
    assert league.season(None, on="2026-01-01") is None
    assert league.season("all") is None
    with pytest.raises(UnknownSeason, match=r"no season named 'Spring'.*Sept cup, Autumn"):
        league.season("Spring")
    with pytest.raises(SeasonExists):
        league.add_season(new_season("Autumn", "2026-09-01", "2026-11-30"))


@pytest.mark.parametrize(("args", "message"), [
    (("All", "2025-01-01", "2025-02-01"), "'all' means every game"),
    (("X", "2025-02-01", "2025-01-01"), "ends \\(2025-01-01\\) before it starts"),
    (("X", "1/2/2025", "2025-03-01"), "starts must be a date like 2025-09-01"),
    (("X", "2025-01-01", "2025-02-30"), "ends must be a date"),
    (("X", "2025-01-01", "2025-02-01", "best"), "no ranking rule 'best'"),
    (("", "2025-01-01", "2025-02-01"), "a season's name cannot be empty"),
])
def test_a_bad_season_is_refused_in_words(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(LeagueError, match=message):
        new_season(*args)


# ---- the live tables: a pure view of the links and the games -----------------------------


def summary(gid: int, created: datetime, over: bool = False) -> dict[str, Any]:
    return {"id": gid, "variant": "chicago", "created_at": created.isoformat(timespec="seconds"),
            "seq": 3, "game_over": over, "winner": "Bob" if over else None, "leader": "Bob",
            "players": [{"name": "Ann", "total": 40, "eliminated": False},
                        {"name": "Bob", "total": 12, "eliminated": False}]}


def test_the_board_shows_each_tables_newest_recent_game() -> None:
    now = datetime(2025, 9, 5, 22, 0, tzinfo=UTC)
    games = [summary(1, now - timedelta(hours=2), over=True), summary(2, now - timedelta(hours=1)),
             summary(3, now - timedelta(hours=30)), summary(4, now - timedelta(minutes=5), True)]
    found = [Link("t2", 1, None), Link("t2", 2, None), Link("old", 3, None),
             Link("T1", 4, None)]
    synced = (now - timedelta(seconds=10)).isoformat(timespec="seconds")
    shown = board(found, games, now, {"t2": (synced, 3), "old": (synced, 0)})
    assert [(t["table"], t["game_id"], t["game_over"]) for t in shown] == [
        ("T1", 4, True), ("t2", 2, False)]
    assert shown[1] | {"players": None} == {
        "table": "t2", "game_id": 2, "variant": "chicago", "label": "Chicago Rummy",
        "low_wins": True, "seq": 3, "game_over": False, "winner": None, "leader": "Bob",
        "players": None, "state": "behind", "pending_events": 3, "last_seen": synced,
        "offline_since": None}
    # a table never heard from is offline, since no time at all
    assert (shown[0]["state"], shown[0]["offline_since"]) == ("offline", None)


def test_a_forwarded_game_counts_in_the_season_its_table_began_it() -> None:
    game = summary(7, datetime(2025, 9, 1, 0, 5, tzinfo=UTC), over=True)
    late = records([game], [Link("t1", 7, "2025-08-31T23:50:00+00:00")])
    assert late[0].created_at == "2025-08-31T23:50:00+00:00"
    assert records([game], [])[0].created_at == game["created_at"]


# ---- the routes ---------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, camera="none", club_server=True), token=TOKEN)
    with TestClient(app) as c:
        yield c


def finished_game(client: TestClient, variant: str = "rummy",
                  players: tuple[str, ...] = ("Ann", "Bob")) -> int:
    body = {"variant": variant, "players": list(players), "settings": {"hands": 1}}
    gid = int(client.post("/api/games", json=body, headers=ADMIN).json()["id"])
    hand = OUT + [{"name": name, "held": 5} for name in players[2:]]
    r = client.post(f"/api/games/{gid}/hands", json={"players": hand}, headers=ADMIN)
    assert r.status_code == 201 and r.json()["game_over"], r.text
    return gid


def test_reads_are_public_and_writes_need_the_admin_token(client: TestClient) -> None:
    for path in ("/api/club/players", "/api/club/seasons", "/api/club/standings",
                 "/api/club/live", "/club"):
        assert client.get(path).status_code == 200, path
    season = {"name": "Autumn", "starts": "2025-09-01", "ends": "2025-11-30"}
    for path, body in (("/api/club/players", {"names": ["Ann"]}), ("/api/club/seasons", season)):
        r = client.post(path, json=body)
        assert r.status_code == 401 and r.json()["detail"].startswith("admin token required")
        assert client.post(path, json=body, headers=ADMIN).status_code == 201
    assert client.get("/api/club/players").json() == {"players": ["Ann"]}
    assert client.get("/api/club/seasons").json()["seasons"] == [{**season, "ranking": "wins"}]


@pytest.mark.parametrize(("path", "body", "status", "detail"), [
    ("/api/club/players", {"names": []}, 422, "names: needs at least 1"),
    ("/api/club/players", {"names": ["Ann", "a\tb"]}, 422, "cannot hold control characters"),
    ("/api/club/players", {"names": "Ann"}, 422, "names"),
    ("/api/club/seasons", {"name": "S", "starts": "2025-09-01", "ends": "2025-08-01"}, 422,
     "the season ends (2025-08-01) before it starts (2025-09-01)"),
    ("/api/club/seasons", {"name": "S", "starts": "tomorrow", "ends": "2025-08-01"}, 422,
     "starts must be a date like 2025-09-01, got 'tomorrow'"),
    ("/api/club/seasons", {"name": "S", "starts": "2025-09-01", "ends": "2025-10-01",
                           "ranking": "luck"}, 422, "ranking"),
    ("/api/club/seasons", {"name": "all", "starts": "2025-09-01", "ends": "2025-10-01"}, 422,
     "'all' means every game"),
])
def test_bad_writes_are_refused_with_a_clear_4xx(client: TestClient, path: str,
                                                 body: Any, status: int, detail: str) -> None:
    r = client.post(path, json=body, headers=ADMIN)
    assert r.status_code == status, r.text
    assert detail in r.json()["detail"]


def test_a_season_named_twice_is_a_409(client: TestClient) -> None:
    season = {"name": "Autumn", "starts": "2025-09-01", "ends": "2025-11-30"}
    assert client.post("/api/club/seasons", json=season, headers=ADMIN).status_code == 201
    r = client.post("/api/club/seasons", json=season, headers=ADMIN)
    assert r.status_code == 409 and "already a season named 'Autumn'" in r.json()["detail"]


def test_standings_rank_club_players_and_show_guests(client: TestClient) -> None:
    client.post("/api/club/players", json={"names": ["ann", "Bob"]}, headers=ADMIN)
    finished_game(client)
    finished_game(client, players=("Ann", "Bob", "Eve"))  # Eve: a guest
    client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                headers=ADMIN)  # unfinished: not counted
    body = client.get("/api/club/standings").json()
    assert body["season"] is None and body["ranking"] == "wins"
    [rummy] = body["tables"]
    assert [(r["rank"], r["name"], r["played"], r["wins"]) for r in rummy["rows"]] == [
        (1, "ann", 2, 2), (2, "Bob", 2, 0), (None, "Eve", 1, 0)]
    by_points = client.get("/api/club/standings?ranking=points&variant=rummy").json()
    assert by_points["ranking"] == "points" and len(by_points["tables"]) == 1
    # a season running today counts today's games and is the default
    today = datetime.now(UTC).date().isoformat()
    season = {"name": "Tonight", "starts": today, "ends": today, "ranking": "average"}
    client.post("/api/club/seasons", json=season, headers=ADMIN)
    body = client.get("/api/club/standings").json()
    assert body["season"]["name"] == "Tonight" and body["ranking"] == "average"
    assert body["tables"][0]["rows"][0]["played"] == 2
    past = {"name": "Past", "starts": "2020-01-01", "ends": "2020-12-31"}
    client.post("/api/club/seasons", json=past, headers=ADMIN)
    assert client.get("/api/club/standings?season=Past").json()["tables"] == []
    assert client.get("/api/club/standings?season=all").json()["season"] is None


@pytest.mark.parametrize(("query", "status", "detail"), [
    ("season=Spring", 404, "no season named 'Spring'"),
    ("variant=poker", 422, "no variant 'poker'; the variants are: chicago, rummy"),
    ("ranking=luck", 422, "no ranking rule 'luck'; the rules are: wins, points, average"),
])
def test_bad_standings_queries_are_refused(client: TestClient, query: str, status: int,
                                           detail: str) -> None:
    r = client.get(f"/api/club/standings?{query}")
    assert r.status_code == status and detail in r.json()["detail"]
    if query.startswith("season"):
        assert client.get(f"/api/club/events?{query}").status_code == 404


def test_live_lists_the_tables_newest_games(client: TestClient) -> None:
    store: GameStore = client.app.state.parts.store  # type: ignore[attr-defined]
    Tables(store.database).add("table-1")
    Tables(store.database).add("table-2")
    gid = finished_game(client)
    playing = client.post("/api/games", json={"variant": "chicago", "players": ["Cy", "Dee"]},
                          headers=ADMIN).json()["id"]
    link_game(store.database, "table-1", gid)
    link_game(store.database, "table-2", playing)
    tables = client.get("/api/club/live").json()["tables"]
    assert [(t["table"], t["game_id"], t["game_over"], t["winner"]) for t in tables] == [
        ("table-1", gid, True, "Ann"), ("table-2", playing, False, None)]
    assert tables[1]["players"] == [{"name": "Cy", "total": 0, "eliminated": False},
                                    {"name": "Dee", "total": 0, "eliminated": False}]


def test_the_table_app_has_no_league(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, camera="none"), token=TOKEN)
    with TestClient(app) as c:
        assert c.get("/api/club/standings").status_code == 404
        assert c.get("/club").status_code == 404


# ---- the big screen's feed ----------------------------------------------------------------


def test_the_feed_builds_once_per_burst_and_sends_only_changes() -> None:
    async def scenario() -> tuple[list[str | None], list[dict[str, Any]], int]:
        hub = Hub()
        built: list[str | None] = []
        state = {"n": 0}

        def build(season: str | None) -> dict[str, Any]:
            built.append(season)
            return {"tables": [], "standings": {"n": state["n"]}}

        feed = ClubFeed(hub, build, debounce_s=0.05, refresh_s=60)
        channel = feed.channel(None)
        queue = hub.subscribe(channel)
        _, view = await feed.join(None)
        assert view["seq"] == 1 and view["id"] == channel < 0
        for gid in range(1, 31):  # thirty tables post a hand at once
            hub.publish({"id": gid, "seq": 1, "players": []})
        state["n"] = 1
        await asyncio.sleep(0.3)
        hub.publish({"id": 1, "seq": 2, "players": []})  # a change that changes nothing shown
        await asyncio.sleep(0.3)
        sent = []
        while not queue.empty():
            item = queue.get_nowait()
            assert item is not None
            sent.append(item)
        feed.leave(channel)
        hub.close()
        return built, [{"seq": s} for s, _ in sent], feed._watchers.get(channel, 0)

    built, sent, watching = asyncio.run(scenario())
    assert built == [None, None, None]  # join, the burst, the later change
    assert sent == [{"seq": 1}, {"seq": 2}]  # the join's view, then the burst's; no repeat
    assert watching == 0
