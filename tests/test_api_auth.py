"""Deny by default: every route not explicitly public refuses a request without the token."""

from __future__ import annotations

import stat
from importlib.metadata import version
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount

from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.http.auth import GuardedRoute, is_public, resolve_token
from tests.routes import all_routes

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PUBLIC = {
    ("GET", "/"),
    ("GET", "/api/health"),
    ("GET", "/api/session"),
    ("GET", "/api/addresses"),          # where other phones open the page, for Share
    ("GET", "/api/qr.svg"),
    ("GET", "/api/games"),
    ("GET", "/api/games/{game_id}"),
    ("GET", "/api/games/{game_id}/events"),
    ("GET", "/api/games/{game_id}/rules"),  # the rules sheet: as public as the game
    ("GET", "/api/camera"),             # camera state, as the page shows it
    ("GET", "/api/scans/{key}.jpg"),    # an annotated scan, by its unguessable id
    ("GET", "/api/variants"),           # the rules' data the page reads
    ("GET", "/api/decks"),              # the table's decks, for the new-game sheet
    ("POST", "/api/games/{game_id}/knock-check"),  # a player's private check: rate-limited
    ("GET", "/openapi.json"),           # the API's shape: no secret in it
    ("GET", "/api/club/players"),       # the club's names for a new game (club mode off: none)
    ("GET", "/api/table"),              # the game the table plays now, for a phone to follow
    ("GET", "/manifest.webmanifest"),   # to install the page: its name, icons, colours
    ("GET", "/sw.js"),                  # the page's service worker (the shell offline)
    ("GET", "/api/stats"),              # the players' statistics: as public as the games
    ("GET", "/tv"),                     # the TV's read-only scoreboard page
}
PUBLIC_MOUNTS = {"/static"}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Settings(data_dir=tmp_path), token="secret"))


def test_every_route_is_guarded_unless_listed_public(client: TestClient) -> None:
    seen_public: set[tuple[str, str]] = set()
    admin_routes = 0
    for route in all_routes(client.app):
        if isinstance(route, Mount):
            assert route.path in PUBLIC_MOUNTS, f"unexpected mount {route.path}"
            continue
        assert isinstance(route, GuardedRoute), f"{route} bypasses the guard"
        assert isinstance(route, APIRoute)
        for method in route.methods:
            key = (method, route.path)
            if is_public(route.endpoint):
                seen_public.add(key)
                continue
            path = route.path.replace("{game_id}", "1").replace("{n}", "1")
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "secret"}):
                r = client.request(method, path, headers=headers, json={})
                assert r.status_code == 401, f"{method} {route.path} answered {r.status_code}"
                assert r.json()["detail"].startswith("admin token required")
            admin_routes += 1
    assert seen_public == PUBLIC  # a route made public by mistake shows up here
    # the 7 game writes, scan, the live count (camera, photo), the camera snapshot, and 11
    # deck routes (confirm a scan,
    # adapt: start, progress, cancel; delete the learned examples; the learning switch;
    # enrol: the draft, discard it, a photo, its marked picture, save); the table's 5 (end,
    # delete, reopen, the dealer, the table's game)
    assert admin_routes == 27


def test_admin_routes_with_the_token_get_past_the_guard(client: TestClient) -> None:
    admin = {"Authorization": "Bearer secret"}
    r = client.post("/api/games/1/hands", json={"players": []}, headers=admin)
    assert r.status_code == 404


def test_token_file_is_created_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_ADMIN_TOKEN", raising=False)
    data = tmp_path / "data"
    token, created = resolve_token(Settings(data_dir=data))
    path = data / "admin_token"
    assert created and len(token) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().strip() == token
    assert resolve_token(Settings(data_dir=data)) == (token, False)  # kept across restarts
    app = create_app(Settings(data_dir=data))
    assert app.state.parts.admin_token == token


def test_env_token_wins_and_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_ADMIN_TOKEN", "from-env")
    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    assert resolve_token(Settings()) == ("from-env", False)
    assert not (tmp_path / "admin_token").exists()
    c = TestClient(create_app())
    admin = {"Authorization": "Bearer from-env"}
    assert c.get("/api/session", headers=admin).json() == {"admin": True}


def test_a_new_route_is_admin_only_until_marked_public(client: TestClient) -> None:
    app = client.app

    @app.get("/api/new-thing")  # type: ignore[attr-defined]
    def new_thing() -> dict[str, bool]:
        return {"ok": True}

    assert client.get("/api/new-thing").status_code == 401
    r = client.get("/api/new-thing", headers={"Authorization": "Bearer secret"})
    assert r.json() == {"ok": True}


def test_the_openapi_document_is_public_and_lists_every_route(client: TestClient) -> None:
    r = client.get("/openapi.json")  # no token
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    doc = r.json()
    assert doc["info"]["version"] == version("scorekeeper")  # the package's, as released
    listed = {(method.upper(), path) for path, ops in doc["paths"].items() for method in ops}
    routes = {(method, route.path) for route in all_routes(client.app)
              if isinstance(route, APIRoute) and route.include_in_schema
              for method in route.methods or ()}
    assert listed == routes and len(routes) == len(PUBLIC) - 1 + 27  # all but the document
    for method, path in listed:  # a guarded route says so: the bearer scheme and its 401
        op = doc["paths"][path][method.lower()]
        guarded = (method, path) not in PUBLIC
        assert ("401" in op["responses"]) == guarded, (method, path)
        assert (op.get("security") == [{"adminToken": []}]) == guarded, (method, path)
    assert doc["components"]["securitySchemes"]["adminToken"]["scheme"] == "bearer"
    assert client.get("/docs").status_code == 404  # the document is served, not the docs UI


# A club server adds the league's public reads and big screen, the club admin's writes, and
# the tables' sync (a table token, not the admin's: the sync's own tests cover it).
CLUB_PUBLIC = PUBLIC | {
    ("GET", "/club"),                   # the big screen
    ("GET", "/api/club/players"),       # the club's names, for a table's new game
    ("GET", "/api/club/seasons"),
    ("GET", "/api/club/standings"),
    ("GET", "/api/club/live"),          # every live table's scoreboard
    ("GET", "/api/club/events"),        # the big screen's stream
}
CLUB_ADMIN = {("POST", "/api/club/players"), ("POST", "/api/club/seasons"),
              ("GET", "/api/club/tables"), ("POST", "/api/club/tables"),
              ("POST", "/api/club/tables/{name}/token")}
CLUB_TABLE = {("POST", "/api/club/sync")}


def test_a_club_servers_routes_are_guarded_unless_listed_public(tmp_path: Path) -> None:
    club = TestClient(create_app(Settings(data_dir=tmp_path, club_server=True), token="secret"))
    public_routes: set[tuple[str, str]] = set()
    admin: set[tuple[str, str]] = set()
    for route in all_routes(club.app):
        if isinstance(route, Mount):
            continue
        assert isinstance(route, GuardedRoute), f"{route} bypasses the guard"
        for method in route.methods or ():
            key = (method, route.path)
            if is_public(route.endpoint):
                public_routes.add(key)
            elif key not in CLUB_TABLE and key[1].startswith("/api/club/"):
                r = club.request(method, route.path, json={},
                                 headers={"Authorization": "Bearer wrong"})
                assert r.status_code == 401, f"{method} {route.path} answered {r.status_code}"
                admin.add(key)
    assert public_routes == CLUB_PUBLIC
    assert admin == CLUB_ADMIN
