"""Writes judged whole: a deleted game refuses every write, a header sent twice or
malformed is refused rather than half read, a head over the limit is a JSON 431 however it
arrives, settings are bounded by what the rules can mean, and a storage fault's refusal
never carries the database's own words."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from benchmarks.spawn import free_port
from scorekeeper.rules import RulesError, parse_settings
from scorekeeper.rules.settings import MAX_HANDS, MAX_KNOCK_PENALTY, MAX_TARGET
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app
from scorekeeper.web.http.connections import MAX_HEAD, server_config
from tests.apiclient import ADMIN, TOKEN
from tests.test_hardening_clients import parsers

OUT = {"players": [{"name": "Ann", "hand": [], "went_out": True},
                   {"name": "Bob", "hand": ["KD", "AC"]}]}
JS_SAFE = 2**53 - 1


def new_game(client: TestClient, variant: str = "rummy", **settings: Any) -> int:
    r = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"],
                                        "settings": settings}, headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def seq(client: TestClient, gid: int) -> int:
    return int(client.get(f"/api/games/{gid}").json()["seq"])


# ---- 7. a deleted game refuses every write until it is reopened ------------------------------

def test_a_deleted_game_refuses_every_write_with_one_code(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = new_game(client)
    assert client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN).status_code == 201
    assert client.delete(f"/api/games/{gid}", headers=ADMIN).status_code == 200
    deleted = seq(client, gid)
    sent: list[int] = []  # what viewers were sent
    hub = client.app.state.parts.hub  # type: ignore[attr-defined]
    monkeypatch.setattr(hub, "publish", lambda view: sent.append(view["seq"]))
    writes = [
        ("POST", f"/api/games/{gid}/hands", OUT),
        ("PUT", f"/api/games/{gid}/hands/1", OUT),
        ("DELETE", f"/api/games/{gid}/hands/last", None),
        ("POST", f"/api/games/{gid}/rename", {"old": "Bob", "new": "Rob"}),
        ("PUT", f"/api/games/{gid}/settings", {"settings": {"target": 300}}),
        ("PUT", f"/api/games/{gid}/dealer", {"player": "Bob"}),
        ("POST", f"/api/games/{gid}/end", {"how": "finished"}),
        ("POST", f"/api/games/{gid}/end", {"how": "abandoned"}),
        ("DELETE", f"/api/games/{gid}", None),
    ]
    for method, path, body in writes:
        for headers in (ADMIN, {**ADMIN, "If-Match": f'"{deleted}"'}):
            r = client.request(method, path, json=body, headers=headers)
            assert r.status_code == 409, (method, path, r.text)
            assert r.json()["code"] == "game_deleted", (method, path)
    assert seq(client, gid) == deleted and sent == []  # nothing written, nothing sent
    r = client.post(f"/api/games/{gid}/reopen", headers=ADMIN)
    assert r.status_code == 200 and r.json()["state"] == "in_play" and sent == [deleted + 1]
    r = client.post(f"/api/games/{gid}/rename", json={"old": "Bob", "new": "Rob"},
                    headers=ADMIN)
    assert r.status_code == 200 and [p["name"] for p in r.json()["players"]] == ["Ann", "Rob"]


def test_a_log_that_wrote_to_a_deleted_game_still_replays(tmp_path: Path) -> None:
    """A rename after a delete was accepted before: such a log is read as it was written."""
    store = GameStore(tmp_path / "games.db")
    gid = store.create("rummy", ["Ann", "Bob"])["id"]
    store.append(gid, {"type": "end", "how": "deleted"})
    with store.database.transaction() as tx:
        tx.execute("INSERT INTO events (game_id, seq, type, body, created_at) VALUES"
                   " (?, 2, 'rename', ?, '2026-01-01T00:00:00+00:00')",
                   (gid, json.dumps({"type": "rename", "old": "Bob", "new": "Rob"})))
        tx.execute("UPDATE games SET seq = 2 WHERE id = ?", (gid,))
    store.close()
    with GameStore(tmp_path / "games.db") as again:
        view = again.get(gid)
        assert view["state"] == "deleted" and view["players"][1]["name"] == "Rob"


# ---- 8. headers sent twice or malformed are refused, not half read ---------------------------

@pytest.mark.parametrize("name", ["If-Match", "Idempotency-Key"])
def test_a_header_sent_twice_is_refused(client: TestClient, name: str) -> None:
    gid = new_game(client)
    value = '"0"' if name == "If-Match" else "key-1"
    headers = [*ADMIN.items(), (name, value), (name, '"7"' if name == "If-Match" else "key-2")]
    r = client.post(f"/api/games/{gid}/hands", json=OUT, headers=headers)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "header_repeated" and r.json()["params"] == {"header": name}
    assert seq(client, gid) == 0
    if name == "Idempotency-Key":
        r = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                        headers=[*ADMIN.items(), (name, "a"), (name, "a")])
        assert r.status_code == 400 and r.json()["code"] == "header_repeated"
        assert len(client.get("/api/games").json()) == 1


@pytest.mark.parametrize("tag", ['"001"', '"01"', '"-1"', '"+1"', '" 1"'])
def test_if_match_compares_tags_as_strings(client: TestClient, tag: str) -> None:
    """RFC 9110's strong comparison: "001" is not the ETag "1", so it matches nothing."""
    gid = new_game(client)
    assert client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN).status_code == 201
    r = client.post(f"/api/games/{gid}/hands", json=OUT, headers={**ADMIN, "If-Match": tag})
    assert r.status_code == 412 and r.json()["code"] == "precondition_malformed", r.text
    assert seq(client, gid) == 1
    r = client.post(f"/api/games/{gid}/hands", json=OUT, headers={**ADMIN, "If-Match": '"1"'})
    assert r.status_code == 201


