"""Peak memory of the real server under photo floods: does it stay within 300 MiB of idle?

Starts the server on loopback with the card model, warms it up with one scan (the model
loaded, the reader's buffers grown once: the server's steady size at a table), then, each
case sent at once from threads, prints the answers and the server's peak resident memory
(VmHWM, reset before each case through /proc/PID/clear_refs) above that idle size:

- bombs: `--bombs` PNGs of `--side` × `--side` pixels (7071: just under the 50-megapixel
  cap; a few KB each, 143 MiB each decoded) to the public knock check, no token, from one
  address;
- at the cap: as many PNGs of the largest size a photo is still decoded whole (the gate's
  budget, web/http/decodes.py), blank so that they upload fast;
- phones: `--phones` phones scanning a photo of the table at once (`--photo`, default a
  1920 × 1080 table of 10 cards; the page sends at most 2048 px across).

    .venv/bin/python benchmarks/bench_memory.py [--bombs 6] [--side 7071] [--phones 30]
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import httpx
from bench_flood import png_bomb
from spawn import ServerProcess, memory_kib, start_server

TOKEN = "bench-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
FRAMES = Path(__file__).resolve().parent / "frames"
TARGET_MIB = 300
BUDGET_MIB = 128  # the server's default photo_memory_mb
BYTES_PER_PIXEL = 9  # as web/http/decodes.py counts a photo


class Peak:
    """The server's peak RSS during a case: its VmHWM after a reset, and RSS sampled every
    10 ms in case the reset is not allowed here."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.sampled = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Peak:
        with suppress(OSError):  # then the sampled RSS alone
            Path(f"/proc/{self.pid}/clear_refs").write_text("5")
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.sampled = max(self.sampled, memory_kib(self.pid)["VmRSS"])
            time.sleep(0.01)

    @property
    def mib(self) -> float:
        return max(self.sampled, memory_kib(self.pid)["VmHWM"]) / 1024


def at_once(count: int, send: Callable[[int], httpx.Response]) -> tuple[str, float]:
    """`send(i)` from `count` threads started together: the answers counted, and the time."""
    answers: list[str] = []
    gate = threading.Barrier(count)

    def one(i: int) -> None:
        gate.wait()
        try:
            r = send(i)
            code = r.json().get("code", "") if r.status_code >= 400 else ""
            answers.append(f"{r.status_code} {code}".strip())
        except httpx.HTTPError as exc:
            answers.append(type(exc).__name__)

    began = time.monotonic()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counted = collections.Counter(answers)
    return ", ".join(f"{n} × {a}" for a, n in counted.most_common()), time.monotonic() - began


def blank_png(side: int) -> bytes:
    import cv2
    import numpy as np

    return bytes(cv2.imencode(".png", np.full((side, side, 3), 90, np.uint8),
                              [cv2.IMWRITE_PNG_COMPRESSION, 9])[1].tobytes())


def case(server: ServerProcess, idle: float, label: str, count: int,
         send: Callable[[int], httpx.Response]) -> float:
    with Peak(server.pid) as peak:
        answers, took = at_once(count, send)
    above = peak.mib - idle
    print(f"{label}: {answers} in {took:.1f} s; peak {peak.mib:.0f} MiB, "
          f"{above:+.0f} MiB over idle")
    return above


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bombs", type=int, default=6)
    ap.add_argument("--side", type=int, default=7071)
    ap.add_argument("--phones", type=int, default=30)
    ap.add_argument("--photo", type=Path, default=FRAMES / "table-1920x1080-10.jpg")
    ap.add_argument("--budget-mib", type=int, default=BUDGET_MIB,
                    help="the server's photo_memory_mb (and so the size of the cap's PNGs)")
    args = ap.parse_args()
    os.environ["SCOREKEEPER_CAMERA"] = "none"
    os.environ["SCOREKEEPER_PHOTO_MEMORY_MB"] = str(args.budget_mib)
    photo = args.photo.read_bytes()
    bomb = png_bomb(args.side)
    cap_side = math.isqrt(args.budget_mib * 2**20 // BYTES_PER_PIXEL)
    capped = blank_png(cap_side)
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp) / "bench.db", Path(tmp), TOKEN)
        try:
            with httpx.Client(base_url=server.url, headers=ADMIN, timeout=120) as admin:
                gid = admin.post("/api/games", json={"variant": "chicago",
                                                     "players": ["Ann", "Bob"]}).json()["id"]
                files = {"image": ("table.jpg", photo, "image/jpeg")}
                admin.post(f"/api/games/{gid}/scan", files=files).raise_for_status()
            time.sleep(1)
            idle = memory_kib(server.pid)["VmRSS"] / 1024
            print(f"idle after a warm-up scan: {idle:.0f} MiB")
            public = httpx.HTTPTransport(local_address="127.0.0.2")
            with httpx.Client(base_url=server.url, timeout=120, transport=public) as phone:
                def knock(data: bytes) -> Callable[[int], httpx.Response]:
                    return lambda _: phone.post(
                        f"/api/games/{gid}/knock-check", data={"player": "Ann"},
                        files={"image": ("hand.png", data, "image/png")})

                worst = max(worst, case(
                    server, idle, f"bombs: {args.bombs} PNGs of {args.side} × {args.side} "
                                  f"({len(bomb) // 1024} KB) to the knock check",
                    args.bombs, knock(bomb)))
                worst = max(worst, case(
                    server, idle, f"at the cap: {args.bombs} PNGs of {cap_side} × {cap_side} "
                                  f"({len(capped) // 1024} KB) to the knock check",
                    args.bombs, knock(capped)))
            with httpx.Client(base_url=server.url, headers=ADMIN, timeout=120) as admin:
                worst = max(worst, case(
                    server, idle, f"phones: {args.phones} scans of {args.photo.name} "
                                  f"({len(photo) // 1024} KB)", args.phones,
                    lambda _: admin.post(f"/api/games/{gid}/scan", files=files)))
        finally:
            server.stop()
    print(f"worst: {worst:+.0f} MiB over idle (target ≤ {TARGET_MIB})")
    return 0 if worst <= TARGET_MIB else 1


if __name__ == "__main__":
    raise SystemExit(main())
