"""`GET /api/addresses`: where other phones can open the page, for the Share QR code when
the page itself was opened at a loopback address."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.web import reach
from scorekeeper.web.app import create_app


def _urls(tmp_path: Path, **settings: object) -> list[str]:
    app = create_app(Settings(data_dir=tmp_path, camera="none", **settings), token="t")
    with TestClient(app) as client:
        answer = client.get("/api/addresses")  # no token: Share is for viewers too
        assert answer.status_code == 200
        urls: list[str] = answer.json()["urls"]
        return urls


def test_every_interface_gives_the_lan_addresses_never_loopback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach, "_routed_ip", lambda: "192.168.1.20")
    monkeypatch.setattr(reach, "_host_ips",
                        lambda: ["127.0.1.1", "10.0.0.4", "192.168.1.20", "169.254.3.3"])
    assert _urls(tmp_path, host="0.0.0.0", port=8123) == [
        "http://192.168.1.20:8123/", "http://10.0.0.4:8123/"]


def test_no_network_and_loopback_give_none_a_named_host_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach, "_routed_ip", lambda: None)
    monkeypatch.setattr(reach, "_host_ips", lambda: ["127.0.1.1"])
    assert _urls(tmp_path / "a", host="0.0.0.0") == []
    assert _urls(tmp_path / "b", host="127.0.0.1") == []
    assert _urls(tmp_path / "c", host="192.168.7.7", port=9000) == ["http://192.168.7.7:9000/"]
    assert reach.lan_ip("0.0.0.0") == "127.0.0.1"  # what the banner shows, with its note
