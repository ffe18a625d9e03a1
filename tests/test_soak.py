"""benchmarks/soak.py at a small size: kills lose no answered hand, memory stays flat.

The full size (300 hands, 20 phones, 10 kills) is run by hand: .venv/bin/python benchmarks/soak.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SOAK = Path(__file__).resolve().parent.parent / "benchmarks" / "soak.py"


def test_small_soak_passes() -> None:
    done = subprocess.run(
        [sys.executable, str(SOAK), "--hands", "30", "--clients", "5", "--kills", "2", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["ok"] and figures["problems"] == []
    assert figures["hands"] == 30 and figures["kills"] == 2
    assert figures["integrity"] == "ok"
    assert figures["clients_caught_up"] == 5 and figures["out_of_order"] == 0
    assert figures["growth_pct"] < 5


def test_a_kill_during_the_read_back_after_a_restart_is_survived() -> None:
    """Seed 2 puts two kills so close that the second lands while the poster reads its game
    back after the first restart; that read-back used to end the soak in httpx.ConnectError."""
    done = subprocess.run(
        [sys.executable, str(SOAK), "--hands", "40", "--clients", "4", "--kills", "3",
         "--seed", "2", "--json"],
        capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["ok"] and figures["kills"] == 3 and figures["problems"] == []
