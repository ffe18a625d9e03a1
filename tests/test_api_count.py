"""The live count while aiming: shared camera reads (one in flight, one a second, a frame
read once), the photo count through the decode gate, and its refusals."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from scorekeeper.scanning import Vision
from scorekeeper.scanning.counts import CameraCounts, LiveCount
from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.deps import get_vision
from scorekeeper.web.http.decodes import DecodeGate
from scorekeeper.web.state import parts

ADMIN = {"Authorization": "Bearer secret"}
SAMPLE = Path(__file__).resolve().parents[1] / "scorekeeper" / "camera" / "samples"
PHOTO = cv2.imencode(".jpg", np.full((240, 320, 3), 200, np.uint8))[1].tobytes()


class CountingReader(Vision):
    """Stands in for the card reader: two sure cards and one unsure, slowly enough that
    requests overlap; counts its reads, and how many ran at once at most."""

    def __init__(self, delay_s: float = 0.3) -> None:
        super().__init__()
        self.delay_s = delay_s
        self.cameras: list[str | None] = []
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def reader(self) -> CountingReader:
        return self

    def read(self, image: object, camera: str | None = None) -> object:
        from scorekeeper.vision.pairing import PhysicalCard
        from scorekeeper.vision.reader import ReadResult

        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.cameras.append(camera)
        time.sleep(self.delay_s)
        with self._lock:
            self.running -= 1
        cards = [PhysicalCard(code, 0.9, (10.0 + 60 * i, 10.0, 50.0 + 60 * i, 80.0), (),
                              probability=0.9, sure=code != "8D")
                 for i, code in enumerate(["5H", "8D", "KS"])]
        return ReadResult(cards, 12.0)


def _app(tmp_path: Path, camera: str, reader: Vision) -> TestClient:
    app = create_app(Settings(data_dir=tmp_path, camera=camera), token="secret")
    app.dependency_overrides[get_vision] = lambda: reader
    return TestClient(app)


def _game(c: TestClient) -> None:
    r = c.post("/api/games", json={"variant": "chicago", "players": ["Ann", "Bob"]},
               headers=ADMIN)
    assert r.status_code == 201


# ---- the shared camera count ------------------------------------------------------------


def test_phones_aiming_together_share_one_read_a_second(tmp_path: Path) -> None:
    reader = CountingReader()
    sample = SAMPLE / "sample-3-no-mat.jpg"
    with _app(tmp_path, f"replay:{sample}", reader) as c:
        _game(c)
        answers: list[dict[str, Any]] = []

        def ask() -> None:
            r = c.get("/api/games/1/count", headers=ADMIN)
            assert r.status_code == 200, r.text
            answers.append(r.json())

        phones = [threading.Thread(target=ask) for _ in range(4)]
        for p in phones:
            p.start()
        for p in phones:
            p.join()
        assert len(reader.cameras) == 1 and reader.most == 1  # one read, none alongside
        assert sorted(a["fresh"] for a in answers) == [False, False, False, True]
        assert {(a["count"], a["unsure"], a["source"]) for a in answers} == {(3, 1, "camera")}
        assert reader.cameras == ["camera"]  # read as the camera's frame: its scale settles
        assert c.get("/api/games/1/count", headers=ADMIN).json()["fresh"] is False
        assert c.get("/api/games/1/count", headers=ADMIN).headers["cache-control"] == "no-store"


def test_the_camera_count_is_read_at_most_once_a_second_and_a_frame_once() -> None:
    now = [0.0]
    counts = CameraCounts(every_s=1.0, clock=lambda: now[0])
    frames = [object()]
    reads: list[object] = []

    async def capture() -> object:
        return frames[-1]

    async def read(frame: object) -> LiveCount:
        reads.append(frame)
        return LiveCount(len(reads), 0, 0, 1.0)

    async def ask(deck: str | None = None) -> tuple[LiveCount, bool]:
        return await counts.count("camera", deck, capture, read)

    assert asyncio.run(ask()) == (LiveCount(1, 0, 0, 1.0), True)
    now[0] = 0.9
    assert asyncio.run(ask())[1] is False  # within the second: the last count
    now[0] = 2.0
    assert asyncio.run(ask())[1] is False and len(reads) == 1  # the same frame: not again
    frames.append(object())
    now[0] = 3.0  # (the same frame was looked at at 2.0: the second starts again there)
    assert asyncio.run(ask()) == (LiveCount(2, 0, 0, 1.0), True)  # a new frame, a new read
    now[0] = 3.9
    started = time.monotonic()
    assert asyncio.run(ask("blue"))[1] is True and len(reads) == 3  # another deck: its read
    assert time.monotonic() - started >= 0.09  # but only once the second is over
    assert counts.reads == 3


def test_the_camera_count_without_a_camera_or_a_game_is_refused_plainly(
        tmp_path: Path) -> None:
    reader = CountingReader(0)
    with _app(tmp_path, "none", reader) as c:
        assert c.get("/api/games/1/count").status_code == 401  # admin only, as a scan
        assert c.get("/api/games/1/count", headers=ADMIN).status_code == 404
        _game(c)
        r = c.get("/api/games/1/count", headers=ADMIN)
        assert r.status_code == 503 and r.json()["code"] == "camera_none"
        assert reader.cameras == []
        assert c.get("/api/games/1").json()["seq"] == 0  # nothing stored


def test_the_camera_count_needs_the_reader(tmp_path: Path) -> None:
    sample = SAMPLE / "sample-3-no-mat.jpg"
    with _app(tmp_path, f"replay:{sample}", Vision(tmp_path / "no-models")) as c:
        _game(c)
        r = c.get("/api/games/1/count", headers=ADMIN)
        assert r.status_code == 503 and r.json()["code"] == "reader_unavailable"


# ---- a phone's viewfinder frame -----------------------------------------------------------


def test_a_viewfinder_frame_is_counted_as_a_photo(tmp_path: Path) -> None:
    reader = CountingReader(0)
    with _app(tmp_path, "none", reader) as c:
        _game(c)
        for _ in range(2):  # each frame is its own read: a phone's frames differ
            r = c.post("/api/games/1/count", headers=ADMIN,
                       files={"image": ("frame.jpg", PHOTO, "image/jpeg")})
            assert r.status_code == 200, r.text
            assert r.json() | {"ms": 0} == {"count": 3, "unsure": 1, "unread": 0, "ms": 0,
                                            "source": "photo", "fresh": True}
        assert reader.cameras == [None, None]  # a photo: no camera's scale


@pytest.mark.parametrize(("kwargs", "status", "code"), [
    ({"files": {"image": ("notes.txt", b"not a photo at all", "text/plain")}}, 415,
     "photo_not_image"),
    ({"files": {"photo": ("a.jpg", PHOTO, "image/jpeg")}}, 422, "photo_missing"),
    ({"json": {"image": "nope"}}, 422, "photo_missing"),
    ({"files": {"image": ("cut.jpg", PHOTO[:200], "image/jpeg")}}, 415, "photo_unreadable"),
])
def test_a_bad_viewfinder_frame_gets_a_clear_error(
        tmp_path: Path, kwargs: dict[str, Any], status: int, code: str) -> None:
    reader = CountingReader(0)
    with _app(tmp_path, "none", reader) as c:
        _game(c)
        r = c.post("/api/games/1/count", headers=ADMIN, **kwargs)
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
        assert reader.cameras == []
        assert c.post("/api/games/1/count", headers=ADMIN,  # and the next frame is read
                      files={"image": ("f.jpg", PHOTO, "image/jpeg")}).json()["count"] == 3


def test_viewfinder_frames_go_through_the_decode_gate(tmp_path: Path) -> None:
    reader = CountingReader(0)
    with _app(tmp_path, "none", reader) as c:
        _game(c)
        gate = DecodeGate(budget=320 * 240 * 9, at_once=1, wait_s=0.2)
        parts(c.app).photos = gate
        big = cv2.imencode(".png", np.zeros((400, 400, 3), np.uint8))[1].tobytes()
        r = c.post("/api/games/1/count", headers=ADMIN,
                   files={"image": ("big.png", big, "image/png")})
        assert r.status_code == 413 and r.json()["code"] == "photo_too_large"

        async def held() -> None:
            async with gate.hold(1):  # another photo being read: no place for this one
                await asyncio.sleep(0.5)

        hold = threading.Thread(target=lambda: c.portal.call(held))  # type: ignore[union-attr]
        hold.start()
        time.sleep(0.1)
        r = c.post("/api/games/1/count", headers=ADMIN,
                   files={"image": ("f.jpg", PHOTO, "image/jpeg")})
        hold.join()
        assert r.status_code == 503 and r.json()["code"] == "photo_busy"
        assert r.headers["retry-after"] == "5"
        assert reader.cameras == [] and gate.used == 0 and gate.running == 0
