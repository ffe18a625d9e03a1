"""One hand, saved once: a game's version as its ETag, If-Match on every write (412 when
the game moved on), and Idempotency-Key on POSTs (a repeat gets the first answer)."""

from __future__ import annotations

import json
import socket
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from benchmarks.spawn import ServerProcess, start_server
from scorekeeper.store import GameStore, KeyReused, RequestKey
from scorekeeper.store.requests import KEY_TTL_S, seen
from tests.apiclient import ADMIN, TOKEN

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

H1 = {"players": [
    {"name": "Ann", "hand": ["AH", "2H", "3H", "4C", "4D", "4S", "5C"], "knocked": True},
    {"name": "Bob", "hand": ["KC", "QD", "JS", "9H", "8H", "7C", "6D"]}]}
H2 = {"players": [
    {"name": "Ann", "hand": ["5H", "6H", "7H", "9C", "9D", "9S", "AC"], "knocked": True},
    {"name": "Bob", "hand": ["3C", "4C", "5C", "JD", "JS", "JH", "2D"]}]}


def at(seq: int, **more: str) -> dict[str, str]:
    return {**ADMIN, "If-Match": f'"{seq}"', **more}


def new_game(client: TestClient | httpx.Client) -> int:
    r = client.post("/api/games", json={"variant": "chicago", "players": ["Ann", "Bob"]},
                    headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def events(client: TestClient, gid: int) -> int:
    return int(client.get(f"/api/games/{gid}").json()["seq"])


# ---- If-Match -------------------------------------------------------------------------------

def test_a_game_carries_its_seq_as_its_etag(client: TestClient) -> None:
    gid = new_game(client)
    assert client.get(f"/api/games/{gid}").headers["etag"] == '"0"'
    r = client.post(f"/api/games/{gid}/hands", json=H1, headers=at(0))
    assert r.status_code == 201 and r.headers["etag"] == '"1"' and r.json()["seq"] == 1
    assert client.get(f"/api/games/{gid}").headers["etag"] == '"1"'


def test_the_second_phone_saving_the_same_hand_is_told_what_happened(
        client: TestClient) -> None:
    """Two admin phones had hand 1 open at seq 0: the first saves, the second gets a 412
    that names the saved hand, and nothing is stored twice."""
    gid = new_game(client)
    first = client.post(f"/api/games/{gid}/hands", json=H1, headers=at(0))
    assert first.status_code == 201
    second = client.post(f"/api/games/{gid}/hands", json=H1, headers=at(0))
    assert second.status_code == 412, second.text
    got = second.json()
    assert got["code"] == "game_changed" and got["seq"] == 1
    assert got["changes"] == ["hand 1 was saved from another phone"]
    assert got["detail"].startswith("Hand 1 was saved from another phone")
    assert "nothing was saved" in got["detail"]
    assert second.headers["etag"] == '"1"'
    game = client.get(f"/api/games/{gid}").json()
    assert len(game["hands"]) == 1 and [p["total"] for p in game["players"]] == [5, 60]


def test_every_write_to_a_game_checks_if_match(client: TestClient) -> None:
    gid = new_game(client)
    client.post(f"/api/games/{gid}/hands", json=H1, headers=ADMIN)
    client.post(f"/api/games/{gid}/hands", json=H2, headers=ADMIN)  # seq 2
    stale = [
        ("PUT", f"/api/games/{gid}/hands/1", H1),
        ("DELETE", f"/api/games/{gid}/hands/last", None),
        ("PUT", f"/api/games/{gid}/settings", {"settings": {"knocker_shows": "as_shown"}}),
        ("POST", f"/api/games/{gid}/rename", {"old": "Bob", "new": "Rob"}),
        ("POST", f"/api/games/{gid}/hands", H1),
    ]
    for method, url, body in stale:
        r = client.request(method, url, json=body, headers=at(1))
        assert r.status_code == 412, (method, url, r.text)
        assert r.json()["changes"] == ["hand 2 was saved from another phone"]
    assert events(client, gid) == 2  # nothing changed
    for n, (method, url, body) in enumerate(stale[:4], start=2):
        r = client.request(method, url, json=body, headers=at(n))
        assert r.status_code == 200, (method, url, r.text)
        assert r.headers["etag"] == f'"{n + 1}"'
    r = client.post(f"/api/games/{gid}/hands", json=H1, headers=at(2))
    assert r.json()["changes"] == [
        "hand 1 was corrected from another phone", "hand 2 was undone from another phone",
        "the house rules were changed from another phone",
        "Bob was renamed Rob from another phone"]


def test_if_match_any_and_malformed_tags(client: TestClient) -> None:
    gid = new_game(client)
    url = f"/api/games/{gid}/hands"
    assert client.post(url, json=H1, headers={**ADMIN, "If-Match": "*"}).status_code == 201
    for bad in ('1', 'W/"1"', '"1", "2"', '"x"'):
        r = client.post(url, json=H2, headers={**ADMIN, "If-Match": bad})
        assert r.status_code == 412, bad
        assert r.json()["code"] == "precondition_malformed"
    future = client.post(url, json=H2, headers=at(9))
    assert future.status_code == 412 and "reload" in future.json()["detail"]
    assert events(client, gid) == 1


def test_two_phones_racing_on_one_hand_save_it_once(tmp_path: Path) -> None:
    """Concurrent saves against a real server: each round exactly one 201 and one 412."""
    server = start_server(tmp_path / "race.db", tmp_path, TOKEN)
    try:
        for _ in range(6):  # a game each round: two Chicago hands may end one
            with httpx.Client(base_url=server.url, timeout=10) as c:
                gid = new_game(c)
            gate = threading.Barrier(2)
            codes: list[int] = []

            def save(body: dict[str, Any], gid: int = gid, gate: threading.Barrier = gate,
                     codes: list[int] = codes) -> None:
                with httpx.Client(base_url=server.url, timeout=10) as phone:
                    gate.wait()
                    r = phone.post(f"/api/games/{gid}/hands", json=body, headers=at(0))
                    codes.append(r.status_code)

            phones = [threading.Thread(target=save, args=(b,)) for b in (H1, H2)]
            for t in phones:
                t.start()
            for t in phones:
                t.join()
            assert sorted(codes) == [201, 412], codes
            with httpx.Client(base_url=server.url, timeout=10) as c:
                assert c.get(f"/api/games/{gid}").json()["seq"] == 1
    finally:
        server.stop()


# ---- Idempotency-Key ------------------------------------------------------------------------

def test_a_repeated_post_gets_the_first_answer_and_writes_nothing(client: TestClient) -> None:
    gid = new_game(client)
    url = f"/api/games/{gid}/hands"
    key = {**ADMIN, "Idempotency-Key": "draft-7f3a"}
    first = client.post(url, json=H1, headers=key)
    again = client.post(url, json=H1, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.json()["n"] == 1
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert events(client, gid) == 1
    other = client.post(url, json=H2, headers=key)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert events(client, gid) == 1
    # a retry after the game moved on is still the first answer, not a 412
    client.post(url, json=H2, headers=ADMIN)
    late = client.post(url, json=H1, headers={**key, "If-Match": '"0"'})
    assert late.status_code == 201 and late.json()["n"] == 1
    assert events(client, gid) == 2


def test_keys_are_per_game_and_for_creating_games(client: TestClient) -> None:
    body = {"variant": "rummy", "players": ["A", "B"]}
    key = {**ADMIN, "Idempotency-Key": "new-game-1"}
    first = client.post("/api/games", json=body, headers=key)
    again = client.post("/api/games", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert len(client.get("/api/games").json()) == 1
    other = client.post("/api/games", json={**body, "players": ["A", "C"]}, headers=key)
    assert other.status_code == 422
    # the same key on two games' hands is two requests
    g1, g2 = new_game(client), new_game(client)
    same = {**ADMIN, "Idempotency-Key": "k"}
    assert client.post(f"/api/games/{g1}/hands", json=H1, headers=same).status_code == 201
    assert client.post(f"/api/games/{g2}/hands", json=H1, headers=same).status_code == 201
    rename = {"old": "Bob", "new": "Rob"}
    r1 = client.post(f"/api/games/{g1}/rename", json=rename, headers=same)
    assert r1.status_code == 422  # the key was this game's hand: another request


def test_a_malformed_key_is_refused(client: TestClient) -> None:
    gid = new_game(client)
    for bad in (b"", b"k" * 256, b"a key with spaces", "ключ".encode()):
        r = client.post(f"/api/games/{gid}/hands", json=H1,
                        headers={**ADMIN, "Idempotency-Key": bad})  # type: ignore[dict-item]
        assert r.status_code == 400, bad
        assert r.json()["code"] == "idempotency_key_malformed"
    assert events(client, gid) == 0


def test_a_retry_after_a_dropped_reply_saves_one_hand(tmp_path: Path) -> None:
    """The server commits, the reply is lost (the phone's socket closes before reading it);
    the phone sends the hand again with its draft's key: still one hand."""
    server: ServerProcess = start_server(tmp_path / "drop.db", tmp_path, TOKEN)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            gid = new_game(c)
        body = json.dumps(H1).encode()
        host, port = server.url.removeprefix("http://").split(":")
        head = (f"POST /api/games/{gid}/hands HTTP/1.1\r\nHost: t\r\n"
                f"Authorization: Bearer {TOKEN}\r\nIdempotency-Key: draft-1\r\n"
                f"If-Match: \"0\"\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        with socket.create_connection((host, int(port)), timeout=5) as sock:
            sock.sendall(head + body)
            sock.shutdown(socket.SHUT_WR)  # gone: the answer is never read
        with httpx.Client(base_url=server.url, timeout=10) as c:
            deadline = 50
            while c.get(f"/api/games/{gid}").json()["seq"] == 0 and deadline:
                deadline -= 1
                threading.Event().wait(0.1)
            assert c.get(f"/api/games/{gid}").json()["seq"] == 1  # the first one committed
            retry = c.post(f"/api/games/{gid}/hands", json=H1,
                           headers=at(0, **{"Idempotency-Key": "draft-1"}))
            assert retry.status_code == 201 and retry.json()["n"] == 1
            assert retry.headers["idempotent-replayed"] == "true"
            game = c.get(f"/api/games/{gid}").json()
            assert len(game["hands"]) == 1 and game["seq"] == 1
    finally:
        server.stop()


def test_keys_survive_a_restart_and_expire_after_a_day(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db")
    gid = store.create("chicago", ["Ann", "Bob"])["id"]
    key = RequestKey("k1", "fp")

    def answer(view: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
        return {"n": len(view["hands"])}

    event = {"type": "hand", **H1}
    assert store.write(gid, event, answer, request=key).answer == {"n": 1}
    store.close()
    store = GameStore(tmp_path / "g.db")  # a restart (or a power cut after the commit)
    again = store.write(gid, event, answer, request=key)
    assert again.replayed and again.answer == {"n": 1}
    with store.database.read() as tx:
        with pytest.raises(KeyReused):
            seen(tx, gid, RequestKey("k1", "other"), datetime.now(UTC))
        later = datetime.now(UTC) + timedelta(seconds=KEY_TTL_S + 60)
        assert seen(tx, gid, key, later) is None  # a day on, the key is forgotten
    assert len(store.get(gid)["hands"]) == 1
    store.close()
