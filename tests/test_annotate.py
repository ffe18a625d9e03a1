"""The annotated picture colours each card by its own sure decision, as the review does: no
threshold of the picture's own."""

from __future__ import annotations

import numpy as np

from scorekeeper.vision.annotate import annotate
from scorekeeper.vision.pairing import PhysicalCard

GREEN = (60, 200, 60)
ORANGE = (0, 140, 255)


def _edge(image: np.ndarray, box: tuple[float, float, float, float]) -> tuple[int, ...]:
    """The colour on the box's left edge, half way down (under no label)."""
    x1, y1, _, y2 = (round(v) for v in box)
    return tuple(int(v) for v in image[(y1 + y2) // 2, x1])


def test_each_card_is_coloured_by_its_own_sure_decision() -> None:
    frame = np.zeros((400, 600, 3), np.uint8)
    sure_low = PhysicalCard("7H", 0.5, (20.0, 100.0, 120.0, 250.0), (), sure=True,
                            probability=0.6)
    unsure_high = PhysicalCard("8H", 0.99, (220.0, 100.0, 320.0, 250.0), (), sure=False,
                               probability=0.99)
    unjudged = PhysicalCard("9H", 0.99, (420.0, 100.0, 520.0, 250.0), ())  # no reader's word
    out = annotate(frame, [sure_low, unsure_high, unjudged])
    assert _edge(out, sure_low.box) == GREEN  # sure by its reader, however low its figure
    assert _edge(out, unsure_high.box) == ORANGE
    assert _edge(out, unjudged.box) == ORANGE  # no word: the safe reading, checked
