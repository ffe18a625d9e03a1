"""Corner indices → physical cards, by geometry.

A card shows up to two indices (top-left and, mostly rotated, bottom-right). They are
paired only when they lie where one card's two corners would lie, never because they read
the same: two identical cards from two decks must stay two cards, and so must two cards of
one rank inside one whole-card box.

Where one card's corners lie is told by three things the frame holds (figures measured on
rendered game tables and random scenes, lab/RECORD.md):

- the line between them runs along the card's diagonal, and an index box's shape says
  which way up the card lies (a tall box: portrait, a wide one: landscape), so that line's
  slope is known; two cards' indices side by side, one above the other or a diagonal the
  wrong way apart fail it;
- one frame's cards all have their two corners about the same distance apart (within 11 %,
  perspective included), so once the whole-card boxes have paired some, a same-code reading
  nearer or farther than that is another card;
- a whole-card box's own corners lie on either side of its centre, symmetric about it: a
  box that shows both takes them before any box takes a neighbour's corner it takes in.

Which way an index faces is not used: the classifier was trained on all four quarter-turns
under one label, so the turn it reads best at says nothing of the corner (measured), and
some designs print the bottom-right index upright (KDE Ancient Egyptians).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from scorekeeper.vision.classes import JOKER, rank_of
from scorekeeper.vision.detectors.base import Detection

Box = tuple[float, float, float, float]

# Where the frame's corner distance is unknown (no whole-card box paired two corners), two
# free corners are paired 2.4–6.5 index lengths apart: most designs' lie 2.3–5.7 apart
# (median 3.2), allowing for perspective; a big-index design's 1.6–1.8 are left to a box.
PAIR_MIN, PAIR_MAX, PAIR_TYPICAL = 2.4, 6.5, 3.2
# Once known, that distance alone: one design's pairs in one frame agree within 11 %, and
# this allows for two designs at one table (the designs' corners lie 0.75–0.93 of the
# card's length apart).
REACH_SPREAD = 0.2
# An index box at least this much taller than wide (or wider than tall) is upright (lying
# on its side): its card within ~20° of that.
ELONGATED = 1.5
# The slope, in degrees below the image's x axis (mod 180), of the line from a portrait
# card's top-left index to its bottom-right one: 24–76° across the designs and the tilt a
# tall box allows; turn a landscape card's line by 90° first.
DIAGONAL = (10.0, 85.0)
# A card box's far corner lies beyond its centre as seen from its near one, and at least
# this share of the box's diagonal away (0.56 for a card at 45°, 0.7 upright).
TOWARD_CENTRE = 0.5  # cosine
BOX_SPAN = 0.4
# A card's own index lies within its box; a fanned neighbour's, whose centre the box's edge
# may just take in, sticks out of it: a box's first corner is one at least this much inside.
OWN_INDEX_INSIDE = 0.5
# A card box's own two corners lie symmetric about its centre: the point halfway between
# them lies within this share of the box's diagonal from it (0.008 median, 0.028 at the
# 99th percentile of 2193 box pairs on validation hands laid apart; lab/RECORD.md).
PAIR_CENTRED = 0.1


@dataclass(frozen=True)
class IndexReading:
    det: Detection
    card: str
    prob: float  # the classifier's (or detector's) confidence in `card`
    # the look that read it (`confidence.PATHS`): each look's raw confidence means another
    # chance of being right, so each is calibrated on its own
    path: str = "first"


@dataclass(frozen=True)
class PhysicalCard:
    card: str
    confidence: float  # raw: what pairing and scoring order cards by
    box: Box
    indices: tuple[IndexReading, ...]
    path: str = "first"  # the look of the reading its confidence mostly rests on
    # set by the reader from the model's calibration (`confidence.Calibration`): the chance
    # it is right, and whether the review shows it sure; None where no reader set them
    probability: float | None = None
    sure: bool | None = None


def point_in_box(point: tuple[float, float], box: Sequence[float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two x1, y1, x2, y2 boxes (0 where they do not overlap)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _confidence(readings: list[IndexReading]) -> float:
    """Two agreeing corners are surer than one: 1 − Π(1 − p·conf)."""
    miss = 1.0
    for r in readings:
        miss *= 1.0 - r.prob * r.det.conf
    return round(1.0 - miss, 4)


def _card(code: str, group: list[IndexReading], box: Box) -> PhysicalCard:
    """A card read from `group`, its path that of its surest reading."""
    surest = max(group, key=lambda r: r.prob * r.det.conf)
    return PhysicalCard(code, _confidence(group), box, tuple(group), surest.path)


def _union(readings: list[IndexReading], *more: Box) -> Box:
    boxes = [r.det.box for r in readings] + list(more)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _same_index(a: IndexReading, b: IndexReading) -> bool:
    """Two detections of one printed index: the same reading, each centre in the other's box
    (two identical cards of two decks never lie with their indices one on the other)."""
    return a.card == b.card and point_in_box(a.det.centre, b.det.box) and point_in_box(b.det.centre,
                                                                             a.det.box)


def _lying(det: Detection) -> int:
    """1: an upright index box (its card portrait), -1: a wide one, 0: too square to say."""
    w, h = det.box[2] - det.box[0], det.box[3] - det.box[1]
    return 1 if h >= ELONGATED * w else -1 if w >= ELONGATED * h else 0


def _along_diagonal(a: Detection, b: Detection) -> bool:
    """Whether the line a–b could be a card's diagonal, given how its index boxes lie.

    One elongated box decides (the other may be clipped square by a card over it); none,
    or two that disagree, leave the slope open.
    """
    lie_a, lie_b = _lying(a), _lying(b)
    lie = lie_a or lie_b
    if lie == 0 or lie_a * lie_b < 0:
        return True
    slope = math.degrees(math.atan2(b.centre[1] - a.centre[1], b.centre[0] - a.centre[0]))
    if lie < 0:
        slope -= 90.0  # a landscape card, turned upright
    slope %= 180.0
    return DIAGONAL[0] <= slope <= DIAGONAL[1]


def _one_card(a: IndexReading, b: IndexReading, reach: float | None) -> bool:
    """Whether `a` and `b` lie where one card's two corners lie, whatever they read;
    `reach`: the frame's corner distance, when known."""
    scale = (a.det.size + b.det.size) / 2
    dist = math.dist(a.det.centre, b.det.centre)
    if reach is not None:
        if abs(dist - reach) > REACH_SPREAD * reach:
            return False
    elif not PAIR_MIN * scale <= dist <= PAIR_MAX * scale:
        return False
    return _along_diagonal(a.det, b.det)


