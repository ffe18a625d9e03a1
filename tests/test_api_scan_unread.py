"""The scan API gives the cards seen but not read (`unread`): their boxes reach the phone,
typed, and the annotated photo marks them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from fastapi.testclient import TestClient

from scorekeeper.scanning import Vision
from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.deps import get_vision

ADMIN = {"Authorization": "Bearer secret"}
LOST = (40.0, 30.0, 140.0, 170.0)


class SeeingReader(Vision):
    """Stands in for the card reader: reads one card and sees another it cannot read."""

    def reader(self) -> SeeingReader:
        return self

    def read(self, image: object, camera: str | None = None) -> object:
        from scorekeeper.vision.detectors.base import Detection
        from scorekeeper.vision.pairing import IndexReading, PhysicalCard
        from scorekeeper.vision.reader import ReadResult
        from scorekeeper.vision.unread import Unread

        index = Detection((200.0, 40.0, 215.0, 60.0), 0, 0.9)
        card = PhysicalCard("7H", 0.99, (195.0, 35.0, 290.0, 170.0),
                            (IndexReading(index, "7H", 0.99),), sure=True, probability=0.99)
        return ReadResult([card], 1.0, unread=[Unread(LOST, 0.876)])


def test_a_scan_gives_the_cards_it_saw_but_could_not_read(tmp_path: Path) -> None:
    import cv2

    app = create_app(Settings(data_dir=tmp_path, camera="none"), token="secret")
    reader = SeeingReader()
    app.dependency_overrides[get_vision] = lambda: reader
    plain = np.full((240, 320, 3), 90, np.uint8)
    photo = cv2.imencode(".png", plain)[1].tobytes()
    with TestClient(app) as c:
        assert c.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"]},
                      headers=ADMIN).status_code == 201
        r = c.post("/api/games/1/scan", headers=ADMIN, data={"player": "Ann"},
                   files={"image": ("hand.png", photo, "image/png")})
        assert r.status_code == 201, r.text
        body = r.json()
        assert [card["card"] for card in body["cards"]] == ["7H"]
        assert body["unread"] == [{"box": list(LOST), "confidence": 0.876, "kind": "card"}]
        # the OpenAPI answer names it, typed
        schema = c.get("/openapi.json").json()["components"]["schemas"]
        assert schema["ScanAnswer"]["properties"]["unread"]["items"]["$ref"].endswith(
            "UnreadCard")
        # the annotated photo draws it: the mark's colour inside its box, not outside
        image = c.get(body["image"], headers=ADMIN)
        assert image.status_code == 200
        drawn = cv2.imdecode(np.frombuffer(image.content, np.uint8), cv2.IMREAD_COLOR)
        assert drawn.shape == plain.shape
        x1, y1, x2, y2 = (round(v) for v in LOST)
        magenta = (drawn[..., 2].astype(int) - drawn[..., 1].astype(int)) > 80
        assert magenta[y1 - 2:y2 + 3, x1 - 2:x2 + 3].sum() > 50
        assert magenta[:, 300:].sum() == 0


def test_an_unread_box_out_of_shape_is_refused_by_the_answer_model() -> None:
    import pytest
    from pydantic import ValidationError

    from scorekeeper.web.models import UnreadCard

    assert UnreadCard(box=[1, 2, 3, 4], confidence=0.5).box == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValidationError):
        UnreadCard(box=[1, 2, 3], confidence=0.5)
