"""Where a fan's stripe of corner indices skips one: an index the detector missed.

A hand fanned in one fist lays each card one step past the last, so the corners that show
form a stripe of indices a near-constant step apart. Where two indices of the stripe lie
two steps apart with nothing detected between them, the card between them shows its
corner there too: a dim, worn or half-covered index the detector did not box. The reader
asks the classifiers about that place (`reader.CardReader`) and reads a card there as at
any index, unless it names a card the frame reads already.

Figures: the lab's record (lab/RECORD.md, the looks at a hand).
"""

from __future__ import annotations

import math

from scorekeeper.vision.detectors.base import Detection

Box = tuple[float, float, float, float]

# Two indices are a gap's ends when they lie 1.6–2.5 steps apart, the step being the
# distance from one of them to its stripe neighbour on the far side.
TWO_STEPS = (1.6, 2.5)
# That neighbour lies on the line the two ends make, within this angle (a fan turns each
# card 1.5–8° from the last; the indices of a hand lie on an arc).
ALONG_DEG = 30.0
# One hand's indices are about one size; a gap's ends and its neighbour within this ratio.
SIZE_RATIO = 1.5
# A gap's ends lie at most this many index lengths apart: a tight fan's two steps. On the
# training designs' fans 124 of the 131 gaps that lie on a card span 1.5 or less, and on
# their game tables, where indices lie far apart, longer spans find places with no card
# (7 at 1.5, 28 at 2.5, 778 at 8: `synth fans --decks train --seed 61`, `data/games-train`).
MAX_SPAN = 1.5
# Nothing detected within this share of a step of the gap's middle (a detection there, read
# or turned down, is that card's index already).
CLEAR = 0.5


def _similar(*dets: Detection) -> bool:
    sizes = [d.size for d in dets]
    return max(sizes) <= SIZE_RATIO * min(sizes)


def _angle(u: tuple[float, float], v: tuple[float, float]) -> float:
    """The angle between two vectors, degrees (180 for a zero one)."""
    norm = math.hypot(*u) * math.hypot(*v)
    if norm == 0:
        return 180.0
    cos = max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / norm))
    return math.degrees(math.acos(cos))


def _step_beyond(end: Detection, other: Detection, near: list[Detection]) -> float | None:
    """The step from `end` to its stripe neighbour on the side away from `other`: a
    detection of its size on the line `other`–`end` extended, half the ends' distance from
    `end` (within the two-steps range); None where there is none. `near`: the detections
    of `end`'s size within reach of it."""
    span = math.dist(end.centre, other.centre)
    away = (end.centre[0] - other.centre[0], end.centre[1] - other.centre[1])
    best: float | None = None
    for c in near:
        if c is other:
            continue
        step = math.dist(end.centre, c.centre)
        if not TWO_STEPS[0] * step <= span <= TWO_STEPS[1] * step:
            continue
        out = (c.centre[0] - end.centre[0], c.centre[1] - end.centre[1])
        if _angle(away, out) <= ALONG_DEG and (best is None or step < best):
            best = step
    return best


def stripe_gaps(indices: list[Detection]) -> list[tuple[Box, Detection, Detection]]:
    """Each place a stripe of index detections skips one: (a box there the size of its
    ends, the two ends). `indices`: every index detection of the frame, read or not."""
    near = [[b for b in indices if b is not a and _similar(a, b)
             and math.dist(a.centre, b.centre) <= MAX_SPAN * a.size] for a in indices]
    gaps: list[tuple[Box, Detection, Detection]] = []
    middles: list[tuple[float, float]] = []
    for i, a in enumerate(indices):
        for j in range(i + 1, len(indices)):
            b = indices[j]
            if not any(b is n for n in near[i]):
                continue
            step = _step_beyond(a, b, near[i]) or _step_beyond(b, a, near[j])
            if step is None:
                continue
            mid = ((a.centre[0] + b.centre[0]) / 2, (a.centre[1] + b.centre[1]) / 2)
            clear = CLEAR * step
            if any(math.dist(mid, d.centre) < clear for d in indices) or any(
                    math.dist(mid, m) < clear for m in middles):
                continue
            w = (a.box[2] - a.box[0] + b.box[2] - b.box[0]) / 4
            h = (a.box[3] - a.box[1] + b.box[3] - b.box[1]) / 4
            middles.append(mid)
            gaps.append(((mid[0] - w, mid[1] - h, mid[0] + w, mid[1] + h), a, b))
    return gaps
