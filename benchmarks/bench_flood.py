"""Floods from one machine: does the server keep answering everyone else?

Starts the real server on loopback with an open-file limit of `--file-limit`, soft and hard
(so the server cannot lift it: 1024 is what many machines give a service), then, each phase
probing `/api/health` on a new connection from another address every 0.1 s (timeout 2 s)
and printing p50/p99/max latency and failures:

- idle: no load, the baseline;
- flood: `--connections` sockets from `--addresses` loopback addresses (127.0.0.2, …: each
  under the per-address cap, as one phone with many IPv6 addresses could) each send half a
  request line and nothing more, more than the server has places for, probed for up to 8 s
  (before the request-head deadline closes them);
- flood kept up: the same, but every socket the server closes is opened again at once,
  probed for `--seconds`; then the same kept up in each of the other `--shapes`:
  `bodies` (a photo's upload to the public knock check begun, then one byte every
  `--trickle-s` seconds, under the 20 s a body may stall), `keep-alives` (a whole request
  answered, then the connection left open) and `streams` (live event streams of one game,
  kept open; a new phone's own stream is tried too);
- qr: `--qr-clients` threads ask for QR codes of distinct 500-character texts;
- bomb: one 20 000 × 20 000 PNG upload (55 KB; 1.2 GB decoded): its answer and time.

and the server's resident memory (VmRSS now, VmHWM peak) after each. The card model is
pointed at an empty folder, so a bomb that gets through is decoded but never read.

    .venv/bin/python benchmarks/bench_flood.py [--connections 1100] [--addresses 20]
        [--file-limit 1024] [--seconds 15] [--shapes heads,bodies,keep-alives,streams]
"""

from __future__ import annotations

import argparse
import os
import resource
import selectors
import socket
import statistics
import struct
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx
from spawn import ServerProcess, start_server

TOKEN = "bench-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}


def memory_mib(pid: int) -> str:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return f"RSS {fields['VmRSS']:.0f} MiB, peak {fields['VmHWM']:.0f} MiB"


def png_bomb(side: int) -> bytes:
    """A black 1-bit PNG of side × side pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    packer = zlib.compressobj(9)
    row = bytes(1 + (side + 7) // 8)
    idat = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    head = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


PHONE = "127.0.0.99"  # the new phone's address: none of the flood's


def timed_health(url: str) -> tuple[float, float] | None:
    """GET /api/health on a new connection, as a phone arriving would, timed in two: (connect,
    answer after it) in ms; None if it failed. A raw socket, because a new httpx client costs
    more (~30 ms) than the answer."""
    host, port = url.removeprefix("http://").split(":")
    began = time.perf_counter()
    try:
        with socket.create_connection((host, int(port)), timeout=2,
                                      source_address=(PHONE, 0)) as sock:
            connected = time.perf_counter()
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError:
        return None
    if not answer.startswith(b"HTTP/1.1 200"):
        return None
    ended = time.perf_counter()
    return (connected - began) * 1000, (ended - connected) * 1000


def health(url: str) -> bool:
    """Whether a phone arriving gets 200 from /api/health (`timed_health`)."""
    return timed_health(url) is not None


def probe(url: str, seconds: float, busy: Callable[[], bool] = lambda: True) -> str:
    """Health latencies on fresh connections for `seconds` (or until `busy()` is False)."""
    times: list[float] = []
    failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and busy():
        start = time.perf_counter()
        ok = health(url)
        if ok:
            times.append((time.perf_counter() - start) * 1000)
        else:
            failures += 1
        time.sleep(0.1)
    if not times:
        return f"health: no answer ({failures} failures)"
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"health p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, "
            f"max {times[-1]:.1f} ms, {failures} failed of {len(times) + failures}")


HALF = b"GET /api/health HTTP/1.1\r\nHost: x\r\n"  # the blank line never comes
GAME = 1  # a Chicago game, so that the knock check reads the body
# each shape: what a flood socket sends on opening, and whether it then trickles a byte
SHAPES: dict[str, tuple[bytes, bool]] = {
    "heads": (HALF, False),
    "bodies": (f"POST /api/games/{GAME}/knock-check HTTP/1.1\r\nHost: x\r\n"
               f"Content-Type: multipart/form-data; boundary=b\r\n"
               f"Content-Length: 1000000\r\n\r\n--b\r\nContent-Disposition: form-data; "
               f"name=\"image\"; filename=\"hand.jpg\"\r\n"
               f"Content-Type: image/jpeg\r\n\r\n".encode() + b"\xff\xd8", True),
    "keep-alives": (b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n", False),
    "streams": (f"GET /api/games/{GAME}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode(), False),
}


def flood(server: ServerProcess, n: int, addresses: int, seconds: float, *,
          refill: bool, shape: str = "heads", trickle_s: float = 15.0) -> None:
    """`n` sockets of `shape` from `addresses` addresses while a new phone probes;
    `refill`: any the server closes is opened again at once (a flood kept at full
    strength). Whatever the server sends on a socket it keeps open is read and dropped."""
    host, port = server.url.removeprefix("http://").split(":")
    sources = [f"127.0.0.{2 + i % addresses}" for i in range(n)]
    selector = selectors.DefaultSelector()
    opening, trickles = SHAPES[shape]

    def open_one(source: str) -> None:
        sock = socket.create_connection((host, int(port)), timeout=5,
                                        source_address=(source, 0))
        sock.sendall(opening)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, source)

    began = time.monotonic()
    for source in sources:
        with suppress(OSError):
            open_one(source)
    print(f"flood{' kept up' if refill else ''}: {n} {shape} from {addresses} addresses "
          f"open in {time.monotonic() - began:.2f} s")
    stop = threading.Event()
    reopened = [0]

    def keep_up() -> None:
        next_trickle = time.monotonic() + trickle_s
        while refill and not stop.is_set():
            for key, _ in selector.select(0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                got = b""
                with suppress(OSError):
                    got = sock.recv(65536)
                if got:
                    continue  # an answer on a socket kept open: a keep-alive, a stream
                selector.unregister(sock)
                sock.close()
                with suppress(OSError):
                    open_one(key.data)
                    reopened[0] += 1
            if trickles and time.monotonic() >= next_trickle:
                next_trickle += trickle_s
                for key in list(selector.get_map().values()):
                    with suppress(OSError):
                        key.fileobj.send(b"x")  # type: ignore[union-attr]

    refiller = threading.Thread(target=keep_up)
    refiller.start()
    try:
        print(f"  {probe(server.url, seconds)}")
        if shape == "streams":
            print(f"  a new phone's own live stream: {new_stream(server.url)}")
    finally:
        stop.set()
        refiller.join()
    if refill:
        print(f"  flood sockets closed by the server and opened again: {reopened[0]}")
    print(f"  server {memory_mib(server.pid)}")
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    selector.close()


def new_stream(url: str) -> str:
    """A new phone opens the game's live stream: its status, and whether the game came."""
    host, port = url.removeprefix("http://").split(":")
    answer = b""
    try:
        with socket.create_connection((host, int(port)), timeout=2,
                                      source_address=(PHONE, 0)) as sock:
            sock.sendall(SHAPES["streams"][0])
            while not (b" 200 " in answer.split(b"\r\n", 1)[0] and b"data:" in answer) \
                    and not (b"\r\n\r\n" in answer and b" 200 " not in answer[:16]):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
    except OSError as exc:
        return f"failed ({exc}) after {answer[:40]!r}"
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    body = answer.partition(b"\r\n\r\n")[2]
    came = " 200 " in status and b"data:" in body
    return f"{status}{', the game came' if came else ''}"


