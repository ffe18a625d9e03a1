"""GET /api/games/{id}/rules: the rules sheet, as public as the game, explaining the hand
the store kept."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.apiclient import ADMIN

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def new_game(client: TestClient, variant: str, **settings: object) -> int:
    r = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"],
                                        "settings": settings}, headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_before_any_hand_the_sheet_explains_an_example_for_the_settings(
        client: TestClient) -> None:
    gid = new_game(client, "chicago", knock_penalty=20)
    r = client.get(f"/api/games/{gid}/rules")  # no token: anyone who may see the game
    assert r.status_code == 200, r.text
    sheet = r.json()
    assert sheet["variant"] == "chicago"
    assert sheet["example"]["n"] is None
    lines = {ln["key"]: ln["params"] for sec in sheet["sections"] for ln in sec["lines"]}
    assert lines["chicago.penalty"] == {"n": 20}
    ann = sheet["example"]["players"][0]
    assert ann["points"] == 9 + 20
    assert sum(p["points"] for p in ann["parts"]) == ann["points"]


def test_after_a_hand_the_sheet_explains_the_hand_the_store_kept(client: TestClient) -> None:
    gid = new_game(client, "rummy500")
    body = {"players": [{"name": "Ann", "melds": [["AC", "2C", "3C"]], "hand": ["KD"]},
                        {"name": "Bob", "hand": ["7S", "9D"]}]}
    assert client.post(f"/api/games/{gid}/hands", json=body, headers=ADMIN).status_code == 201
    kept = client.get(f"/api/games/{gid}").json()["hands"][-1]["result"]["players"]
    sheet = client.get(f"/api/games/{gid}/rules").json()
    assert sheet["example"]["n"] == 1
    got = sheet["example"]["players"]
    assert [p["points"] for p in got] == [row["points"] for row in kept] == [-4, -16]
    bob = got[1]["parts"]
    assert bob == [{"kind": "held", "points": -16, "value": 16, "source": None, "typed": False,
                    "cards": [{"card": "7S", "points": 7}, {"card": "9D", "points": 9}]}]


def test_the_sheet_follows_a_change_of_settings(client: TestClient) -> None:
    gid = new_game(client, "rummy")
    body = {"players": [{"name": "Ann", "went_out": True}, {"name": "Bob", "hand": ["AH"]}]}
    client.post(f"/api/games/{gid}/hands", json=body, headers=ADMIN)
    before = client.get(f"/api/games/{gid}/rules").json()["example"]["players"][0]["points"]
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    r = client.put(f"/api/games/{gid}/settings", json={"settings": {"ace": "high_or_low"}},
                   headers={**ADMIN, "If-Match": f'"{seq}"'})
    assert r.status_code == 200, r.text
    after = client.get(f"/api/games/{gid}/rules").json()
    assert (before, after["example"]["players"][0]["points"]) == (1, 15)
    assert "ace.both" in [ln["key"] for sec in after["sections"] for ln in sec["lines"]]


def test_reads_are_as_public_as_the_game_and_bad_ids_are_refused(client: TestClient) -> None:
    gid = new_game(client, "rummy10")
    for headers in ({}, ADMIN, {"Authorization": "Bearer wrong"}):
        game = client.get(f"/api/games/{gid}", headers=headers).status_code
        assert client.get(f"/api/games/{gid}/rules", headers=headers).status_code == game
    missing = client.get("/api/games/999/rules")
    assert missing.status_code == 404
    assert missing.json()["code"] == client.get("/api/games/999").json()["code"]
    assert client.get("/api/games/abc/rules").status_code == 422
    assert client.get("/api/games/1/rules", headers={}).json()["variant"] == "rummy10"
