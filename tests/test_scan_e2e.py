"""Scanning end to end with the shipped model: a phone photo, and the replay camera."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.vision.classes import rank_of
from scorekeeper.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "tests" / "fixtures" / "real"
ADMIN = {"Authorization": "Bearer secret"}
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no trained model in models/")


def client_for(tmp_path: Path, camera: str, variant: str = "rummy") -> TestClient:
    client = TestClient(create_app(Settings(data_dir=tmp_path, camera=camera), token="secret"))
    client.__enter__()
    r = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"]},
                    headers=ADMIN)
    assert r.status_code == 201
    return client


def test_photo_upload_reads_the_card_and_serves_the_annotated_photo(tmp_path: Path) -> None:
    client = client_for(tmp_path, "none")
    photo = (REAL / "IMG_2385.JPG").read_bytes()  # the king of hearts on a carpet
    r = client.post("/api/games/1/scan", headers=ADMIN, data={"player": "ann"},
                    files={"image": ("king.jpg", photo, "image/jpeg")})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["player"] == "Ann"
    assert [rank_of(c["card"]) for c in body["cards"]] == ["K"]
    assert body["hand"] == [c["card"] for c in body["cards"]]  # one loose card: leftover
    image = client.get(body["image"])
    assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
    client.__exit__(None, None, None)


def test_replay_camera_scan_and_chicago_knock_check(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(REAL / "IMG_2419.JPG", frames / "0.jpg")  # a queen
    client = client_for(tmp_path / "data", f"replay:{frames}", variant="chicago")
    r = client.post("/api/games/1/scan", json={"player": "Bob"}, headers=ADMIN)
    assert r.status_code == 201, r.text
    body = r.json()
    assert [rank_of(c["card"]) for c in body["cards"]] == ["Q"]
    assert len(body["hand"]) == 1
    assert body["knock"] is None  # a lone queen is no whole hand: no verdict on it
    assert client.get("/api/games/1").json()["seq"] == 0  # a scan stores nothing
    client.__exit__(None, None, None)
