"""Where a fan's stripe of indices skips one (`vision/fan_gaps.py`), and what the reader
reads there."""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.fan_gaps import stripe_gaps
from tests.test_hand_scale import needs_model

Box = tuple[float, float, float, float]


def _box(x: float, y: float, w: float = 30.0, h: float = 40.0) -> Box:
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def _dets(boxes: list[Box]) -> list[Detection]:
    return [Detection(b, INDEX, 0.9) for b in boxes]


# a hand's indices 25 px apart along a slant; the fourth card's index was not boxed
HAND = [_box(100 + 25 * k, 100 + 5 * k) for k in (0, 1, 2, 4, 5)]


def test_a_stripe_that_skips_an_index_has_a_gap_where_it_lies() -> None:
    dets = _dets(HAND)
    (gap, a, b), = stripe_gaps(dets)
    assert (a, b) == (dets[2], dets[3])
    assert ((gap[0] + gap[2]) / 2, (gap[1] + gap[3]) / 2) == (175.0, 115.0)
    assert (gap[2] - gap[0], gap[3] - gap[1]) == (30.0, 40.0)  # its ends' size


@pytest.mark.parametrize("boxes", [
    [_box(100 + 25 * k, 100 + 5 * k) for k in range(6)],    # every index boxed
    [_box(100, 100), _box(150, 110)],                         # two indices: no step to go by
    [*HAND[:3], _box(175, 115, 12, 16), *HAND[3:]],           # boxed there, turned down or not
    [*HAND[:3], _box(200, 120, 60, 80), _box(225, 125, 60, 80)],  # the far side twice the size
    # two indices two steps apart, the only neighbour a step off their line at 90°
    [_box(100, 100), _box(150, 100), _box(100, 125)],
])
def test_no_gap_without_a_stripe_skipping_one(boxes: list[Box]) -> None:
    assert stripe_gaps(_dets(boxes)) == []


def test_each_skipped_place_is_one_gap_however_many_pairs_point_at_it() -> None:
    # indices on both sides of the gap, each pair two steps apart: one gap
    boxes = [_box(100 + 25 * k, 100) for k in (0, 1, 2, 4, 5, 6)]
    assert len(stripe_gaps(_dets(boxes))) == 1


def _reader(answers: list[tuple[str, float]]):
    from tests.test_hand_scale import _reader as reader_of

    return reader_of(answers, HAND)


@needs_model
def test_the_card_at_a_gap_is_read() -> None:
    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9),
                      ("10H", 0.9)])  # the last: the gap
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["10H", "7H", "8H", "9H", "JH", "QH"]
    ten = next(c for c in result.cards if c.card == "10H")
    assert ten.box == stripe_gaps(_dets(HAND))[0][0]


@pytest.mark.parametrize("gap", [("9H", 0.97), ("10H", 0.4), ("none", 0.9)])
@needs_model
def test_nothing_is_read_at_a_gap_that_names_a_card_read_or_is_unsure(gap) -> None:
    reader = _reader([("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9), gap])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "JH", "QH"]
