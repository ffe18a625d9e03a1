"""No upload and no client can stall or kill the server.

Pixel bombs and oversized bodies are refused before they cost memory; half-sent requests
time out; one address cannot hold every connection or live stream; QR codes are bounded
and cached; and every answer carries the security headers.
"""

from __future__ import annotations

import asyncio
import json
import re
import resource
import socket
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from benchmarks.spawn import ServerProcess, free_port, soft_file_limit, start_server
from scorekeeper.scanning import Vision
from scorekeeper.settings import Settings
from scorekeeper.web import qr
from scorekeeper.web.app import create_app
from scorekeeper.web.deps import get_hub, get_vision
from scorekeeper.web.http import errors
from scorekeeper.web.http.connections import (
    HEADER_TIMEOUT_S,
    ConnectionPolicy,
    protocol_class,
    raise_file_limit,
)
from scorekeeper.web.http.headers import SECURITY_HEADERS
from scorekeeper.web.http.imagesize import image_size
from scorekeeper.web.http.limits import BodyLimit
from scorekeeper.web.live.hub import Hub, StreamRefused
from scorekeeper.web.routes import pages

TOKEN = "hardening-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
GAME = {"variant": "rummy", "players": ["Ann", "Bob"]}
STATIC = Path(__file__).resolve().parents[1] / "scorekeeper" / "web" / "static"


# ---- helpers -----------------------------------------------------------------------------

def png_bomb(side: int = 20_000) -> bytes:
    """A black 1-bit PNG of side × side pixels: ~50 KB that decodes to 1.2 GB of BGR."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    row = bytes(1 + (side + 7) // 8)  # filter byte "none", then all-zero bits
    packer = zlib.compressobj(9)
    idat = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # 1-bit greyscale
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat)
            + chunk(b"IEND", b""))


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) / 1024  # type: ignore[index]


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def raw(url: str, data: bytes, source: str = "") -> socket.socket:
    """A connection that sent `data` (from `source`, another loopback address)."""
    sock = socket.create_connection(address(url), timeout=5, source_address=(source, 0))
    sock.sendall(data)
    return sock


def read_all(sock: socket.socket, timeout: float = 5) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(timeout)
    got = b""
    while chunk := sock.recv(65536):
        got += chunk
    return got


@contextmanager
def serve_in_thread(app: Any, **options: Any) -> Iterator[str]:
    """A real uvicorn on a loopback port in this process, for limits set per test."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1, **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


async def hello(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
                ) -> None:
    """The smallest ASGI app: connection limits are what is under test, not routes."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["path"] == "/slow":  # answers over a second, well past the header deadline
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for _ in range(5):
            await asyncio.sleep(0.25)
            await send({"type": "http.response.body", "body": b"tick\n", "more_body": True})
        await send({"type": "http.response.body", "body": b""})
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


def strict(parser: str | None = None, **limits: Any) -> type:
    """A guarded protocol in which this machine counts like any other client."""
    return protocol_class(ConnectionPolicy(exempt=lambda host: False, **limits), parser)


def parsers() -> Any:
    """Each HTTP parser the server may run on: the limits must hold on both (httptools is
    used where it is installed, h11 is the fallback)."""
    return pytest.mark.parametrize("parser", ["h11", pytest.param("httptools", marks=(
        pytest.mark.skipif(find_spec("httptools") is None, reason="httptools not installed")))])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("hardening")
    with pytest.MonkeyPatch.context() as env:  # no model: a bomb let through is never read
        env.setenv("SCOREKEEPER_MODEL_DIR", str(tmp / "no-models"))
        srv = start_server(tmp / "games.db", tmp, TOKEN)
    with httpx.Client(base_url=srv.url, timeout=5) as client:
        assert client.post("/api/games", json=GAME, headers=ADMIN).status_code == 201
    yield srv
    srv.stop()


def app_without_model(data_dir: Path, token: str) -> Any:
    """The app with no camera and no card model: what reaches a reader is refused (503),
    so an upload's limits are what a test sees."""
    app = create_app(Settings(data_dir=data_dir, camera="none"), token=token)
    no_model = Vision(data_dir / "no-models")
    app.dependency_overrides[get_vision] = lambda: no_model
    return app


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return app_without_model(tmp_path, TOKEN)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        assert c.post("/api/games", json=GAME, headers=ADMIN).status_code == 201
        yield c


