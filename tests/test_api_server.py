"""`serve` plumbing: settings and defaults, the address shown, the console banner."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorekeeper.settings import Settings
from scorekeeper.web.server import banner, base_url, lan_ip


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SCOREKEEPER_DATA_DIR", "SCOREKEEPER_DB", "SCOREKEEPER_PORT", "SCOREKEEPER_HOST"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    s = Settings()
    assert (s.host, s.port, s.camera) == ("0.0.0.0", 8000, None)
    assert s.db_path == tmp_path / "scorekeeper" / "scorekeeper.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Settings().data_dir == tmp_path / ".local" / "share" / "scorekeeper"


def test_env_and_arguments(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("SCOREKEEPER_PORT", "9001")
    s = Settings()
    assert s.port == 9001 and s.db_path == tmp_path / "d" / "scorekeeper.db"
    s = Settings(db=tmp_path / "x.db", port=9002, camera="0")
    assert (s.db_path, s.port, s.camera) == (tmp_path / "x.db", 9002, "0")


def test_address_is_never_the_wildcard() -> None:
    assert lan_ip("127.0.0.1") == "127.0.0.1"
    assert lan_ip("0.0.0.0") not in ("0.0.0.0", "")
    assert base_url("10.0.0.5", 8000) == "http://10.0.0.5:8000/"
    assert base_url("::1", 80) == "http://[::1]:80/"


def test_banner_shows_address_admin_link_and_qr_codes(tmp_path: Path) -> None:
    out = io.StringIO()
    banner("http://10.0.0.5:8000/", "tok", "new", tmp_path / "db", out)
    text = out.getvalue()
    assert "http://10.0.0.5:8000/" in text
    assert "http://10.0.0.5:8000/#token=tok" in text
    assert text.count("█") > 100  # two QR codes drawn in block characters
