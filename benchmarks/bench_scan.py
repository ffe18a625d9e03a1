"""Scan latency, request to response: a photo of a table with 10 or 30 cards (the shipped
bench frames, benchmarks/frames/) is uploaded to a running server's scan route. Prints the
median and worst per case.

    .venv/bin/python benchmarks/bench_scan.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from spawn import start_server

TOKEN = "bench-token"
FRAMES = Path(__file__).resolve().parent / "frames"
CASES = [("1280x960, 10 cards", "table-1280x960-10.jpg"),
         ("1280x960, 30 cards", "table-1280x960-30.jpg")]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    os.environ["SCOREKEEPER_CAMERA"] = "none"  # photos are uploaded: no camera probing
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp) / "bench.db", Path(tmp), TOKEN)
        try:
            auth = {"Authorization": f"Bearer {TOKEN}"}
            with httpx.Client(base_url=server.url, headers=auth, timeout=60) as client:
                game = client.post("/api/games", json={"variant": "rummy",
                                                       "players": ["Ann", "Bob"]}).json()
                for case, name in CASES:
                    files = {"image": ("table.jpg", (FRAMES / name).read_bytes(), "image/jpeg")}
                    client.post(f"/api/games/{game['id']}/scan", files=files)  # warm up
                    times, read = [], 0
                    for _ in range(args.repeats):
                        start = time.perf_counter()
                        r = client.post(f"/api/games/{game['id']}/scan", files=files)
                        times.append((time.perf_counter() - start) * 1000)
                        r.raise_for_status()
                        read = len(r.json()["cards"])
                    print(f"{case}: median "
                          f"{statistics.median(times):.0f} ms, worst {max(times):.0f} ms "
                          f"({read} cards read, {args.repeats} scans)")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
