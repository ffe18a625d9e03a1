"""`deploy/uninstall.sh` on a club server: its unit goes, its data stays unless purged."""

from __future__ import annotations

from pathlib import Path

from test_deploy import install


def test_uninstall_removes_the_club_unit_and_keeps_its_data_unless_purged(
        tmp_path: Path) -> None:
    root = tmp_path / "root"
    done = install(root, "--no-apt", "--no-systemd", "--club-server")
    assert done.returncode == 0, done.stdout + done.stderr
    unit = root / "etc/systemd/system/scorekeeper-club.service"
    data = root / "var/lib/scorekeeper-club"
    assert unit.exists() and data.is_dir()

    done = install(root, script="uninstall.sh")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not unit.exists() and not (root / "opt/scorekeeper").exists()
    assert data.is_dir() and (root / "etc/scorekeeper/club.env").exists()

    done = install(root, "--purge", script="uninstall.sh")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not data.exists() and not (root / "etc/scorekeeper").exists()
