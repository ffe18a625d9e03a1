"""The size a corner index should have, from the indices around it.

The cards of one hand, one meld row or one table lie at about one distance from the
camera, so their indices are about one size. A half-covered index is boxed at the part that
shows, or stretched over the next card's index, and its crop, scaled to that box, shows the
glyphs at another size than the classifier learned them. A corner both classifiers turn
down, in a hand or a row, is cropped again at its neighbours' size (`reader.CardReader`)
and read there as any crop is. Chosen on the training designs' sets: on their fans
(`synth fans --decks train --seed 61`) it reads 6 more of the 1496 cards under 40 %
covered, with no more false ones, beside what `fan_gaps` adds; on their random scenes
(`data/model-work/val2`) 7 more of 5375 cards and 2 more false (lab/RECORD.md).
"""

from __future__ import annotations

import math
from statistics import median

from scorekeeper.vision.detectors.base import Detection

Box = tuple[float, float, float, float]

# A corner's neighbours are the indices whose centres lie within this many of the frame's
# typical index lengths of its own: the next cards of a tight fan or a meld row (two fan
# steps span at most 1.5, `fan_gaps.MAX_SPAN`).
REACH = 1.5
# Only a corner with at least this many neighbours is cropped again: one in a hand or a row.
# Scattered cards' corners cropped again added false cards at a quarter of the cards they
# added (the training designs' random scenes, lab/RECORD.md).
NEIGHBOURS = 2
# A corner is cropped again only where its neighbours' size differs from its own box's by
# this share or more (a smaller change gives about the same crop).
DIFFERS = 0.05


def rescaled_boxes(indices: list[Detection], which: list[int]) -> dict[int, Box]:
    """For each of `which` (positions in `indices`) that lies in a hand or a row and whose
    neighbours' indices are of another size than its box: a square box of their median
    size, centred where it lies."""
    if not indices:
        return {}
    reach = REACH * median(d.size for d in indices)
    out: dict[int, Box] = {}
    for i in which:
        d = indices[i]
        cx, cy = d.centre
        near = [n.size for n in indices if math.dist(n.centre, d.centre) <= reach]
        if len(near) < 1 + NEIGHBOURS:  # itself among them
            continue
        side = median(near)
        if abs(side - d.size) >= DIFFERS * d.size:
            out[i] = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
    return out
