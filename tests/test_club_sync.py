"""The club server's sync route, on SQLite and PostgreSQL: table tokens, and every batch a
table may send (new, resent, conflicting, ahead of the club, refused by the rules)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount
from test_club_sync_helpers import (  # noqa: F401  (club_fixture is the fixture `club`)
    bearer,
    club_fixture,
    club_game_ids,
    club_store,
    events,
    hand,
    setup,
)

from scorekeeper.web.http.auth import is_public, is_table_route
from tests.routes import all_routes

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ADMIN = bearer("admin")
SYNC = "/api/club/sync"


def add_table(client: TestClient, name: str) -> str:
    r = client.post("/api/club/tables", json={"name": name}, headers=ADMIN)
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def sync(client: TestClient, token: str, games: list[dict[str, Any]],
         evs: list[dict[str, Any]], status: int = 200) -> dict[str, Any]:
    r = client.post(SYNC, json={"games": games, "events": evs}, headers=bearer(token))
    assert r.status_code == status, r.text
    answer: dict[str, Any] = r.json()
    return answer


def acked(answer: dict[str, Any]) -> dict[int, int]:
    return {a["table_game_id"]: a["seq"] for a in answer["acked"]}


# ---- tokens ---------------------------------------------------------------------------------

def test_a_table_token_writes_only_its_own_games(club: TestClient) -> None:
    one, two = add_table(club, "table-1"), add_table(club, "table-2")
    sync(club, one, [setup(1)], events(1, range(1, 4)))
    sync(club, two, [setup(1, ("Cy", "Di"))], [])
    store = club_store(club)
    first, second = club_game_ids(store, "table-1")[1], club_game_ids(store, "table-2")[1]
    assert first != second
    # table-2's game 1 is its own: table-1's events never reach it, and the reverse
    answer = sync(club, two, [], events(1, [1]), status=422)  # Ann is not at table-2's game
    assert answer["problems"][0]["seq"] == 1
    assert store.get(first)["seq"] == 3 and store.get(second)["seq"] == 0
    assert [p["name"] for p in store.get(second)["players"]] == ["Cy", "Di"]


def test_table_tokens_open_the_sync_route_only(club: TestClient) -> None:
    token = add_table(club, "table-1")
    r = club.post("/api/club/tables", json={"name": "rogue"}, headers=bearer(token))
    assert r.status_code == 401
    assert club.post("/api/club/tables/table-1/token", headers=bearer(token)).status_code == 401
    assert club.get("/api/club/tables", headers=bearer(token)).status_code == 401
    assert club.post("/api/games", json={"variant": "rummy", "players": ["A", "B"]},
                     headers=bearer(token)).status_code == 401
    # and the admin token is no table's: it cannot sync
    r = club.post(SYNC, json={"games": [], "events": []}, headers=ADMIN)
    assert r.status_code == 401 and r.json()["detail"].startswith("table token required")


def test_unknown_and_rotated_tokens_are_refused(club: TestClient) -> None:
    old = add_table(club, "table-1")
    assert sync(club, old, [setup(1)], [])["acked"] == [{"table_game_id": 1, "seq": 0}]
    r = club.post("/api/club/tables/table-1/token", headers=ADMIN)
    assert r.status_code == 200
    new = r.json()["token"]
    for token in (old, "sk-table-guess", ""):
        r = club.post(SYNC, json={"games": [], "events": []}, headers=bearer(token))
        assert r.status_code == 401 and r.headers["WWW-Authenticate"] == "Bearer"
    assert acked(sync(club, new, [], events(1, [1]))) == {1: 1}
    assert club.post("/api/club/tables/nobody/token", headers=ADMIN).status_code == 404
    assert club.post("/api/club/tables", json={"name": "table-1"},
                     headers=ADMIN).status_code == 409
    assert club.post("/api/club/tables", json={"name": "../x"}, headers=ADMIN).status_code == 422


def test_only_a_hash_of_a_token_is_kept(club: TestClient) -> None:
    token = add_table(club, "table-1")
    with club_store(club).database.read() as tx:
        stored = tx.fetchall("SELECT token_hash FROM club_tables")
    assert stored and token not in str(stored)


def test_every_club_route_is_guarded(club: TestClient) -> None:
    """Deny by default holds on a club server: no route lets a request through bare."""
    table_routes = []
    for route in all_routes(club.app):
        if isinstance(route, Mount) or not isinstance(route, APIRoute):
            continue
        if not route.path.startswith("/api/club/") or is_public(route.endpoint):
            continue
        path = route.path.replace("{name}", "table-1")
        for method in route.methods:
            assert club.request(method, path, json={}).status_code == 401, route.path
        if is_table_route(route.endpoint):
            table_routes.append(route.path)
    assert table_routes == [SYNC]
    openapi = club.get("/openapi.json").json()
    assert openapi["paths"][SYNC]["post"]["security"] == [{"tableToken": []}]
    assert "tableToken" in openapi["components"]["securitySchemes"]


# ---- batches --------------------------------------------------------------------------------

def test_a_resent_batch_is_stored_once(club: TestClient) -> None:
    token = add_table(club, "table-1")
    batch = ([setup(1), setup(2)], events(1, range(1, 6)) + events(2, range(1, 3)))
    first = sync(club, token, *batch)
    again = sync(club, token, *batch)
    assert acked(first) == acked(again) == {1: 5, 2: 2}
    store = club_store(club)
    ids = club_game_ids(store, "table-1")
    assert [store.get(ids[t])["seq"] for t in (1, 2)] == [5, 2]
    assert len(store.games()) == 2
    # a batch overlapping what the club holds stores only the new events
    assert acked(sync(club, token, [setup(1)], events(1, range(3, 9)))) == {1: 8}
    assert store.events(ids[1]) == [hand(s) for s in range(1, 9)]


def test_a_differing_duplicate_is_a_409(club: TestClient) -> None:
    token = add_table(club, "table-1")
    sync(club, token, [setup(1), setup(2)], events(1, range(1, 3)))
    changed = events(1, [2])
    changed[0]["body"] = hand(99)
    answer = sync(club, token, [], changed + events(1, [3]) + events(2, [1]), status=409)
    assert answer["problems"] == [{"table_game_id": 1, "seq": 2, "status": 409,
                                   "detail": "event 2 of game 1: this event differs from the "
                                             "one the club already holds under the same seq"}]
    assert acked(answer) == {1: 2, 2: 1}  # game 1 stopped at the conflict, game 2 went on


def test_a_gap_answers_the_seq_the_club_expects(club: TestClient) -> None:
    token = add_table(club, "table-1")
    sync(club, token, [setup(1)], events(1, range(1, 3)))
    answer = sync(club, token, [], events(1, range(5, 7)))
    assert answer["expected"] == [{"table_game_id": 1, "seq": 3}]
    assert acked(answer) == {1: 2}
    assert acked(sync(club, token, [], events(1, range(3, 7)))) == {1: 6}


def test_events_of_a_game_the_club_does_not_know(club: TestClient) -> None:
    token = add_table(club, "table-1")
    answer = sync(club, token, [], events(7, [1, 2]))
    assert answer["unknown"] == [7] and answer["acked"] == []
    assert club_store(club).games() == []


def test_a_rules_refusal_is_a_422_naming_the_event(club: TestClient) -> None:
    token = add_table(club, "table-1")
    bad = events(1, [2])
    bad[0]["body"] = {"type": "correct", "n": 9, "players": hand(0)["players"]}
    answer = sync(club, token, [setup(1), setup(2)],
                  events(1, [1]) + bad + events(1, [3]) + events(2, [1, 2]), status=422)
    [problem] = answer["problems"]
    assert (problem["table_game_id"], problem["seq"], problem["status"]) == (1, 2, 422)
    assert problem["detail"].startswith("event 2 of game 1: the rules refuse it: there is no "
                                        "hand 9")
    assert acked(answer) == {1: 1, 2: 2}
    # a set-up the rules refuse is named as seq 0 and creates nothing
    answer = sync(club, token, [setup(3, ("Solo",))], [], status=422)
    assert answer["problems"][0]["seq"] == 0 and answer["acked"] == []
    assert len(club_store(club).games()) == 2


def test_a_crash_between_creating_and_mapping_a_game_adopts_it(club: TestClient) -> None:
    """The club game was committed, its mapping not (the server died between the two):
    the table's retry maps that game instead of making a second."""
    token = add_table(club, "table-1")
    store = club_store(club)
    with store.database.transaction() as tx:
        tx.execute("INSERT INTO club_creating (table_id, table_game_id, after_game_id)"
                   " VALUES (1, 1, 0)")
    orphan = store.create("rummy", ["Ann", "Bob"], {"target": 100_000})["id"]
    assert acked(sync(club, token, [setup(1)], events(1, [1]))) == {1: 1}
    assert club_game_ids(store, "table-1") == {1: orphan}
    assert len(store.games()) == 1
    with store.database.read() as tx:
        assert tx.fetchall("SELECT * FROM club_creating") == []


def test_the_club_tables_listing(club: TestClient) -> None:
    token = add_table(club, "table-2")
    add_table(club, "table-1")
    sync(club, token, [setup(1), setup(2)], [])
    rows = club.get("/api/club/tables", headers=ADMIN).json()
    assert [(r["name"], r["games"], r["last_seen"] is None) for r in rows] == [
        ("table-1", 0, True), ("table-2", 2, False)]