@contextmanager
def real_server(tmp_path: Path, parser: str | None = None) -> Iterator[tuple[str, int]]:
    """The app behind the table server's own uvicorn settings (its HTTP protocol and head
    limit), on a loopback port in this process."""
    app = create_app(Settings(data_dir=tmp_path, admin_token=None), token=TOKEN)
    port = free_port()
    config = server_config(app, "127.0.0.1", port, files=1024, parser=parser)
    config.log_level = "warning"
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(10)


def post(path: str, data: Any, extra: str = "") -> bytes:
    """A whole POST of `data` as JSON, by the admin, closing the connection."""
    body = json.dumps(data).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: {ADMIN['Authorization']}"
            f"\r\nContent-Type: application/json\r\n{extra}Connection: close\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def exchange(where: tuple[str, int], data: bytes, pieces: int = 1) -> tuple[int, dict[str, Any]]:
    """Send `data` (in `pieces` writes), read the answer to the end: its status and JSON."""
    with socket.create_connection(where, timeout=10) as sock:
        step = -(-len(data) // pieces)
        try:
            for start in range(0, len(data), step):
                sock.sendall(data[start:start + step])
                if pieces > 1:
                    time.sleep(0.01)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before all was sent: the answer is waiting
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except ConnectionResetError:
            pass
    head, _, body = got.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"content-type: application/json" in head.lower(), head
    return status, json.loads(body)


@parsers()
def test_each_parser_refuses_long_heads_garbage_and_repeated_headers(
        tmp_path: Path, parser: str) -> None:
    """A head over the limit is a 431 however it arrives, bytes that are not HTTP a 400,
    both as JSON; a header line sent twice reaches the app as two and is refused."""
    filler = b"X-Filler: " + b"a" * 1000 + b"\r\n"
    ok = b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + filler * 4 + b"Connection: close\r\n\r\n"
    big = b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + filler * 100 + b"\r\n"  # 100 KB
    huge = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 2**20 + b"\r\n\r\n"
    endless = huge[:64 * 1024]  # never ends: refused once past the limit, not held
    with real_server(tmp_path, parser) as where:
        with socket.create_connection(where, timeout=10) as sock:
            sock.sendall(ok)
            assert sock.recv(100).startswith(b"HTTP/1.1 200")
        for data, pieces in ((big, 1), (big, 20), (huge, 1), (huge, 64), (endless, 4)):
            status, body = exchange(where, data, pieces)
            assert status == 431, (len(data), pieces)
            assert body["code"] == "head_too_large"
            assert body["params"] == {"size": f"{MAX_HEAD // 1024} KB"}
        for garbage in (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
                        b"NOT HTTP AT ALL\r\n\r\n", b"GET / HTTP/1.1\r\nno colon\r\n\r\n"):
            status, body = exchange(where, garbage)
            assert status == 400 and body["code"] == "request_malformed", garbage
        game = {"variant": "rummy", "players": ["Ann", "Bob"]}
        status, made = exchange(where, post("/api/games", game))
        assert status == 201
        for name, value, path, data in (  # each header line as the parser hands it over
                ("Idempotency-Key", "k", "/api/games", game),
                ("If-Match", '"0"', f"/api/games/{made['id']}/hands", OUT)):
            status, body = exchange(where, post(path, data, f"{name}: {value}\r\n" * 2))
            assert status == 400 and body["code"] == "header_repeated", (name, body)


# ---- 9. settings bounded by what the rules can mean ------------------------------------------

@pytest.mark.parametrize(("variant", "key", "largest"), [
    ("rummy", "target", MAX_TARGET), ("rummy", "hands", MAX_HANDS),
    ("rummy500", "target", MAX_TARGET), ("chicago", "knock_penalty", MAX_KNOCK_PENALTY)])
def test_settings_have_a_largest_value(client: TestClient, variant: str, key: str,
                                       largest: int) -> None:
    parse_settings(variant, {key: largest})
    for too_big in (largest + 1, 10**19):
        with pytest.raises(RulesError, match=f"must be {largest} or less"):
            parse_settings(variant, {key: too_big})
        r = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"],
                                            "settings": {key: too_big}}, headers=ADMIN)
        assert r.status_code == 422 and r.json()["code"] == "settings_invalid", r.text
        assert r.json()["params"]["problems"] == [{"setting": key, "reason": "le", "le": largest}]
    gid = new_game(client, variant)
    r = client.put(f"/api/games/{gid}/settings", json={"settings": {key: 10**19}},
                   headers=ADMIN)
    assert r.status_code == 422 and seq(client, gid) == 0
    offered = next(s for v in client.get("/api/variants").json()["variants"] if v["id"] == variant
                   for s in v["settings"] if s["key"] == key)
    assert offered["max"] == largest


