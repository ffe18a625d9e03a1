"""The club server's systemd unit: valid, after PostgreSQL, restarted when killed, and
running `club serve` with its own config (the table's unit is tested in test_deploy.py)."""

from __future__ import annotations

from pathlib import Path

from deploy_helpers import DEPLOY, install, mode, unit_lines, verify_unit

from scorekeeper.config import load_settings

UNIT = DEPLOY / "scorekeeper-club.service"


def test_club_unit_verifies(tmp_path: Path) -> None:
    verify_unit(UNIT, tmp_path)


def test_club_unit_starts_after_postgresql_and_comes_back_when_killed() -> None:
    have = unit_lines(UNIT)
    for wanted in ("After=network-online.target postgresql.service",
                   "ExecStart=/opt/scorekeeper/venv/bin/scorekeeper club serve "
                   "--config /etc/scorekeeper/club.toml",
                   "EnvironmentFile=-/etc/scorekeeper/club.env",
                   "Restart=on-failure", "RestartPreventExitStatus=2", "User=scorekeeper",
                   "NoNewPrivileges=yes", "ProtectSystem=strict",
                   "ReadWritePaths=/var/lib/scorekeeper-club", "PrivateDevices=yes"):
        assert wanted in have, wanted
    assert not any(line.startswith("SupplementaryGroups=video") for line in have)


def test_install_club_server_lays_out_the_club_and_keeps_its_edits(tmp_path: Path) -> None:
    """`install.sh --club-server` on a fake root: the club's unit (its prefix put in), its
    settings (a valid config: the club server, its own data folder) and the database URL
    file, root's alone; run again, both files keep their edits. Without the option, no
    club unit."""
    root = tmp_path / "root"
    done = install(root, "--no-apt", "--no-systemd", "--club-server", "--port", "8100")
    assert done.returncode == 0, done.stdout + done.stderr
    unit = root / "etc/systemd/system/scorekeeper-club.service"
    assert unit.read_text() == UNIT.read_text()
    etc = root / "etc/scorekeeper"
    settings = load_settings(etc / "club.toml")
    assert settings.club_server and settings.club_url is None
    assert settings.data_dir == Path("/var/lib/scorekeeper-club") and settings.port == 8100
    env = etc / "club.env"
    assert mode(env) == 0o600
    assert "SCOREKEEPER_DB=postgresql:///scorekeeper" in env.read_text().splitlines()
    assert mode(root / "var/lib/scorekeeper-club") == 0o750
    assert "http://" in done.stdout and "/club" in done.stdout  # where the big screen is
    assert "club add-table table-1" in done.stdout

    (etc / "club.toml").write_text((etc / "club.toml").read_text().replace(
        "port = 8100", "port = 8200  # mine"))
    env.write_text("SCOREKEEPER_DB=postgresql://sk:secret@db.local/club\n")
    done = install(root, "--no-apt", "--no-systemd", "--club-server", "--prefix", "/srv/sk")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "port = 8200  # mine" in (etc / "club.toml").read_text()
    assert env.read_text() == "SCOREKEEPER_DB=postgresql://sk:secret@db.local/club\n"
    assert mode(env) == 0o600
    text = unit.read_text()
    assert "ExecStart=/srv/sk/venv/bin/scorekeeper club serve" in text
    assert "/opt/scorekeeper" not in text

    table = tmp_path / "table"
    done = install(table, "--no-apt", "--no-systemd")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (table / "etc/systemd/system/scorekeeper-club.service").exists()
    assert not (table / "etc/scorekeeper/club.toml").exists()


def test_install_club_server_refuses_a_bad_club_config(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "etc/scorekeeper").mkdir(parents=True)
    (root / "etc/scorekeeper/club.toml").write_text("[club]\nserver = true\nport = 8000\n")
    done = install(root, "--no-apt", "--no-systemd", "--club-server")
    assert done.returncode != 0 and "club.toml" in done.stderr
