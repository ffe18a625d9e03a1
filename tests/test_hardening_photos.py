"""Photos cost memory in proportion to their pixels, and clients come and go.

The decode gate (web/http/decodes.py) bounds how many photos are decoded and read at once
and the memory they hold together: a photo waits its turn or is refused with 503 and
Retry-After, a JPEG bigger than the budget is decoded smaller, another format refused. A
client that goes away in the middle of its upload is one line in the log, not a 500. The
memory itself is measured by benchmarks/bench_memory.py, not here.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import Headers, UploadFile

from scorekeeper.settings import Settings
from scorekeeper.web.deps import get_photos
from scorekeeper.web.http.decodes import (
    BYTES_PER_PIXEL,
    DecodeGate,
    Plan,
    frame_cost,
    photo_gate,
)
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.imagesize import ImageSize
from scorekeeper.web.uploads import decode_upload
from tests.test_hardening_clients import app_without_model

TOKEN = "photos-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
MIB = 2**20


def encoded(ext: str, width: int, height: int) -> bytes:
    import cv2
    import numpy as np

    image = np.random.default_rng(3).integers(0, 255, (height, width, 3), np.uint8)
    return bytes(cv2.imencode(ext, image)[1].tobytes())


def upload(data: bytes) -> UploadFile:
    return UploadFile(io.BytesIO(data), size=len(data), filename="photo",
                      headers=Headers({"content-type": "application/octet-stream"}))


# ---- the gate ----------------------------------------------------------------------------

def test_the_default_gate_fits_a_pi() -> None:
    gate = photo_gate(Settings())
    assert (gate.budget, gate.at_once) == (128 * MIB, 1)
    # a phone's photo as the page sends it (2048 px across) is read whole, and so is a
    # 12-megapixel one sent as it was taken
    assert gate.plan(ImageSize("jpeg", 2048, 1536)) == Plan(1, frame_cost(2048, 1536))
    assert gate.plan(ImageSize("png", 4032, 3024)) == Plan(1, frame_cost(4032, 3024))
    # a 7071 × 7071 PNG (the six-bomb case) would hold 430 MB: refused before decoding
    assert gate.plan(ImageSize("png", 7071, 7071)) is None
    # the same as a JPEG is decoded at half its size
    assert gate.plan(ImageSize("jpeg", 7071, 7071)) == Plan(2, frame_cost(3536, 3536))
    assert gate.plan(ImageSize("jpeg", 60_000, 60_000)) is None  # not even at an eighth


def test_photos_take_turns_within_the_count_and_the_bytes() -> None:
    async def run() -> None:
        gate = DecodeGate(budget=100, at_once=2, wait_s=5)
        order: list[str] = []
        release = asyncio.Event()

        async def photo(name: str, cost: int) -> None:
            async with gate.hold(cost):
                order.append(name)
                await release.wait()

        first = asyncio.create_task(photo("a", 60))
        await asyncio.sleep(0)
        # b fits the count but not the bytes; c, small, waits behind b (first come, first
        # served: a big photo is not passed over for ever)
        rest = [asyncio.create_task(photo(n, c)) for n, c in (("b", 60), ("c", 10))]
        await asyncio.sleep(0.05)
        assert order == ["a"] and gate.used == 60 and gate.running == 1
        release.set()
        await asyncio.gather(first, *rest)
        assert order == ["a", "b", "c"]
        assert (gate.used, gate.running, gate.refused) == (0, 0, 0)

    asyncio.run(run())


def test_a_photo_that_waits_too_long_is_refused_with_retry_after() -> None:
    async def run() -> None:
        gate = DecodeGate(budget=100, at_once=1, wait_s=0.05, max_waiting=1)
        async with gate.hold(10):
            waiter = asyncio.create_task(gate.hold(10).__aenter__())
            await asyncio.sleep(0)
            with pytest.raises(ApiError) as full:  # the queue is full: no wait at all
                async with gate.hold(10):
                    pass
            with pytest.raises(ApiError) as late:
                await waiter
        for refused in (full.value, late.value):
            assert (refused.status, refused.code) == (503, "photo_busy")
            assert refused.headers == {"Retry-After": "5"} and refused.params == {"wait": 5}
        assert (gate.used, gate.running, gate.refused) == (0, 0, 2)
        async with gate.hold(10):  # the places came back
            assert gate.running == 1

    asyncio.run(run())


def test_a_request_cancelled_while_waiting_leaves_no_place_taken() -> None:
    async def run() -> None:
        gate = DecodeGate(budget=100, at_once=1, wait_s=5)
        async with gate.hold(50):
            waiter = asyncio.create_task(gate.hold(50).__aenter__())
            await asyncio.sleep(0.01)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        assert (gate.used, gate.running) == (0, 0)
        async with gate.hold(100):
            assert gate.used == 100

    asyncio.run(run())


# ---- decoding within the gate -----------------------------------------------------------

def test_a_jpeg_over_the_budget_is_decoded_smaller_and_a_png_refused() -> None:
    async def run() -> None:
        gate = DecodeGate(budget=frame_cost(200, 150), at_once=1)
        async with decode_upload(gate, upload(encoded(".jpg", 400, 300)), "a.jpg") as photo:
            assert photo.reduce == 2 and photo.frame.shape == (150, 200, 3)
            assert gate.used == gate.budget  # its bytes too: more than the budget, so alone
        with pytest.raises(ApiError) as refused:
            async with decode_upload(gate, upload(encoded(".png", 400, 300)), "big.png"):
                pass
        err = refused.value
        assert (err.status, err.code) == (413, "photo_too_large")
        assert err.params["max"] == 0.03 == gate.budget // BYTES_PER_PIXEL / 1e6
        assert "big.png is 400 × 300 pixels" in err.detail
        async with decode_upload(gate, upload(encoded(".png", 200, 150)), "b.png") as photo:
            assert photo.reduce == 1 and photo.frame.shape == (150, 200, 3)
        assert (gate.used, gate.running) == (0, 0)

    asyncio.run(run())


# ---- through the app ---------------------------------------------------------------------

@pytest.fixture
def app(tmp_path: Path) -> Any:
    return app_without_model(tmp_path, TOKEN)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        game = {"variant": "chicago", "players": ["Ann", "Bob"]}
        assert c.post("/api/games", json=game, headers=ADMIN).status_code == 201
        yield c


def test_a_knock_check_photo_finds_no_room_and_is_asked_again_later(
        app: Any, client: TestClient) -> None:
    gate = DecodeGate(budget=64 * MIB, at_once=1, wait_s=0.1)
    app.dependency_overrides[get_photos] = lambda: gate
    photo = {"image": ("hand.png", encoded(".png", 80, 60), "image/png")}
    assert client.portal is not None

    async def taken() -> None:  # another photo being read: the gate's one place taken
        await gate._acquire(1)

    client.portal.call(taken)
    r = client.post("/api/games/1/knock-check", data={"player": "Ann"}, files=photo)
    assert r.status_code == 503 and r.headers["retry-after"] == "5", r.text
    assert r.json()["code"] == "photo_busy" and r.json()["params"] == {"wait": 5}
    gate.running, gate.used = 0, 0  # the other photo is read
    r = client.post("/api/games/1/knock-check", data={"player": "Ann"}, files=photo)
    assert r.status_code == 503 and r.json()["code"] == "reader_unavailable"  # decoded fine
    assert (gate.used, gate.running) == (0, 0)


def test_a_client_gone_in_the_middle_of_its_photo_is_one_line_at_info(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """A phone that loses the Wi-Fi part-way through a photo (or a hand's JSON): no 500, no
    traceback."""
    photo = (b"multipart/form-data; boundary=xyz",
             b"--xyz\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\n"
             b"Content-Type: image/jpeg\r\n\r\n" + b"\xff\xd8" + bytes(5000))
    sent: list[dict[str, Any]] = []

    for path, (kind, body) in (("/api/games/1/knock-check", photo),
                               ("/api/games/1/scan", photo),
                               ("/api/games/1/hands", (b"application/json", b'{"players": ['))):
        messages = [{"type": "http.request", "body": body, "more_body": True},
                    {"type": "http.disconnect"}]

        async def receive(left: list[dict[str, Any]] = messages) -> dict[str, Any]:
            return left.pop(0) if left else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "root_path": "", "client": ("10.0.0.7", 5000),
                 "server": ("testserver", 80),
                 "headers": [(b"host", b"testserver"), (b"authorization", ADMIN[
                     "Authorization"].encode()), (b"content-length", b"100000"),
                     (b"content-type", kind)]}
        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            assert client.portal is not None
            client.portal.call(client.app, scope, receive, send)
        records = [r for r in caplog.records if r.name.startswith("scorekeeper")]
        assert [(r.levelno, r.exc_info) for r in records] == [(logging.INFO, None)], path
        assert records[0].getMessage() == f"POST {path}: 10.0.0.7 went away before its " \
                                           f"request was read"
    statuses = [m["status"] for m in sent if m["type"] == "http.response.start"]
    assert 500 not in statuses


def test_a_real_server_logs_no_traceback_for_a_photo_cut_short(tmp_path: Path) -> None:
    """On the wire: phones that close the connection part-way through their photos."""
    import socket
    import time

    import httpx

    from benchmarks.spawn import start_server

    with pytest.MonkeyPatch.context() as env:
        env.setenv("SCOREKEEPER_MODEL_DIR", str(tmp_path / "no-models"))
        srv = start_server(tmp_path / "games.db", tmp_path, TOKEN)
    try:
        game = {"variant": "chicago", "players": ["Ann", "Bob"]}
        assert httpx.post(f"{srv.url}/api/games", json=game, headers=ADMIN).status_code == 201
        host, port = srv.url.removeprefix("http://").split(":")
        for path in ("/api/games/1/knock-check", "/api/games/1/scan") * 3:
            head = (f"POST {path} HTTP/1.1\r\nHost: t\r\n{next(iter(ADMIN))}: "
                    f"{ADMIN['Authorization']}\r\nContent-Length: 200000\r\n"
                    f"Content-Type: multipart/form-data; boundary=xyz\r\n\r\n").encode()
            part = (b"--xyz\r\nContent-Disposition: form-data; name=\"image\"; "
                    b"filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8")
            with socket.create_connection((host, int(port)), timeout=5) as sock:
                sock.sendall(head + part + bytes(30_000))
                time.sleep(0.05)
        time.sleep(0.5)
        assert httpx.get(f"{srv.url}/api/health", timeout=2).status_code == 200
        log = srv.log.read_text(errors="replace")
        assert "Traceback" not in log and "unexpected error" not in log, log[-3000:]
        assert '" 500' not in log
    finally:
        srv.stop()
