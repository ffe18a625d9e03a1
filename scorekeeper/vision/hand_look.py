"""A second detector run over the hands alone: the corners a tight fan half hides.

The frame's detector is taught to box an index only where most of it shows, so that it
boxes nothing on the busy print of a table; under a fan's next card it boxes little. A
detector taught the corners a fan leaves boxes many more of them, and also pieces of
court pictures on the table (docs/model-experiments.md, 0.17.0–0.18.0). So that detector
looks only where the first found a hand: three or more indices lying close together.
The hand's region is cut from the frame, scaled so its indices come to the size the
detector reads best, and what it boxes there that the first look did not is read as any
index is (`reader.CardReader`), unless it names a card the frame reads already.

It runs only with a model whose model.json names a hand detector (`detector.hand`: its ONNX
file and threshold). The shipped model names none: the one trained for it (a detector
taught fan corners, with game tables among its scenes) read 28 more rendered fan cards and
14 more of real print, but also 4 more false cards on the held-out random scenes and one
or two on each held-out game-table set, and costs 20–96 ms on a table frame
(docs/model-experiments.md, 0.26.0).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from statistics import median

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.hand_scale import NEIGHBOURS, REACH
from scorekeeper.vision.pairing import box_iou

# Indices lie in one hand when each lies within `REACH` of the frame's typical index lengths
# of another, and a hand has at least 1 + `NEIGHBOURS` of them: `hand_scale`'s "in a hand
# or a row".
# A hand's region reaches this many of its indices' lengths past its outer indices: a
# fan's last under-card lies one step past the last index found.
PAD = 1.0
# A new box is a hand's index when its size lies within these shares of the hand's: a
# half-covered index is boxed at the part that shows.
SIZE_RANGE = (0.4, 1.5)
# A new box lies on an index the first look found when they overlap by this much: the
# detector's own test for one index boxed twice (its NMS IoU). In a tight fan the next
# card's index overlaps a card's own by 0.3–0.5, and its centre lies inside it.
SAME_IOU = 0.5


def hands(indices: list[Detection]) -> list[list[Detection]]:
    """The frame's hands and rows: indices joined where one lies within reach of another,
    in groups of at least 1 + `NEIGHBOURS`."""
    if not indices:
        return []
    reach = REACH * median(d.size for d in indices)
    near = [[j for j, b in enumerate(indices) if j != i and math.dist(a.centre, b.centre)
             <= reach] for i, a in enumerate(indices)]
    groups: list[list[Detection]] = []
    seen: set[int] = set()
    for start in range(len(indices)):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(indices[i])
            for j in near[i]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(group) > NEIGHBOURS:
            groups.append(group)
    return groups


def region(hand: list[Detection], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The frame's pixels a hand covers, `PAD` index lengths past its outer indices."""
    pad = PAD * median(d.size for d in hand)
    h, w = shape[:2]
    x1 = max(0, int(min(d.box[0] for d in hand) - pad))
    y1 = max(0, int(min(d.box[1] for d in hand) - pad))
    x2 = min(w, math.ceil(max(d.box[2] for d in hand) + pad))
    y2 = min(h, math.ceil(max(d.box[3] for d in hand) + pad))
    return x1, y1, x2, y2


def new_indices(found: list[Detection], hand: list[Detection], indices: list[Detection],
                classes: Collection[int]) -> list[Detection]:
    """The boxes of `classes` in `found` (frame pixels) that are an index of `hand` the
    first look missed: of about the hand's size, within reach of `NEIGHBOURS` of its
    indices, on none of the frame's `indices`."""
    size = median(d.size for d in hand)
    reach = REACH * size
    out: list[Detection] = []
    for d in found:
        if d.cls not in classes or not SIZE_RANGE[0] * size <= d.size <= SIZE_RANGE[1] * size:
            continue
        if sum(math.dist(d.centre, n.centre) <= reach for n in hand) < NEIGHBOURS:
            continue
        if any(box_iou(d.box, n.box) >= SAME_IOU for n in [*indices, *out]):
            continue
        out.append(d)
    return out
