"""The second look at frames whose indices came out small (vision/refocus.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.classes import CARD, INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.refocus import refocus_scale

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("sizes", "long_side", "scale", "expected"), [
    ([], 1280, 0.75, None),                      # nothing found: nothing to measure
    ([40.0, 40.0, 40.0], 1280, 0.75, None),      # 30 px in the input: read well already
    ([60.0, 60.0], 1280, 0.75, None),            # big indices never shrink
    ([24.0, 24.0, 24.0], 1280, 0.75, 1.1667),   # 18 px → enlarged to 28
    ([12.0, 12.0], 1280, 0.75, 1.25),            # far too small: enlarged only up to 1.25
    ([35.0, 36.0], 1280, 0.75, None),            # 26.6 px: not worth a second look
    ([12.0, 12.0], 1920, 0.75, None),            # already read at the 1280-px input cap
    ([12.0, 12.0], 640, 1.25, None),             # already at the most enlargement
])
def test_refocus_scale_table(sizes: list[float], long_side: int, scale: float,
                             expected: float | None) -> None:
    got = refocus_scale(sizes, long_side, scale, index_px=28.0, max_scale=1.25)
    assert got == (None if expected is None else pytest.approx(expected, abs=1e-3))


def test_a_frame_read_enlarged_whose_indices_are_big_goes_back_down_to_the_base() -> None:
    # the previous frame settled on 1.0; this one's indices are 60 px: back to 0.75, no lower
    assert refocus_scale([60.0, 60.0], 1280, 1.0, 28.0, 1.25, base=0.75) == 0.75
    # near the target at the settled scale: it stays there (no look back and forth)
    assert refocus_scale([27.0, 29.0], 1280, 1.0, 28.0, 1.25, base=0.75) is None


def test_a_few_big_cards_near_the_camera_do_not_decide_for_the_table() -> None:
    small_table = [20.0] * 7 + [80.0] * 2
    assert refocus_scale(small_table, 1280, 0.75) is not None


def test_switched_off_with_a_zero_target() -> None:
    assert refocus_scale([10.0, 10.0], 1280, 0.75, index_px=0) is None


class RecordingDetector:
    """Small indices at the configured scale, more of them when asked to enlarge."""

    names = ("index", "card")

    def __init__(self) -> None:
        self.scales: list[float | None] = []

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        self.scales.append(scale)
        boxes = [(100.0, 100.0, 106.0, 112.0)]
        if scale and scale > 1:
            boxes.append((400.0, 300.0, 406.0, 312.0))
        return [Detection(b, INDEX, 0.9) for b in boxes] + \
            [Detection((90.0, 90.0, 160.0, 190.0), CARD, 0.9)]


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(), reason="no trained model")
def test_the_reader_looks_again_enlarged_then_starts_the_next_frame_there() -> None:
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    fake = RecordingDetector()
    reader.detector = fake  # type: ignore[assignment]
    seen: list[int] = []
    assert reader.classifier is not None
    reader.classifier.classify = lambda crops: (seen.append(len(crops)),  # type: ignore
                                                [("QD", 0.9)] * len(crops))[1]
    frame = np.zeros((960, 1280, 3), np.uint8)
    first = reader.read(frame, camera="table")
    assert fake.scales == [reader.scale, reader.max_scale]  # 9-px indices: enlarged the most
    assert first.looks == 2 and seen == [2] and len(first.cards) == 2  # the 2nd look's
    second = reader.read(frame, camera="table")  # the same camera: its settled scale, once
    assert fake.scales[2:] == [reader.max_scale] and second.looks == 1
    assert len(second.cards) == 2
    upload = reader.read(frame)  # an unrelated photo starts afresh at the base scale
    assert fake.scales[3:] == [reader.scale, reader.max_scale] and upload.looks == 2


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(), reason="no trained model")
def test_no_second_look_on_a_fixed_size_runtime(tmp_path: Path) -> None:
    pytest.importorskip("ncnn")
    from scorekeeper.vision.reader import CardReader

    reader = CardReader(runtime="ncnn")
    fake = RecordingDetector()
    reader.detector = fake  # type: ignore[assignment]
    reader.read(np.zeros((960, 1280, 3), np.uint8))
    assert not reader.refocus and fake.scales == [reader.scale]


@pytest.mark.parametrize(("sizes", "cards", "long_side", "expected"), [
    # a phone photo two cards fill: 260 px indices are 111 px in a 1280 input → reduced
    ([260.0, 258.0, 262.0], [], 3000, 0.75 * 28 / (260 * 1280 / 3000)),
    # 50 px in the input: under twice the target, read as it is (shrinking costs precision)
    ([50.0 * 1280 / 960] * 3, [], 1280, None),
    # only whole cards found: their indices are about a fifth of their long side
    ([], [1300.0, 1300.0], 3000, 0.75 * 28 / (260 * 1280 / 3000)),
])
def test_big_indices_are_read_again_reduced(sizes: list[float], cards: list[float],
                                            long_side: int, expected: float | None) -> None:
    got = refocus_scale(sizes, long_side, 0.75, 28.0, 1.25, card_sizes=cards)
    assert got == (None if expected is None else pytest.approx(expected, rel=1e-3))


class CloseUpDetector:
    """Finds nothing at the configured scale (the cards are too big), cards when reduced."""

    names = ("index", "card")

    def __init__(self) -> None:
        self.scales: list[float | None] = []

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        self.scales.append(scale)
        if scale is None or scale > 0.2:
            return []
        return [Detection((300.0, 300.0, 500.0, 560.0), INDEX, 0.9),
                Detection((300.0, 300.0, 1200.0, 1560.0), CARD, 0.8)]


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(), reason="no trained model")
def test_a_first_look_that_finds_nothing_is_followed_by_a_coarse_one() -> None:
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    fake = CloseUpDetector()
    reader.detector = fake  # type: ignore[assignment]
    dets, looks = reader.detect(np.zeros((2250, 3000, 3), np.uint8), camera="table")
    assert fake.scales[:2] == [reader.scale, pytest.approx(320 / 3000)]
    assert len(dets) == 2 and looks == len(fake.scales) >= 2
    # the same camera's next frame starts where this one settled: one look
    assert reader.detect(np.zeros((2250, 3000, 3), np.uint8), camera="table")[1] == 1


class EmptyThenCardsDetector(CloseUpDetector):
    """An empty table first (nothing at any scale), then small cards at the usual scale."""

    def __init__(self) -> None:
        super().__init__()
        self.empty = True

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        self.scales.append(scale)
        if self.empty or scale is None or scale < 0.5:
            return []
        return [Detection((100.0, 100.0, 130.0, 140.0), INDEX, 0.9)]


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(), reason="no trained model")
def test_an_empty_frame_does_not_move_the_cameras_scale() -> None:
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    fake = EmptyThenCardsDetector()
    reader.detector = fake  # type: ignore[assignment]
    frame = np.zeros((960, 1280, 3), np.uint8)
    assert reader.detect(frame, camera="table")[0] == []  # configured look, then coarse
    assert "table" not in reader.settled
    fake.empty = False
    dets, _ = reader.detect(frame, camera="table")
    assert len(dets) == 1  # found at the configured scale, not lost at the coarse one
    # a scale settled on a close-up that now sees nothing falls back to the configured one
    reader.settled["table"] = 0.2
    assert len(reader.detect(frame, camera="table")[0]) == 1