def test_totals_and_knock_limits_stay_exact_on_the_page(client: TestClient) -> None:
    """At the largest settings a page's numbers (JavaScript's, exact to 2**53) are exact."""
    gid = new_game(client, "chicago", knock_penalty=MAX_KNOCK_PENALTY)
    knock = {"players": [
        {"name": "Ann", "hand": ["AH", "2H", "3H", "4C", "4D", "4S", "5C"], "knocked": True},
        {"name": "Bob", "hand": ["AC", "2C", "3C", "9H", "9D", "9S", "4H"]}]}
    view = client.post(f"/api/games/{gid}/hands", json=knock, headers=ADMIN).json()
    game = client.get(f"/api/games/{gid}").json()
    for player in game["players"]:
        assert abs(player["total"]) <= JS_SAFE
        assert player["knock_limit"] is None or abs(player["knock_limit"]) <= JS_SAFE
    assert view["n"] == 1


def test_a_game_stored_with_settings_past_the_largest_still_opens(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    gid = store.create("rummy", ["Ann", "Bob"])["id"]
    with store.database.transaction() as tx:
        tx.execute("UPDATE games SET settings = ? WHERE id = ?",
                   (json.dumps({"target": 10**19}), gid))
    store.close()
    with GameStore(tmp_path / "games.db") as again:
        assert again.get(gid)["settings"]["target"] == 10**19
        view, _ = again.append(gid, {"type": "hand", **OUT})
        assert view["seq"] == 1


# ---- 3. a storage fault is refused in words, never in the database's -------------------------

class Refusing:
    """Stands in for the store's connection: every write raises what SQLite says of a
    constraint, naming the table and its columns."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().split()[0].upper() in ("INSERT", "UPDATE"):
            raise sqlite3.IntegrityError("UNIQUE constraint failed: request_keys.game_id, "
                                         f"request_keys.key ({Path.cwd()}/games.db)")
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def test_a_storage_fault_is_refused_without_the_databases_words(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    gid = new_game(client)
    store: GameStore = client.app.state.parts.store  # type: ignore[attr-defined]
    store._conn = Refusing(store._conn)  # type: ignore[assignment]
    try:
        r = client.post(f"/api/games/{gid}/hands", json=OUT, headers=ADMIN)
    finally:
        store._conn = store._conn.conn  # type: ignore[attr-defined]
    assert r.status_code == 503 and r.json()["code"] == "storage_failed"
    for leak in ("request_keys", "constraint", "UNIQUE", str(Path.cwd()), "Traceback"):
        assert leak not in r.text, leak
    assert r.json()["detail"].startswith("the scorekeeper cannot save: ")
    assert "request_keys.key" in caplog.text  # the log keeps the database's words