# ---- 1. image uploads --------------------------------------------------------------------

def test_image_size_is_read_from_the_header() -> None:
    import cv2
    import numpy as np

    image = np.random.default_rng(1).integers(0, 255, (37, 53, 3), dtype=np.uint8)
    for ext, params, kind in [(".png", [], "png"), (".jpg", [], "jpeg"),
                              (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1], "jpeg"),
                              (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80], "webp"),
                              (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101], "webp"),
                              (".bmp", [], "bmp")]:
        data = cv2.imencode(ext, image, params)[1].tobytes()
        assert image_size(data) == (kind, 53, 37), (ext, params)
        assert image_size(data[:12]) is None  # cut before the size: refused, never guessed
    assert image_size(png_bomb(20_000)).pixels == 400_000_000  # type: ignore[union-attr]
    tiff = cv2.imencode(".tiff", image)[1].tobytes()
    for other in (b"", b"not an image", b"\xff\xd8\xff", tiff):
        assert image_size(other) is None


def test_a_pixel_bomb_is_refused_before_decoding(server: ServerProcess) -> None:
    bomb = png_bomb(20_000)
    assert len(bomb) < 400_000
    before = peak_rss_mib(server.pid)
    began = time.monotonic()
    r = httpx.post(f"{server.url}/api/games/1/scan", headers=ADMIN, timeout=30,
                   files={"image": ("bomb.png", bomb, "image/png")})
    took = time.monotonic() - began
    assert r.status_code == 413, r.text
    assert "20000 × 20000" in r.json()["detail"]
    assert took < 2, f"{took:.1f} s"
    peak = peak_rss_mib(server.pid)
    # the server decoded nothing: 1.2 GB would have shown (opencv's import is ~60 MB)
    assert peak - before < 150, f"peak RSS {before:.0f} → {peak:.0f} MiB"
    assert httpx.get(f"{server.url}/api/health", timeout=2).status_code == 200


def test_a_photo_within_the_limits_is_still_read(client: TestClient) -> None:
    import cv2
    import numpy as np

    photo = cv2.imencode(".png", np.zeros((600, 800, 3), np.uint8))[1].tobytes()
    r = client.post("/api/games/1/scan", headers=ADMIN,
                    files={"image": ("table.png", photo, "image/png")})
    assert r.status_code == 503 and "no trained model" in r.json()["detail"]  # decoded fine
    r = client.post("/api/games/1/scan", headers=ADMIN,
                    files={"image": ("scan.tiff", b"II*\x00" + bytes(64), "image/tiff")})
    assert r.status_code == 415 and "JPEG, PNG, WebP or BMP" in r.json()["detail"]


# ---- 2. request bodies -------------------------------------------------------------------

def test_json_bodies_over_a_megabyte_are_refused(client: TestClient) -> None:
    big = json.dumps({"variant": "rummy", "players": ["x" * (1100 * 1024)]}).encode()
    json_type = {**ADMIN, "Content-Type": "application/json"}
    r = client.post("/api/games", content=big, headers=json_type)
    assert r.status_code == 413 and r.json() == {"detail": "the request body is over 1 MB",
                                                  "code": "body_too_large",
                                                  "params": {"size": "1 MB"}}

    def chunked() -> Iterator[bytes]:  # no Content-Length: the bytes are counted as they come
        yield b'{"variant": "rummy", "players": ["'
        for _ in range(40):
            yield b"x" * 32768
        yield b'"]}'

    r = client.post("/api/games", content=chunked(), headers=json_type)
    assert r.status_code == 413 and "over 1 MB" in r.json()["detail"]
    assert [game["id"] for game in client.get("/api/games").json()] == [1]  # nothing stored


