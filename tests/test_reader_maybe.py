"""Cards read under the card threshold: offered to the players (`ReadResult.maybe`), never
counted, and never where a card was read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.detectors.base import Detection

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no trained model")

# four indices far apart (no two pair as one card's corners), each answered in turn
BOXES = [(100.0, 100.0, 130.0, 140.0), (400.0, 100.0, 430.0, 140.0),
         (700.0, 100.0, 730.0, 140.0), (100.0, 500.0, 130.0, 540.0),
         (104.0, 104.0, 128.0, 138.0)]


class FixedDetector:
    names = ("index", "card")

    def __init__(self, boxes: list[tuple[float, float, float, float]]) -> None:
        self.boxes = boxes

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        return [Detection(b, INDEX, 0.9) for b in self.boxes]


def _reader(answers: list[tuple[str, float]], boxes=BOXES):
    from scorekeeper.vision.confidence import Calibration
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    reader.refocus = False
    reader.calibration = Calibration()  # raw confidences shown, sure from 0.8
    reader.detector = FixedDetector(boxes[:len(answers)])  # type: ignore[assignment]
    assert reader.classifier is not None
    reader.classifier.classify = lambda crops: answers[:len(crops)]  # type: ignore
    return reader


def test_a_doubtful_reading_is_offered_not_counted() -> None:
    from scorekeeper.vision.reader import MAYBE_PROB

    reader = _reader([("7H", 0.9), ("QS", 0.45), ("2C", MAYBE_PROB - 0.01), ("none", 0.4)])
    result = reader.read(np.zeros((960, 1280, 3), np.uint8))
    assert [c.card for c in result.cards] == ["7H"]
    assert [c.card for c in result.maybe] == ["QS"]  # 0.29 and "none": nothing
    assert result.maybe[0].box == BOXES[1]


def test_the_index_a_card_was_read_from_is_not_offered_again() -> None:
    # the fifth box is the first index boxed again (its centre lies in it): no second card
    reader = _reader([("7H", 0.9), ("QS", 0.9), ("KD", 0.9), ("3S", 0.9), ("7D", 0.4)])
    result = reader.read(np.zeros((960, 1280, 3), np.uint8))
    assert len(result.cards) == 4 and result.maybe == []


def test_a_scan_offers_what_may_be_there(tmp_path: Path) -> None:
    from scorekeeper.rules import Game
    from scorekeeper.vision.scan import scan_frame

    reader = _reader([("7H", 0.9), ("QS", 0.45)])
    game = Game("rummy", ["Ann", "Bo"])
    out = scan_frame(np.zeros((960, 1280, 3), np.uint8), reader, game, None).to_json("x.jpg")
    assert [c["card"] for c in out["cards"]] == ["7H"]
    assert out["maybe"] == [{"card": "QS", "confidence": pytest.approx(0.405, abs=1e-3),
                             "sure": False, "box": list(BOXES[1])}]
    assert "QS" not in out["hand"]


def test_read_prints_the_offered_cards_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    import io
    import json

    import cv2

    from scorekeeper.vision import reader as reader_module
    from scorekeeper.vision.read_cmd import read_images

    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.zeros((960, 1280, 3), np.uint8))
    fake = _reader([("7H", 0.9), ("QS", 0.45)])
    monkeypatch.setattr(reader_module, "CardReader", lambda *a, **k: fake)
    out, err = io.StringIO(), io.StringIO()
    assert read_images([image], as_json=True, annotate=None, runtime=None, out=out,
                       err=err) == 0
    line = json.loads(out.getvalue())
    assert [c["card"] for c in line["cards"]] == ["7H"]
    assert [c["card"] for c in line["maybe"]] == ["QS"]
    out = io.StringIO()
    read_images([image], as_json=False, annotate=None, runtime=None, out=out, err=err)
    assert out.getvalue().startswith(f"{image}: 7H QS?  [")
