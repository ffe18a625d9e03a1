"""A correction whose answer is lost (the Wi-Fi drops after the server wrote it) is sent
again with its Idempotency-Key: the phone gets the first answer, not "changed on another
phone" for its own correction, and nothing is written twice."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.apiclient import ADMIN
from tests.test_api_writes_once import H1

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FIXED = {"players": [
    {"name": "Ann", "hand": ["AH", "2H", "3H", "4C", "4D", "4S", "6C"], "knocked": True},
    {"name": "Bob", "hand": ["KC", "QD", "JS", "9H", "8H", "7C", "6D"]}]}


def test_a_repeated_correction_gets_the_first_answer_and_writes_nothing(
        client: TestClient) -> None:
    gid = client.post("/api/games", json={"variant": "chicago", "players": ["Ann", "Bob"]},
                      headers=ADMIN).json()["id"]
    assert client.post(f"/api/games/{gid}/hands", json=H1, headers=ADMIN).status_code == 201
    url = f"/api/games/{gid}/hands/1"
    sent = {**ADMIN, "If-Match": '"1"', "Idempotency-Key": "correct-1-a"}
    first = client.put(url, json=FIXED, headers=sent)
    assert first.status_code == 200, first.text
    again = client.put(url, json=FIXED, headers=sent)  # the same If-Match: now stale
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert client.get(f"/api/games/{gid}").json()["seq"] == 2
    other = client.put(url, json=H1, headers=sent)  # the key with another body
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    # without a key a stale If-Match is still another phone's change
    stale = client.put(url, json=FIXED, headers={**ADMIN, "If-Match": '"1"'})
    assert stale.status_code == 412 and stale.json()["code"] == "game_changed"