def _diagonal_partner(a: IndexReading, free: list[IndexReading], reach: float | None,
                      toward: tuple[float, float] | None = None) -> IndexReading | None:
    """The free reading of `a`'s code that lies at its card's other corner, nearest the
    expected distance; `toward`: a point the other corner must lie beyond (its card box's
    centre)."""
    best, best_gap = None, math.inf
    for b in free:
        if b is a or b.card != a.card or not _one_card(a, b, reach):
            continue
        if toward is not None and not _beyond(a.det.centre, toward, b.det.centre):
            continue
        scale = (a.det.size + b.det.size) / 2
        gap = abs(math.dist(a.det.centre, b.det.centre) - (reach or PAIR_TYPICAL * scale))
        if gap < best_gap:
            best, best_gap = b, gap
    return best


def _beyond(start: tuple[float, float], via: tuple[float, float],
            end: tuple[float, float]) -> bool:
    """`end` lies on the side of `start` that `via` lies on (within ~60°)."""
    u = (via[0] - start[0], via[1] - start[1])
    v = (end[0] - start[0], end[1] - start[1])
    norm = math.hypot(*u) * math.hypot(*v)
    return norm > 0 and (u[0] * v[0] + u[1] * v[1]) / norm >= TOWARD_CENTRE


def _share_inside(det: Detection, box: Box) -> float:
    """How much of an index box lies inside a card box."""
    x1, y1, x2, y2 = det.box
    w = max(0.0, min(x2, box[2]) - max(x1, box[0]))
    h = max(0.0, min(y2, box[3]) - max(y1, box[1]))
    area = (x2 - x1) * (y2 - y1)
    return w * h / area if area > 0 else 0.0


