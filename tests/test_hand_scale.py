"""A corner both classifiers turn down is looked at again at its neighbours' index size
(`vision/hand_scale.py`), and read there only as a card the frame does not read already."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.hand_scale import DIFFERS, rescaled_boxes

ROOT = Path(__file__).resolve().parents[1]
# a stripe of five 30 × 40 indices 25 px apart, the fourth boxed at its showing half
STRIPE = [(100.0, 100.0, 130.0, 140.0), (125.0, 100.0, 155.0, 140.0),
          (150.0, 100.0, 180.0, 140.0), (178.0, 110.0, 198.0, 130.0),
          (200.0, 100.0, 230.0, 140.0)]


def _dets(boxes: list[tuple[float, float, float, float]]) -> list[Detection]:
    return [Detection(b, INDEX, 0.9) for b in boxes]


def test_a_small_box_among_larger_indices_is_cropped_at_their_size_where_it_lies() -> None:
    dets = _dets(STRIPE)
    out = rescaled_boxes(dets, [3])
    assert list(out) == [3]
    x1, y1, x2, y2 = out[3]
    assert (x2 - x1, y2 - y1) == (40.0, 40.0)
    assert ((x1 + x2) / 2, (y1 + y2) / 2) == dets[3].centre


@pytest.mark.parametrize(("boxes", "which"), [
    (STRIPE, [0, 1, 2, 4]),                   # boxes as large as their neighbours'
    ([(178.0, 110.0, 198.0, 130.0)], [0]),    # alone: nothing to compare with
    # one neighbour: two scattered cards, no hand or row
    ([(100.0, 100.0, 130.0, 140.0), (120.0, 110.0, 140.0, 130.0)], [1]),
    ([], []),
    # a small index far from larger ones: another card at another distance
    ([(0.0, 0.0, 30.0, 40.0), (1000.0, 1000.0, 1020.0, 1020.0), (1030.0, 1000.0, 1050.0, 1020.0)],
     [1, 2]),
])
def test_no_second_crop_where_the_neighbours_say_nothing_else(boxes, which) -> None:
    assert rescaled_boxes(_dets(boxes), which) == {}


def test_a_box_stretched_over_a_neighbour_is_cropped_smaller() -> None:
    wide = (170.0, 95.0, 220.0, 145.0)  # 50 px: its own index and part of the next
    out = rescaled_boxes(_dets([*STRIPE[:3], wide, STRIPE[4]]), [3])
    assert out[3] == (175.0, 100.0, 215.0, 140.0)


def test_only_a_size_that_differs_crops_again() -> None:
    side = 40.0 / (1 + DIFFERS) + 0.5  # its neighbours' size just under the share off
    small = (178.0, 110.0, 178.0 + side, 110.0 + side)
    assert rescaled_boxes(_dets([*STRIPE[:3], small, STRIPE[4]]), [3]) == {}


needs_model = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                 reason="no trained model")


class Answers:
    """A classifier stand-in answering in turn; keeps the crops it was shown."""

    def __init__(self, answers: list[tuple[str, float]]) -> None:
        self.answers = answers
        self.asked: list[np.ndarray] = []

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        out = self.answers[len(self.asked):len(self.asked) + len(crops)]
        self.asked.extend(crops)
        return out


def _reader(first: list[tuple[str, float]], boxes: list[tuple[float, float, float, float]]
            = STRIPE):
    """A reader whose detector finds `boxes` and whose first classifier answers `first` in
    turn (no second): the detected corners first, then what the looks at a hand crop."""
    from scorekeeper.vision.reader import CardReader
    from tests.test_reader_maybe import FixedDetector

    reader = CardReader()
    reader.refocus = False
    reader.detector = FixedDetector(boxes)  # type: ignore[assignment]
    reader.classifier = Answers(first)  # type: ignore[assignment]
    reader.second = None
    return reader


@needs_model
def test_a_turned_down_corner_is_read_at_its_neighbours_size() -> None:
    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("none", 0.8), ("JH", 0.9),
                      ("10H", 0.9)])  # the last: the fourth corner cropped again
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["10H", "7H", "8H", "9H", "JH"]
    assert len(reader.classifier.asked) == 6  # type: ignore[union-attr]
    assert result.maybe == []


@needs_model
def test_a_second_crop_naming_a_card_read_already_reads_nothing() -> None:
    # cropped larger, a half-covered corner may take in its neighbour's index
    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("none", 0.8), ("JH", 0.9),
                      ("9H", 0.97)])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "JH"]


@needs_model
def test_an_unsure_second_crop_reads_nothing() -> None:
    from scorekeeper.vision.reader import MAYBE_PROB

    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("10H", MAYBE_PROB + 0.05),
                      ("JH", 0.9), ("10H", 0.5)])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert "10H" not in [c.card for c in result.cards]
    assert [c.card for c in result.maybe] == ["10H"]  # still offered, as before
