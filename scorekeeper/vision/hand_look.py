"""A second detector run over the hands alone: the corners a tight fan half hides.

The frame's detector is taught to box an index only where most of it shows, so that it
boxes nothing on the busy print of a table; under a fan's next card it boxes little. A
detector taught the corners a fan leaves boxes many more of them, and also pieces of
court pictures on the table (the lab's record, lab/RECORD.md). So that detector
looks only where the first found a hand: three or more indices lying close together.
The hand's region is cut from the frame, scaled so its indices come to the size the
detector reads best, and what it boxes there that the first look did not is read as any
index is (`reader.CardReader`), unless it names a card the frame reads already.

It runs with a model whose model.json names a hand detector (`detector.hand`: its ONNX
file, threshold, index size and classes), on photos only (a fixed camera's frame has no
time for it). The shipped one names the cards itself (trained on a GPU, its classes the 53
cards and the card): it also looks at the corners the first look boxed but the
classifiers turned down, and its name reads only where the classifiers, shown its box,
name the same card (from `detector.hand.agree`, 0.3 in the shipped model), and never as
a joker (lab/RECORD.md: the card-naming hand detector).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from statistics import median

import numpy as np
from pydantic import BaseModel, ConfigDict

from scorekeeper.vision.classes import CARD_CODES, INDEX, JOKER, names_cards
from scorekeeper.vision.classifier import Answer
from scorekeeper.vision.detectors.base import Detection, Detector
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
NEVER = 2.0  # a confidence above any: a card-naming look's name never reads alone


class HandLookConfig(BaseModel):
    """model.json's `detector.hand`: the hand detector and how its boxes read."""

    model_config = ConfigDict(extra="ignore")  # `training` and the like: a record only

    onnx: str
    conf: float | None = None  # its threshold (default: the frame detector's)
    index_px: float | None = None  # indices brought to this size (default: the reader's)
    names: list[str] | None = None  # its classes (default: the frame detector's)
    # a card-naming detector's name reads alone from this confidence, and below it only
    # where the classifiers give the same name with at least `agree`
    alone: float = NEVER
    agree: float = 0.0


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


class HandLook:
    """A hand detector's look over the hands of a photo. One that boxes indices adds boxes
    for the classifiers to read; one that names the cards (`names`) also looks at the
    corners the classifiers turned down, and its names are judged by them (`agreed`)."""

    def __init__(self, detector: Detector, index_px: float, alone: float = NEVER,
                 agree: float = 0.0) -> None:
        self.detector = detector
        self.index_px = index_px
        self.alone, self.agree = alone, agree
        self.names: tuple[str, ...] | None = None
        self.classes: set[int] = {INDEX}
        if names_cards(detector.names):
            self.names = tuple(detector.names)
            # no joker: what it names a joker on a game table is court art (measured on
            # held-out game tables, lab/RECORD.md); the first look still reads one
            self.classes = set(range(len(CARD_CODES))) - {CARD_CODES.index(JOKER)}

    def indices(self, image: np.ndarray, index_dets: list[Detection],
                taken: list[Detection]) -> list[Detection]:
        """The indices it boxes in the hands of the frame's `index_dets` where none of
        `taken` lies: each hand cut out and looked at with its indices at `index_px`."""
        added: list[Detection] = []
        for hand in hands(index_dets):
            scale = self.index_px / median(d.size for d in hand)
            x1, y1, x2, y2 = region(hand, image.shape)
            found = [Detection((b[0] + x1, b[1] + y1, b[2] + x1, b[3] + y1), d.cls, d.conf)
                     for d in self.detector.detect(image[y1:y2, x1:x2], scale)
                     for b in [d.box]]
            added += new_indices(found, hand, taken + added, self.classes)
        return added

    def agreed(self, added: list[Detection], told: list[Answer]
               ) -> list[tuple[Detection, Answer]]:
        """The boxes of `added` whose name reads, with it: named at `alone` or more, or
        given the same name by the classifiers shown the box (`told`, at `agree` or
        more). The detector sees the hand around a corner, the classifiers the corner
        alone, and two looks that agree are seldom both wrong (alone, its names added
        19 false cards on 900 held-out scenes; lab/RECORD.md)."""
        assert self.names is not None, "only a card-naming detector names a card"
        out = []
        for d, (code, prob) in zip(added, told, strict=True):
            name = self.names[d.cls]
            if d.conf >= self.alone or (code == name and prob >= self.agree):
                out.append((d, (name, d.conf)))
        return out
