"""benchmarks/club_load.py and club_outage.py at a tiny size, so that the scripts behind
docs/club.md's Figures cannot rot: each runs end to end on the tests' PostgreSQL (real club
server, real forwarders, real live streams) and says PASS.

The full sizes are run by hand (docs/club.md, Figures). Here the latency limit is loose: this
checks that the figures are whole, not what they are on a machine busy with other tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, pg_url: str, tmp_path: Path, *args: str
        ) -> tuple[str, dict[str, Any]]:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--db", pg_url, "--json", str(out), *args],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, json.loads(out.read_text())


def verdict(stdout: str) -> str:
    """The summary's last word: "PASS ..." or "FAIL: why"."""
    found = [ln.strip() for ln in stdout.splitlines() if ln.strip().startswith(("PASS", "FAIL"))]
    assert found, stdout
    return found[-1]


def test_club_load_small(pg_url: str, tmp_path: Path) -> None:
    stdout, figures = run("club_load.py", pg_url, tmp_path, "--tables", "2", "--phones", "1",
                          "--screens", "1", "--minutes", "0.25", "--hand-s", "0.5,1",
                          "--p99-ms", "3000", "--quiet")
    assert verdict(stdout).startswith("PASS"), stdout
    assert figures["ok"] and figures["errors"] == 0 and figures["missed"] == 0
    assert figures["hands"] > 5 and figures["events_at_club"] == figures["hands"]
    assert figures["streams"] == figures["streams_wanted"] == 3
    assert figures["delivery"]["n"] > 0 and figures["screen"]["n"] > 0
    assert figures["cpu_pct"]["club_server"] is not None


def test_club_outage_small(pg_url: str, tmp_path: Path) -> None:
    stdout, figures = run("club_outage.py", pg_url, tmp_path, "--tables", "2",
                          "--hand-s", "0.5,1", "--warm-s", "2", "--down-s", "2",
                          "--outage-s", "3", "--cut-s", "3", "--after-s", "1",
                          "--retry-max-s", "1", "--timeout-s", "2", "--quiet")
    assert verdict(stdout) == "PASS", stdout
    assert figures["ok"]
    assert [s["scenario"] for s in figures["scenarios"]] == ["a", "b", "c"]
    for scenario in figures["scenarios"]:
        assert scenario["ok"], scenario
        assert scenario["same"] == scenario["table_events"] == scenario["club_events"] > 0
        assert scenario["missing"] == scenario["extra"] == scenario["orphan_club_games"] == 0
        assert all(scenario["standings_equal"].values())
    # the cut is a real network namespace wherever one can be made
    assert figures["netns"] == can_make_netns()


def can_make_netns() -> bool:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    name = f"sktest{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, check=False)
    subprocess.run(["ip", "netns", "del", name], capture_output=True, check=False)
    return made.returncode == 0
