"""The scan API's failure paths: garbage uploads, no camera, no model. Nothing is stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.scanning import Vision
from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.deps import get_vision

ADMIN = {"Authorization": "Bearer secret"}
SAMPLE = Path(__file__).resolve().parents[1] / "scorekeeper" / "camera" / "samples"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    app = create_app(Settings(data_dir=tmp_path, camera="none"), token="secret")
    no_model = Vision(tmp_path / "no-models")  # no model: scans must say so
    app.dependency_overrides[get_vision] = lambda: no_model
    with TestClient(app) as c:
        r = c.post("/api/games", json={"variant": "chicago", "players": ["Ann", "Bob"]},
                   headers=ADMIN)
        assert r.status_code == 201
        yield c


def test_scan_needs_the_token(client: TestClient) -> None:
    assert client.post("/api/games/1/scan", json={"player": "Ann"}).status_code == 401


def test_a_file_that_is_not_an_image_is_refused(client: TestClient) -> None:
    r = client.post("/api/games/1/scan", headers=ADMIN,
                    files={"image": ("notes.txt", b"not a photo at all", "text/plain")})
    assert r.status_code == 415
    assert "notes.txt is not an image" in r.json()["detail"]


def test_an_upload_needs_the_image_field(client: TestClient) -> None:
    r = client.post("/api/games/1/scan", headers=ADMIN, data={"player": "Ann"},
                    files={"photo": ("a.jpg", b"x", "image/jpeg")})
    assert r.status_code == 422


def test_camera_scan_without_a_camera_is_503_and_the_server_stays_up(client: TestClient) -> None:
    r = client.post("/api/games/1/scan", json={"player": "Ann"}, headers=ADMIN)
    assert r.status_code == 503
    assert r.json()["detail"].startswith("camera none")
    assert client.get("/api/health").json()["camera"]["state"] == "none"
    assert client.get("/api/games/1").status_code == 200


def test_scan_without_a_model_is_503(client: TestClient) -> None:
    photo = next(SAMPLE.glob("*.jpg")).read_bytes()
    r = client.post("/api/games/1/scan", headers=ADMIN,
                    files={"image": ("table.jpg", photo, "image/jpeg")})
    assert r.status_code == 503
    assert "no trained model" in r.json()["detail"]


def test_unknown_player_and_bad_json(client: TestClient) -> None:
    photo = next(SAMPLE.glob("*.jpg")).read_bytes()
    r = client.post("/api/games/1/scan", headers=ADMIN, data={"player": "Zed"},
                    files={"image": ("table.jpg", photo, "image/jpeg")})
    assert r.status_code == 422 and "'Zed' is not a player" in r.json()["detail"]
    r = client.post("/api/games/1/scan", headers={**ADMIN, "Content-Type": "application/json"},
                    content=b"{nope")
    assert r.status_code == 422
    assert client.get("/api/games/1").json()["seq"] == 0  # nothing stored by any of these


class RecordingReader(Vision):
    """Stands in for the card reader: remembers which camera each frame was read for."""

    def __init__(self) -> None:
        super().__init__()
        self.cameras: list[str | None] = []

    def reader(self) -> RecordingReader:
        return self

    def read(self, image: object, camera: str | None = None) -> object:
        from scorekeeper.vision.reader import ReadResult

        self.cameras.append(camera)
        return ReadResult([], 1.0)


def test_camera_scans_share_a_scale_and_uploads_start_afresh(tmp_path: Path) -> None:
    # the reader keeps a settled scale per named camera (vision/refocus.py); a photo from a
    # phone is unrelated to the last one, so it must not be read at the camera's scale
    sample = next(SAMPLE.glob("*.jpg"))
    app = create_app(Settings(data_dir=tmp_path, camera=f"replay:{sample}"), token="secret")
    reader = RecordingReader()
    app.dependency_overrides[get_vision] = lambda: reader
    with TestClient(app) as c:
        assert c.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                      headers=ADMIN).status_code == 201
        assert c.post("/api/games/1/scan", json={}, headers=ADMIN).status_code == 201
        r = c.post("/api/games/1/scan", headers=ADMIN,
                   files={"image": ("table.jpg", sample.read_bytes(), "image/jpeg")})
        assert r.status_code == 201
    assert reader.cameras == ["camera", None]


def test_a_phone_photo_after_calibrating_is_read_without_the_cameras_calibration(
        tmp_path: Path) -> None:
    # the table's camera was calibrated on 1280 × 960 frames of the mat; a phone photo of
    # another size (and aspect) is a different view and must be read as it is, not refused
    import cv2

    from scorekeeper.calibration.calibration import calibrate_frame
    from scorekeeper.calibration.layout import mat_layout

    mat = SAMPLE / "sample-1-mat-a4.jpg"
    settings = Settings(data_dir=tmp_path, camera=f"replay:{mat}")
    calibrate_frame(cv2.imread(str(mat)), mat_layout("A4")).save(settings.calibration_path)
    app = create_app(settings, token="secret")
    reader = RecordingReader()
    app.dependency_overrides[get_vision] = lambda: reader
    photo = cv2.imencode(".jpg", cv2.resize(cv2.imread(str(mat)), (378, 504)))[1].tobytes()
    with TestClient(app) as c:
        assert c.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                      headers=ADMIN).status_code == 201
        r = c.post("/api/games/1/scan", headers=ADMIN,
                   files={"image": ("phone.jpg", photo, "image/jpeg")})
        assert r.status_code == 201, r.text
        assert c.post("/api/games/1/scan", json={}, headers=ADMIN).status_code == 201


def test_a_broken_calibration_is_left_out_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    sample = next(SAMPLE.glob("*.jpg"))
    settings = Settings(data_dir=tmp_path, camera=f"replay:{sample}")
    settings.calibration_path.parent.mkdir(parents=True, exist_ok=True)
    settings.calibration_path.write_text("{not a calibration")
    app = create_app(settings, token="secret")
    reader = RecordingReader()
    app.dependency_overrides[get_vision] = lambda: reader
    with TestClient(app) as c, caplog.at_level("WARNING", logger="scorekeeper.scanning.service"):
        assert c.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                      headers=ADMIN).status_code == 201
        r = c.post("/api/games/1/scan", json={}, headers=ADMIN)
        assert r.status_code == 201, r.text  # the frame is read as it is
    assert any("scan without the calibration" in m and "not a scorekeeper calibration" in m
               for m in caplog.messages)


class OfferingReader(Vision):
    """Stands in for the card reader: reads no card and offers a joker and a 5♥ as maybe
    seen, as the reader does whatever the game (it knows no game)."""

    def reader(self) -> OfferingReader:
        return self

    def read(self, image: object, camera: str | None = None) -> object:
        from scorekeeper.vision.pairing import PhysicalCard
        from scorekeeper.vision.reader import ReadResult

        offers = [PhysicalCard(code, 0.4, (10.0 + 60 * i, 10.0, 50.0 + 60 * i, 80.0), ())
                  for i, code in enumerate(["JK", "5H"])]
        return ReadResult([], 1.0, maybe=offers)


@pytest.mark.parametrize(("variant", "settings", "offered"), [
    ("chicago", {}, ["5H"]),  # no jokers in Chicago's decks: no joker offered
    ("rummy500", {"jokers": 2}, ["JK", "5H"]),
    ("rummy500", {"jokers": 0}, ["5H"]),
])
def test_a_scan_offers_only_cards_the_games_decks_hold(
        tmp_path: Path, variant: str, settings: dict[str, int], offered: list[str]) -> None:
    import cv2
    import numpy as np

    app = create_app(Settings(data_dir=tmp_path, camera="none"), token="secret")
    reader = OfferingReader()
    app.dependency_overrides[get_vision] = lambda: reader
    photo = cv2.imencode(".jpg", np.full((240, 320, 3), 200, np.uint8))[1].tobytes()
    with TestClient(app) as c:
        assert c.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"],
                                          "settings": settings},
                      headers=ADMIN).status_code == 201
        r = c.post("/api/games/1/scan", headers=ADMIN, data={"player": "Ann"},
                   files={"image": ("hand.jpg", photo, "image/jpeg")})
        assert r.status_code == 201, r.text
        assert [m["card"] for m in r.json()["maybe"]] == offered
        if variant == "chicago":  # the private knock check is laid out the same way
            k = c.post("/api/games/1/knock-check", data={"player": "Ann"},
                       files={"image": ("hand.jpg", photo, "image/jpeg")})
            assert k.status_code == 200, k.text
            assert k.json()["maybe"] == offered