def _box_partner(best: IndexReading, inside: list[IndexReading], box: Box
                 ) -> IndexReading | None:
    """`best`'s other corner among the readings inside its card box.

    The same rank (glare flips a suit far more often than a rank), at the opposite corner:
    a card's diagonal away and on the far side of the box's centre. A neighbour's index
    that the box takes in (a fan, a meld row) lies beside `best` or on its own side; of
    two that fit, the one of `best`'s code and then the one centred with it on the box.
    """
    fits = [r for r in inside if r is not best and rank_of(r.card) == rank_of(best.card)
            and _opposite(best, r, box)]
    return min(fits, key=lambda r: (r.card != best.card, _off_centre(best, r, box)),
               default=None)


def _opposite(a: IndexReading, b: IndexReading, box: Box) -> bool:
    """Whether `b` lies at the corner of `box` opposite `a`'s: a card's diagonal away and on
    the far side of the box's centre."""
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return (math.dist(a.det.centre, b.det.centre) >= BOX_SPAN * math.dist(box[:2], box[2:])
            and _along_diagonal(a.det, b.det) and _beyond(a.det.centre, centre, b.det.centre))


def _off_centre(a: IndexReading, b: IndexReading, box: Box) -> float:
    """How far the point halfway between `a` and `b` lies from `box`'s centre."""
    mid = ((a.det.centre[0] + b.det.centre[0]) / 2, (a.det.centre[1] + b.det.centre[1]) / 2)
    return math.dist(mid, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))


def _own_pair(inside: list[IndexReading], box: Box) -> tuple[IndexReading, IndexReading] | None:
    """The two corners of the card `box` was drawn around, where both show: two readings of
    one code, each lying in the box as its own index does, at opposite corners and centred
    on the box (a card's corners lie symmetric about its middle; a neighbour's corner that
    the box takes in is centred with none of its code). Of several, the best centred; the
    surer reading first."""
    own = [r for r in inside if _share_inside(r.det, box) >= OWN_INDEX_INSIDE]
    most = PAIR_CENTRED * math.dist(box[:2], box[2:])
    pairs = [(off, a, b) for i, a in enumerate(own) for b in own[i + 1:] if a.card == b.card
             for off in (_off_centre(a, b, box),) if off <= most and _opposite(a, b, box)]
    best = min(pairs, key=lambda pair: pair[0], default=None)
    return None if best is None else (best[1], best[2])


Claim = tuple[Detection, IndexReading, IndexReading | None]  # a card box, its corner(s)


def _claim_boxes(free: list[IndexReading], cards: list[Detection]) -> list[Claim]:
    """Each whole-card box takes its best reading and, where it shows, that card's other
    corner (both removed from `free`). First every box that shows its own card's two
    corners (`_own_pair`) takes them: otherwise a box that takes in a neighbour's corner
    (cards laid side by side, a meld) may take it as its best, leaving its own two corners
    to be read as two cards."""
    boxes = sorted(cards, key=lambda d: -d.conf)
    claimed: dict[int, Claim] = {}
    for k, card_det in enumerate(boxes):
        inside = [r for r in free if point_in_box(r.det.centre, card_det.box)]
        pair = _own_pair(inside, card_det.box)
        if pair is not None:
            claimed[k] = _take(free, card_det, *pair, others=inside)
    for k, card_det in enumerate(boxes):
        inside = [r for r in free if point_in_box(r.det.centre, card_det.box)]
        if k in claimed or not inside:
            continue
        # the surest reading that lies in the box as its own index does (`free` is surest
        # first), else the surest
        best = next((r for r in inside
                     if _share_inside(r.det, card_det.box) >= OWN_INDEX_INSIDE), inside[0])
        partner = _box_partner(best, inside, card_det.box)
        claimed[k] = _take(free, card_det, best, partner, others=inside[1:])
    return [claimed[k] for k in sorted(claimed)]