def qr_load(server: ServerProcess, clients: int, seconds: float) -> None:
    stop = time.monotonic() + seconds
    counts = [0] * clients

    def ask(i: int) -> None:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            while time.monotonic() < stop:
                text = f"{i}-{counts[i]}-" + "q" * 490
                try:
                    client.get("/api/qr.svg", params={"url": text})
                except httpx.HTTPError:
                    time.sleep(0.1)
                counts[i] += 1

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    line = probe(server.url, seconds - 1, lambda: time.monotonic() < stop)
    for thread in threads:
        thread.join()
    print(f"qr: {clients} clients, {sum(counts)} codes drawn in {seconds:g} s")
    print(f"  {line}")
    print(f"  server {memory_mib(server.pid)}")


def bomb(server: ServerProcess) -> None:
    data = png_bomb(20_000)
    with httpx.Client(base_url=server.url, timeout=120) as client:
        gid = client.post("/api/games", json={"variant": "rummy", "players": ["A", "B"]},
                          headers=ADMIN).json()["id"]
        began = time.perf_counter()
        r = client.post(f"/api/games/{gid}/scan", headers=ADMIN,
                        files={"image": ("bomb.png", data, "image/png")})
        took = time.perf_counter() - began
    print(f"bomb: {len(data) // 1024} KB PNG of 20000 × 20000 → {r.status_code} in {took:.2f} s"
          f" ({r.json().get('detail', '')[:70]})")
    print(f"  server {memory_mib(server.pid)}")


@contextmanager
def flood_target(connections: int, file_limit: int) -> Iterator[ServerProcess]:
    """A model-less server with one game, `file_limit` files open at most, in a temporary
    folder; this process may open `connections` sockets and more."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, connections + 1000), hard))
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCOREKEEPER_MODEL_DIR"] = str(Path(tmp) / "no-models")
        server = start_server(Path(tmp) / "bench.db", Path(tmp), TOKEN, file_limit=file_limit)
        try:
            with httpx.Client(base_url=server.url, timeout=5) as client:
                client.post("/api/games", json={"variant": "chicago", "players": ["A", "B"]},
                            headers=ADMIN).raise_for_status()
            yield server
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--addresses", type=int, default=20)
    parser.add_argument("--file-limit", type=int, default=1024)
    parser.add_argument("--qr-clients", type=int, default=8)
    parser.add_argument("--qr-seconds", type=float, default=8)
    parser.add_argument("--shapes", default="heads,bodies,keep-alives,streams",
                        help="the floods kept up, each for --seconds")
    parser.add_argument("--trickle-s", type=float, default=15.0)
    args = parser.parse_args()
    with flood_target(args.connections, args.file_limit) as server:
        print(f"idle: {probe(server.url, 3)}")
        print(f"  server {memory_mib(server.pid)}")
        # before the request-head deadline (10 s) closes them all
        flood(server, args.connections, args.addresses, min(args.seconds, 8), refill=False)
        time.sleep(12)  # the held sockets are gone (closed above, or by the deadline)
        for shape in args.shapes.split(","):
            flood(server, args.connections, args.addresses, args.seconds, refill=True,
                  shape=shape, trickle_s=args.trickle_s)
            time.sleep(2)  # the flood's sockets closed, its requests ended
        if args.qr_clients:
            qr_load(server, args.qr_clients, args.qr_seconds)
        bomb(server)


if __name__ == "__main__":
    main()
