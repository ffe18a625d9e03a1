"""The hand detector looks only over the frame's hands (`vision/hand_look.py`), and the
reader reads what it adds there only as cards the frame does not read already."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.classes import CARD, INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.hand_look import PAD, hands, new_indices, region
from tests.test_fan_gaps import Box, _box, _dets
from tests.test_hand_scale import ROOT, needs_model

# a hand's indices 25 px apart; the fourth card's index (at x 175) was not boxed
HAND = [_box(100 + 25 * k, 100) for k in (0, 1, 2, 4, 5)]
MISSED = _box(175, 100)


def test_indices_close_together_are_one_hand_and_a_lone_card_none() -> None:
    dets = _dets([*HAND, _box(600, 400)])
    (hand,) = hands(dets)
    assert sorted(d.box for d in hand) == sorted(HAND)


def test_two_hands_apart_are_two() -> None:
    other = [_box(100 + 25 * k, 400) for k in range(4)]
    assert sorted(len(h) for h in hands(_dets([*HAND, *other]))) == [4, 5]


@pytest.mark.parametrize("boxes", [
    [],
    [_box(100, 100)],
    [_box(100, 100), _box(125, 100)],          # two cards side by side: no hand
    [_box(100 + 200 * k, 100) for k in range(5)],  # scattered cards
])
def test_no_hand_without_three_indices_close_together(boxes: list[Box]) -> None:
    assert hands(_dets(boxes)) == []


def test_a_hands_region_reaches_one_index_length_past_it_and_stays_in_the_frame() -> None:
    dets = _dets(HAND)
    assert PAD == 1.0  # the indices are 40 px long
    assert region(dets, (480, 640, 3)) == (45, 40, 280, 160)
    assert region(dets, (130, 220, 3)) == (45, 40, 220, 130)


def test_a_box_where_the_hand_skips_an_index_is_new() -> None:
    hand = _dets(HAND)
    found = _dets([*HAND, MISSED])  # the hand detector boxes the hand's indices again too
    assert [d.box for d in new_indices(found, hand, hand, {INDEX})] == [MISSED]


@pytest.mark.parametrize("box", [
    _box(176, 102, 10, 14),      # far smaller than the hand's indices
    _box(175, 100, 80, 100),     # far larger
    _box(400, 100),              # beyond the hand's reach
    _box(128, 101),              # on an index the first look found
])
def test_a_box_that_is_no_missed_index_of_the_hand_is_not_new(box: Box) -> None:
    hand = _dets(HAND)
    assert new_indices(_dets([box]), hand, hand, {INDEX}) == []


def test_a_box_beside_a_found_index_in_a_tight_fan_is_new() -> None:
    # 15 px from a found index (IoU 0.33) is another card's index, as a tight fan lays
    # them; 8 px from it (IoU 0.58) is that index boxed again
    hand = _dets(HAND)
    assert new_indices(_dets([_box(185, 100)]), hand, hand, {INDEX}) != []
    assert new_indices(_dets([_box(192, 100)]), hand, hand, {INDEX}) == []


def test_a_box_on_an_index_the_first_look_found_is_not_new_read_or_not() -> None:
    hand = _dets(HAND)  # the third may have been turned down: its crop is the same
    assert new_indices(_dets([_box(151, 101)]), hand, hand, {INDEX}) == []


def test_a_whole_card_box_and_a_second_box_on_the_same_place_are_not_new() -> None:
    hand = _dets(HAND)
    card = Detection(MISSED, CARD, 0.9)
    twice = _dets([MISSED, _box(177, 101)])
    assert new_indices([card], hand, hand, {INDEX}) == []
    assert [d.box for d in new_indices(twice, hand, hand, {INDEX})] == [MISSED]


class CropDetector:
    """A hand detector stand-in: boxes `boxes` (frame pixels) in the crop it is shown, which
    the reader cut from the frame at the hand's region (its corner at 45, 40)."""

    names = ("index", "card")

    def __init__(self, boxes: list[Box]) -> None:
        self.boxes = boxes
        self.shown: list[tuple[int, ...]] = []
        self.scales: list[float | None] = []

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        self.shown.append(image.shape)
        self.scales.append(scale)
        x1, y1 = 45, 40  # the hand's region, as tested above
        return [Detection((b[0] - x1, b[1] - y1, b[2] - x1, b[3] - y1), INDEX, 0.8)
                for b in self.boxes]


def _reader(answers: list[tuple[str, float]], hand_boxes: list[Box]):
    from tests.test_hand_scale import _reader as reader_of

    reader = reader_of(answers, HAND)
    reader.use_hand_detector(CropDetector(hand_boxes))
    return reader


@needs_model
def test_the_hand_detectors_new_box_is_read_and_only_the_hand_is_looked_at() -> None:
    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9),
                      ("10H", 0.9)], [*HAND, MISSED])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["10H", "7H", "8H", "9H", "JH", "QH"]
    look = reader.hand_look
    assert look.detector.shown == [(120, 235, 3)]  # the hand's region, not the frame
    assert look.detector.scales == [pytest.approx(look.index_px / 40)]


@needs_model
def test_a_new_box_naming_a_card_read_already_or_unsure_reads_nothing() -> None:
    for last in [("9H", 0.97), ("10H", 0.4)]:
        reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9),
                          last], [MISSED])
        result = reader.read(np.zeros((480, 640, 3), np.uint8))
        assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "JH", "QH"]


@needs_model
def test_where_the_hand_detector_boxes_the_gap_the_gap_is_not_read_twice() -> None:
    # the stripe skips an index at MISSED; the hand detector's box there was turned down
    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9),
                      ("none", 0.9)], [MISSED])
    reader.read(np.zeros((480, 640, 3), np.uint8))
    assert len(reader.classifier.asked) == 6  # type: ignore[union-attr]


@needs_model
def test_a_hand_detector_that_cannot_be_loaded_leaves_the_hands_to_the_first_look(
        tmp_path: Path) -> None:
    from scorekeeper.vision.reader import CardReader

    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    meta = json.loads((models / "model.json").read_text())
    meta["detector"]["hand"] = {"onnx": "missing.onnx", "conf": 0.25}
    (models / "model.json").write_text(json.dumps(meta))
    reader = CardReader(models)
    assert reader.hand_look is None
    assert any("hand detector" in w for w in reader.warnings)
    assert reader.read(np.zeros((480, 640, 3), np.uint8)).cards == []