def _take(free: list[IndexReading], card_det: Detection, best: IndexReading,
          partner: IndexReading | None, others: list[IndexReading]) -> Claim:
    """A box's claim on its corner(s), taken out of `free` with any joker among `others`:
    a joker "read" inside a card that already shows its own corner is court-card art."""
    art = [r for r in others if r.card == JOKER != best.card and r is not partner]
    for r in (best, *([partner] if partner else []), *art):
        free.remove(r)
    return (card_det, best, partner)


def _reach(claimed: list[Claim]) -> float | None:
    """This frame's corner distance: the median of the pairs whole-card boxes confirmed."""
    spans = [math.dist(b.det.centre, p.det.centre) for _, b, p in claimed if p is not None]
    return median(spans) if spans else None


def _join_split(cards: list[PhysicalCard], reach: float | None) -> list[PhysicalCard]:
    """One card whose two corners two card boxes took is one card: two one-corner cards of
    one code whose corners lie where one card's corners lie, and either both boxes hold the
    point halfway between them (that card's centre: a close-up turned ~30° boxed as two
    halves) or one box holds both corners (a fanned neighbour's box took one of them, its
    own box both). Two twin cards each show their own box around their own middle."""
    out = list(cards)
    for a in cards:
        if a not in out or len(a.indices) != 1:
            continue
        for b in out:
            if b is a or len(b.indices) != 1 or b.card != a.card:
                continue
            ra, rb = a.indices[0], b.indices[0]
            mid = ((ra.det.centre[0] + rb.det.centre[0]) / 2,
                   (ra.det.centre[1] + rb.det.centre[1]) / 2)
            halves = point_in_box(mid, a.box) and point_in_box(mid, b.box)
            whole = [box for box in (a.box, b.box) if point_in_box(ra.det.centre, box)
                     and point_in_box(rb.det.centre, box)]
            if (halves or whole) and _one_card(ra, rb, reach):
                out.remove(a)
                box = _union([ra, rb], a.box, b.box) if halves else _union([ra, rb], whole[0])
                out[out.index(b)] = _card(a.card, [ra, rb], box)
                break
    return out


def pair_indices(indices: list[IndexReading], cards: list[Detection]) -> list[PhysicalCard]:
    """Group index readings into cards; `cards` are whole-card detections, if any."""
    free: list[IndexReading] = []
    for r in sorted(indices, key=lambda r: -r.prob * r.det.conf):
        if not any(_same_index(r, kept) for kept in free):
            free.append(r)
    # 1. a whole card in view: its own indices lie inside its box, at opposite corners
    claimed = _claim_boxes(free, cards)
    reach = _reach(claimed)
    out: list[PhysicalCard] = []
    for card_det, best, partner in claimed:
        box = card_det.box
        if partner is None:  # a card box that missed its far corner: that corner, a
            # diagonal away beyond the box's centre, unless it lies in another card's box
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            partner = _diagonal_partner(best, [r for r in free if not any(
                point_in_box(r.det.centre, d.box) for d in cards if d is not card_det)],
                reach, toward=centre)
            if partner is not None:
                free.remove(partner)
                box = _union([best, partner], box)
        group = [best] if partner is None else [best, partner]
        out.append(_card(best.card, group, box))
    out = _join_split(out, reach)
    # 2. two free corners of one card: same reading, a card's diagonal apart
    while free:
        a = free.pop(0)
        b = _diagonal_partner(a, free, reach)
        if b is not None:
            free.remove(b)
        group = [a] if b is None else [a, b]
        out.append(_card(a.card, group, _union(group)))
    return out