def test_an_oversized_upload_is_refused_from_its_content_length(server: ServerProcess) -> None:
    request = (b"POST /api/games/1/scan HTTP/1.1\r\nHost: t\r\n"
               b"Authorization: Bearer " + TOKEN.encode() + b"\r\n"
               b"Content-Type: multipart/form-data; boundary=x\r\n"
               b"Content-Length: 1000000000\r\n\r\n")
    began = time.monotonic()
    answer = read_all(raw(server.url, request))  # no body sent: the server must not wait
    assert time.monotonic() - began < 2
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ") and b"connection: close" in head.lower()
    assert json.loads(body) == {"detail": "the request body is over 20.1 MB",
                                "code": "body_too_large", "params": {"size": "20.1 MB"}}


def test_a_body_that_stops_arriving_times_out() -> None:
    async def echo(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]
                   ) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    with serve_in_thread(BodyLimit(echo, idle_s=0.3), lifespan="off") as url:
        sock = raw(url, b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n0123456789")
        began = time.monotonic()
        answer = read_all(sock)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert 0.25 < time.monotonic() - began < 3
        assert b"stopped arriving" in answer
        # a body that arrives is passed through whole
        r = httpx.post(url, content=b"a" * 5000, timeout=5)
        assert r.status_code == 200 and r.content == b"a" * 5000


# ---- 3. slow clients, floods and live streams --------------------------------------------

@parsers()
def test_half_sent_requests_time_out_and_answers_are_not_cut(parser: str) -> None:
    with serve_in_thread(hello, http=strict(parser, header_timeout_s=0.4)) as url:
        partial = raw(url, b"GET / HTTP/1.1\r\nHost: t\r\n")  # the blank line never comes
        silent = raw(url, b"")
        slow = raw(url, b"GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        began = time.monotonic()
        assert read_all(partial).startswith(b"HTTP/1.1 408 Request Timeout")
        assert 0.35 < time.monotonic() - began < 3
        assert read_all(silent) == b""  # nothing asked, nothing answered: just closed
        slow.settimeout(5)
        got = b""
        while got.count(b"tick") < 5:  # 1.25 s of answer: longer than the header deadline
            got += slow.recv(4096)
        # after a whole answer the next request head gets a fresh deadline, then a 408
        slow.sendall(b"GET / HTTP/1.1\r\nHost")
        assert b"HTTP/1.1 408" in read_all(slow)


def test_one_address_cannot_take_every_connection() -> None:
    with serve_in_thread(hello, http=strict(per_client=3)) as url:
        held = [raw(url, b"") for _ in range(3)]
        answer = read_all(raw(url, b""))
        assert answer.startswith(b"HTTP/1.1 429") and b"too many connections" in answer
        held.pop().close()
        time.sleep(0.2)
        assert httpx.get(url, timeout=2).text == "ok"  # a place freed is a place again
        for sock in held:
            sock.close()


def test_at_the_cap_a_new_connection_takes_the_longest_waiting_ones_place() -> None:
    """Half-sent requests and idle connections give way to a new phone, oldest first."""
    policy = ConnectionPolicy(max_connections=3)  # this machine: only the total counts
    with serve_in_thread(hello, http=protocol_class(policy)) as url:
        oldest = raw(url, b"GET / HTTP/1.1\r\nHost: t\r\n")  # a request begun, never ended
        time.sleep(0.05)
        held = [raw(url, b"") for _ in range(2)]
        time.sleep(0.1)
        assert httpx.get(url, timeout=2, headers={"Connection": "close"}).text == "ok"
        answer = read_all(oldest, timeout=2)  # the longest waiting: told to send it again
        assert answer.startswith(b"HTTP/1.1 503") and b"send the request again" in answer
        assert policy.evicted == 1
        for sock in held:  # the younger ones kept their places
            sock.settimeout(0.2)
            with pytest.raises(TimeoutError):
                sock.recv(1)
            sock.close()


def test_requests_being_handled_are_never_evicted() -> None:
    with serve_in_thread(hello, http=protocol_class(ConnectionPolicy(max_connections=2))) as url:
        # closed once answered: read_all waits for the close, not for a keep-alive timeout
        slow = [raw(url, b"GET /slow HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                for _ in range(2)]
        for sock in slow:
            assert sock.recv(64).startswith(b"HTTP/1.1 200")  # both are being answered
        assert read_all(raw(url, b"")).startswith(b"HTTP/1.1 503")  # nobody to give way
        for sock in slow:
            assert read_all(sock).count(b"tick") == 5  # their answers were not cut
            sock.close()


def test_a_flood_from_many_addresses_cannot_lock_out_a_new_phone() -> None:
    """Twenty addresses, each under its per-address cap, fill every place with half-sent
    requests (one phone with many IPv6 addresses can): a new phone is still answered."""
    policy = ConnectionPolicy(exempt=lambda host: False, per_client=8, max_connections=100)
    with serve_in_thread(hello, http=protocol_class(policy)) as url:
        flood = [raw(url, b"GET / HTTP/1.1\r\nHost: t\r\n", f"127.0.0.{2 + i % 20}")
                 for i in range(120)]
        time.sleep(0.3)
        assert policy.total == 100 and policy.evicted == 20
        for _ in range(5):
            phone = raw(url, b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
                        "127.0.0.99")
            assert read_all(phone, timeout=2).endswith(b"ok")
        assert 21 <= policy.evicted <= 25  # a phone that left frees its own place
        for sock in flood:
            sock.close()


def test_the_server_lifts_its_soft_file_limit() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < 2048:
        pytest.skip(f"hard open-file limit is {hard}")
    with soft_file_limit(1024):
        assert raise_file_limit(2048) == 2048
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == 2048
        assert raise_file_limit(1500) == 2048  # never lowered


FLOOD = 1100  # over the soft limit of 1024 with the server's own files (about 15)


def test_an_idle_flood_does_not_stop_the_server(tmp_path: Path) -> None:
    """A thousand half-sent requests from one machine, under systemd's soft limit of 1024.

    Before the fix the server stopped accepting (EMFILE) and nobody else got an answer.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD + 500:
        pytest.skip(f"hard open-file limit is {hard}")
    with soft_file_limit(1024):  # the server starts as systemd would start it without LimitNOFILE
        srv = start_server(tmp_path / "games.db", tmp_path, TOKEN)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, FLOOD + 500), hard))
    flood: list[socket.socket] = []
    try:
        with httpx.Client(base_url=srv.url, timeout=5) as c:
            assert c.post("/api/games", json=GAME, headers=ADMIN).status_code == 201
        flood = [raw(srv.url, b"GET /api/games/1 HTTP/1.1\r\nHost: t\r\n") for _ in range(FLOOD)]
        began = time.monotonic()
        worst = 0.0
        while time.monotonic() - began < HEADER_TIMEOUT_S + 1.5:
            for path in ("/api/health", "/api/games/1"):
                start = time.perf_counter()
                # a new connection each time, as a phone arriving during the flood would
                r = httpx.get(srv.url + path, timeout=1, headers={"Connection": "close"})
                worst = max(worst, time.perf_counter() - start)
                assert r.status_code == 200, path
            time.sleep(0.2)
        assert worst < 1
        # the half-sent requests were answered 408 and closed at the header deadline
        answers = [read_all(sock, timeout=2) for sock in flood]
        assert all(a.startswith(b"HTTP/1.1 408") for a in answers), {a[:20] for a in answers}
    finally:
        for sock in flood:
            sock.close()
        srv.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_live_stream_caps_per_client_and_in_all() -> None:
    async def run() -> None:
        hub = Hub(max_streams=3, per_client=2, exempt=lambda host: host == "127.0.0.1")
        a1, a2 = hub.subscribe(1, "10.0.0.2"), hub.subscribe(2, "10.0.0.2")
        with pytest.raises(StreamRefused) as refused:
            hub.subscribe(1, "10.0.0.2")
        assert refused.value.status == 429 and "10.0.0.2 already has 2" in refused.value.message
        proxy = hub.subscribe(1, "127.0.0.1")  # this machine (a proxy): only the total counts
        with pytest.raises(StreamRefused) as refused:  # full, and shared out: 2, 1 and 0
            hub.subscribe(1, "10.0.0.2")
        assert refused.value.status == 429
        hub.unsubscribe(1, proxy, "127.0.0.1")
        hub.unsubscribe(1, a1, "10.0.0.2")
        hub.unsubscribe(1, a1, "10.0.0.2")  # twice: counted once
        assert hub.streams == 1
        hub.subscribe(1, "10.0.0.2")
        hub.unsubscribe(2, a2, "10.0.0.2")
        assert hub.streams == 1

    asyncio.run(run())


def test_a_client_over_its_stream_cap_gets_a_429(app: Any) -> None:
    hub = Hub(per_client=2, exempt=lambda host: False)
    app.dependency_overrides[get_hub] = lambda: hub
    with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=5) as c:
        assert c.post("/api/games", json=GAME, headers=ADMIN).status_code == 201
        with c.stream("GET", "/api/games/1/events") as first, \
                c.stream("GET", "/api/games/1/events") as second:
            readers = [stream.iter_lines() for stream in (first, second)]  # kept: a reader
            for stream, lines in zip((first, second), readers, strict=True):  # dropped closes
                assert stream.status_code == 200
                assert stream.headers["x-content-type-options"] == "nosniff"
                assert next(line for line in lines if line.startswith("data:"))
            r = c.get("/api/games/1/events")
            assert r.status_code == 429 and r.headers["retry-after"] == "10"
            assert "already has 2 live update streams" in r.json()["detail"]
            assert c.get("/api/health").status_code == 200
        deadline = time.monotonic() + 5
        while hub.streams and time.monotonic() < deadline:
            time.sleep(0.05)  # the closed streams give their places back
        with c.stream("GET", "/api/games/1/events") as again:
            assert again.status_code == 200


# ---- 4. QR codes -------------------------------------------------------------------------

def test_qr_text_is_bounded_and_each_code_drawn_once(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    draw = qr._draw_qr

    def counting(text: str) -> bytes:
        drawn.append(text)
        return draw(text)

    monkeypatch.setattr(qr, "_draw_qr", counting)
    text = "http://10.0.0.5:8000/" + "x" * (qr.QR_MAX_TEXT - 21)
    for _ in range(3):
        r = client.get("/api/qr.svg", params={"url": text})
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert drawn == [text]
    r = client.get("/api/qr.svg", params={"url": text + "x"})
    assert r.status_code == 414 and "at most 512 characters" in r.json()["detail"]
    assert drawn == [text]


def test_qr_cache_keeps_the_most_recent() -> None:
    async def run() -> None:
        codes = qr.QrCodes(size=2)
        a = await codes.svg("a")
        await codes.svg("b")
        assert await codes.svg("a") is a  # a hit, and now the most recent
        await codes.svg("c")  # evicts b
        assert list(codes._svgs) == ["a", "c"]

    asyncio.run(run())


# ---- 5. security headers -----------------------------------------------------------------

def test_every_answer_carries_the_security_headers(client: TestClient, app: Any) -> None:
    @pages.public
    def broken() -> None:
        raise RuntimeError("boom")

    app.add_api_route("/api/broken", broken, methods=["GET"])
    answers = {
        "page": client.get("/"),
        "api": client.get("/api/games"),
        "static": client.get("/static/app.js"),
        "qr": client.get("/api/qr.svg", params={"url": "x"}),
        "404": client.get("/api/games/999"),
        "401": client.post("/api/games", json=GAME),
        "413": client.post("/api/games", content=b"x", headers={"Content-Length": "2000000"}),
        "500": client.get("/api/broken"),
    }
    assert [r.status_code for r in answers.values()] == [200, 200, 200, 200, 404, 401, 413, 500]
    assert answers["500"].json() == {"detail": errors.UNEXPECTED, "code": "unexpected",
                                     "params": {}}  # in words; the log has it
    for name, r in answers.items():
        for header, value in SECURITY_HEADERS.items():
            assert r.headers.get(header.decode()) == value.decode(), (name, header)
    csp = answers["page"].headers["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert answers["page"].headers["referrer-policy"] == "no-referrer"
    # only styles may be inline: scripts stay 'self'
    assert [d for d in csp.split("; ") if "unsafe" in d] == ["style-src 'self' 'unsafe-inline'"]


def test_the_page_needs_nothing_the_policy_forbids() -> None:
    """Browsers are not run here: check statically that the page fits its CSP."""
    page = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script
    assert "<style" not in page and not re.search(r"\son[a-z]+\s*=", page)  # nor handlers
    for script in STATIC.glob("*.js"):
        code = script.read_text()
        assert not re.search(r"\beval\(|new Function\(|https?://(?!www\.w3\.org)", code), script
