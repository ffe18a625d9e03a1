"""benchmarks/bench_reopen.py at a tiny size with `--pin`: the flood in a process of its own
(more sockets than the server has places, so it keeps re-opening them) still counts its
connects where the turn's line reads them, and the phone's time comes split in two. The
full runs (root, nft) are made by hand (docs/server.md); this checks that the
script behind those figures runs end to end, not what they are on a machine busy with tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_reopen.py"


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="--pin needs two cores")
def test_pinned_flood_counts_its_connects_across_processes() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--modes", "off", "--shape", "heads", "--pin",
         "--connections", "120", "--file-limit", "256", "--addresses", "3", "--seconds", "1",
         "--warm-s", "0.3", "--rounds", "1"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "the flood on another" in out
    assert re.search(r"connect p50/p99/max [\d.]+/[\d.]+/[\d.]+ ms, answer ", out), out
    connects = re.search(r"flood (\d+) connects/s", out)
    assert connects is not None and int(connects.group(1)) > 0, out  # counted in the child
    assert re.search(r"the flood's \d+%", out), out
