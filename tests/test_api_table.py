"""Ending a game, its dealer and the table's game, through the API: admin only, versioned
(If-Match), once per key (Idempotency-Key), undone by reopen, and kept in the event log."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from benchmarks.spawn import start_server
from scorekeeper.store import GameStore
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.routes.events import relay
from tests.apiclient import ADMIN, TOKEN
from tests.test_api_events import blocks, next_event

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

OUT = {"players": [{"name": "Ann", "hand": [], "went_out": True},
                   {"name": "Bob", "hand": ["3C", "KD"]}]}


def new_game(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"variant": "rummy500", "players": ["Ann", "Bob"], **extra}
    r = client.post("/api/games", json=body, headers=ADMIN)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def at(seq: int) -> dict[str, str]:
    return {**ADMIN, "If-Match": f'"{seq}"'}


def listed(client: TestClient) -> dict[int, str]:
    return {g["id"]: g["state"] for g in client.get("/api/games").json()}


def test_viewers_may_not_end_delete_reopen_deal_or_move_the_table(client: TestClient) -> None:
    gid = new_game(client)["id"]
    for method, path, body in [("POST", f"/api/games/{gid}/end", {"how": "finished"}),
                               ("DELETE", f"/api/games/{gid}", None),
                               ("POST", f"/api/games/{gid}/reopen", None),
                               ("PUT", f"/api/games/{gid}/dealer", {"player": "Bob"}),
                               ("PUT", "/api/table", {"game": gid})]:
        for headers in ({}, {"Authorization": "Bearer wrong"}):
            r = client.request(method, path, json=body, headers=headers)
            assert r.status_code == 401, (method, path, r.text)
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0  # nothing was written
    assert client.get("/api/table").json() == {"game": None}


def test_finish_then_undo_by_reopen_within_the_window(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN).status_code == 201
    r = client.post(f"/api/games/{gid}/end", json={"how": "finished"}, headers=at(1))
    assert r.status_code == 200 and r.headers["etag"] == '"2"'
    view = r.json()
    assert (view["state"], view["ended"], view["game_over"], view["winner"]) == \
        ("finished", "finished", True, "Ann")
    assert listed(client) == {gid: "finished"}
    r = client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    assert r.status_code == 409  # no hand in a finished game
    r = client.post(f"/api/games/{gid}/reopen", headers=at(2))  # the page's Undo
    assert r.status_code == 200 and r.json()["state"] == "in_play" and r.json()["winner"] is None
    assert client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN).status_code == 201
    r = client.post(f"/api/games/{gid}/end", json={"how": "abandoned"}, headers=ADMIN)
    assert r.json()["state"] == "abandoned" and r.json()["winner"] is None
    assert listed(client) == {gid: "abandoned"}
    r = client.post(f"/api/games/{gid}/end", json={"how": "paused"}, headers=ADMIN)
    assert r.status_code == 422


def test_a_deleted_game_is_hidden_kept_and_brought_back(client: TestClient) -> None:
    keep, gone = new_game(client)["id"], new_game(client)["id"]
    client.post(f"/api/games/{gone}/hands", json=OUT, headers=ADMIN)
    r = client.delete(f"/api/games/{gone}", headers=at(1))
    assert r.status_code == 200 and r.json()["state"] == "deleted"
    assert listed(client) == {keep: "in_play"}
    # kept: its page still answers (so the undo can reopen it), its hands all there
    assert client.get(f"/api/games/{gone}").json()["hands"][0]["n"] == 1
    assert client.delete(f"/api/games/{gone}", headers=ADMIN).status_code == 409  # already
    r = client.post(f"/api/games/{gone}/reopen", headers=at(2))
    assert r.status_code == 200 and r.json()["state"] == "in_play"
    assert listed(client) == {gone: "in_play", keep: "in_play"}
    assert client.delete("/api/games/99", headers=ADMIN).status_code == 404


def test_a_stale_if_match_ends_nothing(client: TestClient) -> None:
    gid = new_game(client)["id"]
    client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)  # seq 1
    for method, path, body in [("POST", f"/api/games/{gid}/end", {"how": "finished"}),
                               ("DELETE", f"/api/games/{gid}", None),
                               ("PUT", f"/api/games/{gid}/dealer", {"player": "Bob"})]:
        r = client.request(method, path, json=body, headers=at(0))
        assert r.status_code == 412, r.text
        assert r.json()["changes"] == ["hand 1 was saved from another phone"]
    client.post(f"/api/games/{gid}/end", json={"how": "finished"}, headers=at(1))
    r = client.post(f"/api/games/{gid}/reopen", headers=at(1))
    assert r.status_code == 412
    assert r.json()["changes"] == ["the game was finished from another phone"]
    assert client.get(f"/api/games/{gid}").json()["state"] == "finished"


def test_an_end_sent_twice_with_its_key_is_done_once(client: TestClient) -> None:
    gid = new_game(client)["id"]
    once = {**at(0), "Idempotency-Key": "end-1"}
    first = client.post(f"/api/games/{gid}/end", json={"how": "abandoned"}, headers=once)
    again = client.post(f"/api/games/{gid}/end", json={"how": "abandoned"}, headers=once)
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json() and client.get(f"/api/games/{gid}").json()["seq"] == 1
    other = client.post(f"/api/games/{gid}/end", json={"how": "finished"}, headers=once)
    assert other.status_code == 422  # the same key for another request


def test_the_dealer_is_named_at_creation_moves_left_and_follows_undo(client: TestClient) -> None:
    view = new_game(client, dealer="bob")
    gid = view["id"]
    assert view["dealer"] == "Bob" and view["seq"] == 1  # its first event
    client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    assert client.get(f"/api/games/{gid}").json()["dealer"] == "Ann"
    client.delete(f"/api/games/{gid}/hands/last", headers=ADMIN)
    assert client.get(f"/api/games/{gid}").json()["dealer"] == "Bob"
    r = client.put(f"/api/games/{gid}/dealer", json={"player": "Ann"}, headers=at(3))
    assert r.status_code == 200 and r.json()["dealer"] == "Ann"
    r = client.put(f"/api/games/{gid}/dealer", json={"player": "Zed"}, headers=ADMIN)
    assert r.status_code == 422
    before = len(client.get("/api/games").json())
    r = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"],
                                        "dealer": "Zed"}, headers=ADMIN)
    assert r.status_code == 422 and len(client.get("/api/games").json()) == before


def test_a_new_store_replays_the_same_game(client: TestClient, tmp_path: Path) -> None:
    gid = new_game(client, dealer="Bob")["id"]
    client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    client.post(f"/api/games/{gid}/end", json={"how": "abandoned"}, headers=ADMIN)
    client.post(f"/api/games/{gid}/reopen", headers=ADMIN)
    client.delete(f"/api/games/{gid}", headers=ADMIN)
    served = client.get(f"/api/games/{gid}").json()
    store: GameStore = client.app.state.parts.store  # type: ignore[attr-defined]
    kinds = [e["type"] for e in store.events(gid)]
    assert kinds == ["dealer", "hand", "end", "reopen", "end"]
    fresh = GameStore(store.database)  # no cache: every event replayed
    assert fresh.get(gid) == served and fresh.games() == []


def test_the_table_game_is_told_to_the_phones_of_other_games(client: TestClient) -> None:
    one, two = new_game(client)["id"], new_game(client)["id"]
    assert client.put("/api/table", json={"game": 99}, headers=ADMIN).status_code == 404
    r = client.put("/api/table", json={"game": one}, headers=ADMIN)
    assert r.status_code == 200 and r.json() == {"game": one}
    assert client.get("/api/table").json() == {"game": one}
    assert client.put("/api/table", json={"game": "1"}, headers=ADMIN).status_code == 422
    hub: Hub = client.app.state.parts.hub  # type: ignore[attr-defined]
    assert hub.table_game == one and not hub.move_table(one)  # the same game: nobody told
    assert client.put("/api/table", json={"game": two}, headers=ADMIN).json() == {"game": two}


def test_the_live_stream_tells_a_phone_where_the_table_went(tmp_path: Path) -> None:
    """On the real server: a phone on game 1 hears the table move to game 2, and a phone
    that opens game 1 afterwards hears it at once, after the game's own snapshot."""
    srv = start_server(tmp_path / "games.db", tmp_path, TOKEN, keepalive_s=0.3)
    try:
        with httpx.Client(base_url=srv.url, timeout=5) as c:
            one, two = (c.post("/api/games", json={"variant": "rummy", "players": ["A", "B"]},
                               headers=ADMIN).json()["id"] for _ in range(2))
            with c.stream("GET", f"/api/games/{one}/events") as r:
                it = blocks(r)
                assert json.loads(next_event(it)["data"])["id"] == one
                c.put("/api/table", json={"game": two}, headers=ADMIN)
                told = next_event(it)
                assert told["event"] == "table" and json.loads(told["data"]) == {"game": two}
                assert "id" not in told  # no version of the game: Last-Event-ID stays
            with c.stream("GET", f"/api/games/{one}/events") as r:
                it = blocks(r)
                assert json.loads(next_event(it)["data"])["id"] == one
                assert json.loads(next_event(it)["data"]) == {"game": two}
            with c.stream("GET", f"/api/games/{two}/events") as r:  # the table's own game
                it = blocks(r)
                assert json.loads(next_event(it)["data"])["id"] == two
                assert "keep-alive" in next(b for b in it if "comments" in b)["comments"]
    finally:
        srv.stop()


def test_a_table_message_reaches_a_phone_whatever_its_seq() -> None:
    """The hub hands `table` events to every game's stream, past the seq filter."""
    async def run() -> list[str]:
        hub = Hub()
        queue = hub.subscribe(1)
        club = hub.subscribe(0)  # a club channel: no game, no notice
        assert hub.move_table(2)
        hub.close()
        got = [m async for m in relay(queue, sent=10**6, keepalive=5)]
        assert club.get_nowait() is None
        return got
    got = asyncio.run(run())
    assert got == ['event: table\ndata: {"game": 2}\n\n']
    assert json.loads(got[0].split("data: ")[1]) == {"game": 2}
