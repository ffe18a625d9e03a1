"""`GET /api/stats` and `GET /tv`: public reads, finished games only, deleted ones never."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.apiclient import ADMIN, TOKEN

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def game(client: TestClient, out: str, ending: str | None = None) -> int:
    """A Rummy game of Ann and Bob to 50, one hand that `out` wins; then `ending`, if any."""
    r = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"],
                                        "settings": {"target": 50 if ending is None else 500}},
                    headers=ADMIN)
    gid = int(r.json()["id"])
    other = "Bob" if out == "Ann" else "Ann"
    hand = {"players": [{"name": out, "went_out": True, "hand": []},
                        {"name": other, "held": 60}]}
    assert client.post(f"/api/games/{gid}/hands", json=hand, headers=ADMIN).status_code == 201
    if ending == "deleted":
        r = client.delete(f"/api/games/{gid}", headers=ADMIN)
        assert r.status_code == 200, r.text
    elif ending is not None:
        r = client.post(f"/api/games/{gid}/end", json={"how": ending}, headers=ADMIN)
        assert r.status_code == 200, r.text
    return gid


def rows(answer: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {p["name"]: (p["games"], p["wins"]) for t in answer["variants"]
            for p in t["players"]}


def test_an_empty_table_has_no_stats(client: TestClient) -> None:
    r = client.get("/api/stats")  # no token: as public as the games list
    assert r.status_code == 200 and r.json() == {"games": 0, "variants": []}


def test_only_finished_games_count_and_deleted_ones_never(client: TestClient) -> None:
    game(client, "Ann")  # finished by the rules: Ann wins
    game(client, "Bob", "abandoned")
    game(client, "Bob", "deleted")
    game(client, "Bob", "finished")  # ended by the admin: Bob leads, so wins
    r = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Cy"]},
                    headers=ADMIN)  # in play: not counted
    assert r.status_code == 201
    answer = client.get("/api/stats").json()
    assert answer["games"] == 2 and rows(answer) == {"Ann": (2, 1), "Bob": (2, 1)}
    line = answer["variants"][0]["players"][0]
    assert {"win_rate", "average", "hands_won", "went_out", "knocks", "best_hand"} <= set(line)


def test_stats_cannot_be_written(client: TestClient) -> None:
    assert client.post("/api/stats", json={}, headers=ADMIN).status_code == 405


def test_the_tv_page_is_public_and_holds_no_token(client: TestClient) -> None:
    r = client.get("/tv")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "tv.js" in r.text and TOKEN not in r.text
