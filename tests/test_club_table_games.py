"""A forwarded game is its table's: the club's game API refuses to write it (409, naming the
table), so the table's log never meets a conflicting event at the club. And a game's set-up
as created (GameStore.setup), which is what the table sends the club."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from test_club_sync_helpers import TARGET, bearer, club_game_ids, events, hand, setup

from scorekeeper.club.outbox import Due, Outbox
from scorekeeper.settings import Settings
from scorekeeper.store import GameNotFound, GameStore
from scorekeeper.web.app import create_app
from tests.routes import all_routes

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ADMIN = bearer("admin")
# the game routes that write a game: each goes through web/live/writes.py's GameWriter, which asks
# the club's game_owner first
GAME_WRITES = {("POST", "/api/games/{game_id}/hands"), ("PUT", "/api/games/{game_id}/hands/{n}"),
               ("DELETE", "/api/games/{game_id}/hands/last"),
               ("PUT", "/api/games/{game_id}/settings"), ("POST", "/api/games/{game_id}/rename"),
               ("POST", "/api/games/{game_id}/end"), ("DELETE", "/api/games/{game_id}"),
               ("POST", "/api/games/{game_id}/reopen"), ("PUT", "/api/games/{game_id}/dealer")}
# the game routes that write nothing: the preview, a scan's reading, a private knock check,
# the live count of a viewfinder's frame
READS = {("POST", "/api/games/{game_id}/preview"), ("POST", "/api/games/{game_id}/scan"),
         ("POST", "/api/games/{game_id}/knock-check"), ("POST", "/api/games/{game_id}/count")}


@pytest.fixture
def club(any_target: Path | str, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "club", db=str(any_target), club_server=True,
                        camera="none")
    with TestClient(create_app(settings, token="admin")) as client:
        yield client


def forwarded_game(club: TestClient) -> int:
    """table-07's game 3, with two hands, as the club holds it; its club game id."""
    token = club.post("/api/club/tables", json={"name": "table-07"}, headers=ADMIN).json()["token"]
    r = club.post("/api/club/sync", json={"games": [setup(3)], "events": events(3, [1, 2])},
                  headers=bearer(token))
    assert r.status_code == 200, r.text
    store: GameStore = club.app.state.parts.store  # type: ignore[attr-defined]
    return club_game_ids(store, "table-07")[3]


def test_the_club_refuses_to_score_a_tables_game(club: TestClient) -> None:
    gid = forwarded_game(club)
    hand_body = {"players": hand(9)["players"]}
    writes = [("POST", f"/api/games/{gid}/hands", hand_body),
              ("PUT", f"/api/games/{gid}/hands/1", hand_body),
              ("DELETE", f"/api/games/{gid}/hands/last", None),
              ("PUT", f"/api/games/{gid}/settings", {"settings": {"target": 500}}),
              ("POST", f"/api/games/{gid}/rename", {"old": "Bob", "new": "Rob"}),
              ("POST", f"/api/games/{gid}/end", {"how": "abandoned"}),
              ("DELETE", f"/api/games/{gid}", None),
              ("POST", f"/api/games/{gid}/reopen", None),
              ("PUT", f"/api/games/{gid}/dealer", {"player": "Bob"})]
    for method, path, body in writes:
        r = club.request(method, path, json=body, headers=ADMIN)
        assert r.status_code == 409, (method, path, r.text)
        assert r.json()["detail"] == (f"game {gid} is table-07's (its game 3 there); "
                                      f"score it at that table")
        assert club.request(method, path, json=body).status_code == 401  # the guard first
    assert club.get(f"/api/games/{gid}").json()["seq"] == 2  # nothing written
    # reading it, and previewing a hand, stay open
    assert club.post(f"/api/games/{gid}/preview", json=hand_body, headers=ADMIN).status_code \
        == 200
    # the table itself goes on sending it
    token = club.post("/api/club/tables/table-07/token", headers=ADMIN).json()["token"]
    r = club.post("/api/club/sync", json={"games": [], "events": events(3, [3])},
                  headers=bearer(token))
    assert r.status_code == 200 and club.get(f"/api/games/{gid}").json()["seq"] == 3


def test_a_game_begun_at_the_club_is_scored_there(club: TestClient) -> None:
    forwarded_game(club)
    r = club.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"],
                                      "settings": TARGET}, headers=ADMIN)
    gid = r.json()["id"]
    r = club.post(f"/api/games/{gid}/hands", json={"players": hand(1)["players"]},
                  headers=ADMIN)
    assert r.status_code == 201
    assert club.post("/api/games/999/hands", json={"players": hand(1)["players"]},
                     headers=ADMIN).status_code == 404


def test_every_game_write_is_in_the_guards_list(club: TestClient) -> None:
    """A new write route on a game must be named in GAME_WRITES, and write through the
    GameWriter (or be in READS if it writes nothing), else the club would let it write a
    table's game."""
    routes = {(method, route.path) for route in all_routes(club.app)
              if isinstance(route, APIRoute) and route.path.startswith("/api/games/{game_id}")
              for method in route.methods or () if method != "GET"}
    assert routes == GAME_WRITES | READS


def test_setup_is_the_game_as_created(any_store: GameStore) -> None:
    gid = any_store.create("rummy", ["Ann", "Bob"], TARGET, "bicycle")["id"]
    any_store.append(gid, hand(1))
    any_store.append(gid, {"type": "rename", "old": "Bob", "new": "Rob"})
    any_store.append(gid, {"type": "settings", "settings": {"target": 300}})
    created = any_store.get(gid)["created_at"]
    assert any_store.setup(gid) == {"id": gid, "variant": "rummy", "players": ["Ann", "Bob"],
                                    "settings": TARGET, "deck": "bicycle",
                                    "created_at": created}
    plain = any_store.create("chicago", ["Ann", "Bob"])["id"]
    assert any_store.setup(plain)["settings"] is None and any_store.setup(plain)["deck"] is None
    for missing in (0, plain + 1, 2**63):
        with pytest.raises(GameNotFound):
            any_store.setup(missing)


def test_the_outbox_sends_the_set_up_as_created(tmp_path: Path) -> None:
    table = GameStore(tmp_path / "table.db")
    try:
        outbox = Outbox(table)
        gid = table.create("rummy", ["Ann", "Bob"], TARGET)["id"]
        table.append(gid, hand(1))
        table.append(gid, {"type": "rename", "old": "Bob", "new": "Rob"})
        table.append(gid, hand(2) | {"players": [{"name": "Ann", "hand": [], "went_out": True},
                                                 {"name": "Rob", "hand": ["KC"]}]})
        assert outbox.due() == [Due(gid, 3, False, 0)]
        batch = outbox.batch(outbox.due(), 2)
        assert batch["games"] == [{"table_game_id": gid, "variant": "rummy",
                                   "players": ["Ann", "Bob"], "settings": TARGET, "deck": None,
                                   "created_at": table.get(gid)["created_at"]}]
        assert [(e["seq"], e["body"]) for e in batch["events"]] == \
            list(enumerate(table.events(gid)[:2], start=1))
        later = outbox.batch([Due(gid, 3, True, 2)], 200)
        assert later["games"] == [] and [e["seq"] for e in later["events"]] == [3]
        assert later["events"][0]["body"] == table.events(gid)[2]
    finally:
        table.close()
