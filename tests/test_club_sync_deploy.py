"""The club server's systemd unit: valid, after PostgreSQL, restarted when killed, and
running `club serve` with its own config (the table's unit is tested in test_deploy.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "deploy" / "scorekeeper-club.service"


def lines() -> set[str]:
    return {line.strip() for line in UNIT.read_text().splitlines()
            if line.strip() and not line.startswith("#")}


def test_club_unit_verifies(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze not installed (apt-get install systemd)")
    stub = tmp_path / "scorekeeper"
    stub.write_text("#!/bin/sh\n")
    stub.chmod(0o755)
    unit = tmp_path / "scorekeeper-club.service"
    unit.write_text(UNIT.read_text().replace("/opt/scorekeeper/venv/bin/scorekeeper", str(stub)))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)],
                          capture_output=True, text=True)
    complaints = [line for line in (done.stdout + done.stderr).splitlines()
                  if "scorekeeper" in line]
    assert done.returncode == 0 and not complaints, "\n".join(complaints) or done.stderr


def test_club_unit_starts_after_postgresql_and_comes_back_when_killed() -> None:
    have = lines()
    for wanted in ("After=network-online.target postgresql.service",
                   "ExecStart=/opt/scorekeeper/venv/bin/scorekeeper club serve "
                   "--config /etc/scorekeeper/club.toml",
                   "EnvironmentFile=-/etc/scorekeeper/club.env",
                   "Restart=on-failure", "RestartPreventExitStatus=2", "User=scorekeeper",
                   "NoNewPrivileges=yes", "ProtectSystem=strict",
                   "ReadWritePaths=/var/lib/scorekeeper-club", "PrivateDevices=yes"):
        assert wanted in have, wanted
    assert not any(line.startswith("SupplementaryGroups=video") for line in have)
