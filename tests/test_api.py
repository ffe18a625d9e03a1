"""The HTTP contract: every route, both roles, and each error as a 4xx that stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.rules import Game
from tests.apiclient import ADMIN, TOKEN

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def hand(ann: str, bob: str) -> dict[str, Any]:
    """A Chicago hand body where Ann knocks; each argument is space-separated cards."""
    return {
        "players": [
            {"name": "Ann", "hand": ann.split(), "knocked": True},
            {"name": "Bob", "hand": bob.split()},
        ]
    }


H1 = hand("AH 2H 3H 4C 4D 4S 5C", "KC QD JS 9H 8H 7C 6D")
H2 = hand("5H 6H 7H 9C 9D 9S AC", "3C 4C 5C JD JS JH 2D")
H3 = hand("KH KD KS 3D 4D 5D 2S", "AS AD 7S 8S 9S QC QH")
BOB_1 = "KC QD JS 9H 8H 7C 6D"


def new_game(client: TestClient, variant: str = "chicago", **settings: Any) -> int:
    body = {"variant": variant, "players": ["Ann", "Bob"], "settings": settings}
    r = client.post("/api/games", json=body, headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def post_hand(client: TestClient, gid: int, body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/hands", json=body, headers=ADMIN)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def replay(*hands: dict[str, Any]) -> dict[str, Any]:
    game = Game("chicago", ["Ann", "Bob"])
    for h in hands:
        game.apply({"type": "hand", **h})
    return game.snapshot()


def same_scores(view: dict[str, Any], snap: dict[str, Any]) -> None:
    assert view["players"] == snap["players"]
    assert view["hands"] == snap["hands"]
    assert (view["game_over"], view["winner"]) == (snap["game_over"], snap["winner"])


def test_create_list_get(client: TestClient) -> None:
    r = client.post(
        "/api/games",
        json={"variant": "chicago", "players": ["Ann", "Bob"], "settings": {"knock_penalty": 10}},
        headers=ADMIN,
    )
    assert r.status_code == 201
    game = r.json()
    assert game["id"] == 1 and game["seq"] == 0 and game["settings"]["knock_penalty"] == 10
    second = new_game(client, "rummy500")
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [second, 1]
    assert {"id", "variant", "players", "game_over", "winner", "created_at"} <= set(listed[0])
    got = client.get("/api/games/1").json()
    assert got == game


def test_hand_result_and_totals(client: TestClient) -> None:
    gid = new_game(client)
    result = post_hand(client, gid, H1)
    assert result["n"] == 1 and result["seq"] == 1
    assert [p["total"] for p in result["players"]] == [5, 60]
    assert result["knock"]["legal"] is True
    view = client.get(f"/api/games/{gid}").json()
    assert view["seq"] == 1 and [p["total"] for p in view["players"]] == [5, 60]


def test_correction_and_undo_equal_a_fresh_replay(client: TestClient) -> None:
    gid = new_game(client)
    for h in (H1, H2, H3):
        post_hand(client, gid, h)
    r = client.put(f"/api/games/{gid}/hands/2", json=H3, headers=ADMIN)
    assert r.status_code == 200 and r.json()["n"] == 2
    same_scores(client.get(f"/api/games/{gid}").json(), replay(H1, H3, H3))
    r = client.delete(f"/api/games/{gid}/hands/last", headers=ADMIN)
    assert r.status_code == 200 and r.json()["seq"] == 5
    same_scores(r.json(), replay(H1, H3))
    same_scores(client.get(f"/api/games/{gid}").json(), replay(H1, H3))


def test_a_hand_is_stored_exactly_as_sent(client: TestClient) -> None:
    """The event keeps only the keys the phone sent (no defaults filled in), values as sent."""
    gid = new_game(client, "rummy500")
    sent = {"players": [
        {"name": "Ann", "melds": [["AH", "2H", "3H"], {"cards": ["4H"]}], "hand": ["KS"]},
        {"hand": [], "name": "Bob", "held": None, "melded": 15, "went_out": False},
    ]}
    post_hand(client, gid, sent)
    store = client.app.state.parts.store  # type: ignore[attr-defined]
    assert store.events(gid)[-1] == {"type": "hand", **sent}


def test_preview_stores_nothing(client: TestClient) -> None:
    gid = new_game(client)
    r = client.post(f"/api/games/{gid}/preview", json=H1, headers=ADMIN)
    assert r.status_code == 200 and [p["total"] for p in r.json()["players"]] == [5, 60]
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0


def test_settings_and_rename(client: TestClient) -> None:
    gid = new_game(client)
    post_hand(client, gid, H2)  # Ann knocks with 1, Bob holds 2D only: no penalty either way
    r = client.put(f"/api/games/{gid}/settings", json={"settings": {"knocker_tie": "penalised"}},
                   headers=ADMIN)
    assert r.status_code == 200 and r.json()["settings"]["knocker_tie"] == "penalised"
    r = client.post(f"/api/games/{gid}/rename", json={"old": "Ann", "new": "Anna"}, headers=ADMIN)
    assert r.status_code == 200
    assert [p["name"] for p in r.json()["players"]] == ["Anna", "Bob"]
    assert r.json()["seq"] == 3


def test_third_copy_of_a_card_in_two_decks_is_refused(client: TestClient) -> None:
    gid = new_game(client)
    post_hand(client, gid, H1)
    before = client.get(f"/api/games/{gid}").json()
    bad = hand("7H 7H 4C 4D 4S 5C 6C", "7H QD JS 9H 8H 7C 6D")
    r = client.post(f"/api/games/{gid}/hands", json=bad, headers=ADMIN)
    assert r.status_code == 422 and "7H" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json() == before


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (hand("ZZ 2H 3H 4C 4D 4S 5C", BOB_1), "ZZ"),
        (hand("JK 2H 3H 4C 4D 4S 5C", BOB_1), "JK"),
        ({"players": [{"name": "Cy", "hand": []}]}, "Cy"),
        ({"players": "nope"}, "players"),
        ({"players": [], "extra": 1}, "extra"),
    ],
)
def test_bad_hands_are_4xx_naming_the_problem(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    gid = new_game(client)
    r = client.post(f"/api/games/{gid}/hands", json=body, headers=ADMIN)
    assert 400 <= r.status_code < 500
    assert isinstance(r.json()["detail"], str) and words in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0


def test_malformed_json(client: TestClient) -> None:
    gid = new_game(client)
    headers = {**ADMIN, "Content-Type": "application/json"}
    for path in (f"/api/games/{gid}/hands", "/api/games"):
        r = client.post(path, content=b'{"players": [', headers=headers)
        assert r.status_code == 422 and r.json()["detail"].startswith("malformed JSON")
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0
    assert len(client.get("/api/games").json()) == 1


def test_hand_for_a_finished_game(client: TestClient) -> None:
    gid = new_game(client, "rummy", target=5)
    ann = {"name": "Ann", "hand": [], "went_out": True}
    out = {"players": [ann, {"name": "Bob", "hand": ["9C"]}]}
    assert post_hand(client, gid, out)["game_over"] is True
    r = client.post(f"/api/games/{gid}/hands", json=out, headers=ADMIN)
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["seq"] == 1


def test_unknown_game_and_bad_setup(client: TestClient) -> None:
    assert client.get("/api/games/42").status_code == 404
    assert "42" in client.get("/api/games/42").json()["detail"]
    r = client.post("/api/games/42/hands", json=H1, headers=ADMIN)
    assert r.status_code == 404
    assert client.get("/api/games/42/events").status_code == 404
    r = client.post("/api/games", json={"variant": "canasta", "players": ["A", "B"]}, headers=ADMIN)
    assert r.status_code == 422 and "canasta" in r.json()["detail"]
    r = client.put("/api/games/1/hands/1", json=H1, headers=ADMIN)
    assert r.status_code == 404
    gid = new_game(client)
    r = client.put(f"/api/games/{gid}/hands/3", json=H1, headers=ADMIN)
    assert r.status_code == 422 and "3" in r.json()["detail"]
    r = client.delete(f"/api/games/{gid}/hands/last", headers=ADMIN)
    assert r.status_code == 422 and "undo" in r.json()["detail"]
    assert client.get("/api/games").json()[0]["seq"] == 0


def test_public_routes(client: TestClient) -> None:
    health = client.get("/api/health").json()
    assert (health["ok"], health["db"]) == (True, "ok")
    assert health["camera"]["state"] in ("ok", "lost", "busy", "none")
    assert client.get("/api/session").json() == {"admin": False}
    assert client.get("/api/session", headers=ADMIN).json() == {"admin": True}
    bad = {"Authorization": "Bearer wrong"}
    assert client.get("/api/session", headers=bad).json() == {"admin": False}
    r = client.get("/api/qr.svg", params={"url": "http://192.168.1.2:8000/"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith(("<?xml", "<svg")) and "<path" in r.text
    assert client.get("/api/qr.svg").status_code == 422
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")


def test_writes_need_the_token(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "chicago", "players": ["Ann", "Bob"]})
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    wrong = {"Authorization": "Bearer nope"}
    body = {"variant": "chicago", "players": ["Ann", "Bob"]}
    assert client.post("/api/games", json=body, headers=wrong).status_code == 401
    basic = {"Authorization": f"Basic {TOKEN}"}
    assert client.post("/api/games", json=body, headers=basic).status_code == 401
    assert client.get("/api/games").json() == []
