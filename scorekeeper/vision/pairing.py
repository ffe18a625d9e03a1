"""Corner indices → physical cards, by geometry.

A card shows up to two indices (top-left and, rotated, bottom-right). They are paired only
when they lie where one card's two corners would lie, never because they read the same:
two identical cards from two decks must stay two cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scorekeeper.vision.classes import JOKER, rank_of
from scorekeeper.vision.detectors.base import Detection

# The two index centres of a standard card (63 × 88 mm, indices ~20 mm tall) lie about
# 4 index-lengths apart; allow for other designs and for perspective.
PAIR_MIN, PAIR_MAX = 2.4, 6.5


@dataclass(frozen=True)
class IndexReading:
    det: Detection
    card: str
    prob: float  # the classifier's (or detector's) confidence in `card`


@dataclass(frozen=True)
class PhysicalCard:
    card: str
    confidence: float
    box: tuple[float, float, float, float]
    indices: tuple[IndexReading, ...]


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _confidence(readings: list[IndexReading]) -> float:
    """Two agreeing corners are surer than one: 1 − Π(1 − p·conf)."""
    miss = 1.0
    for r in readings:
        miss *= 1.0 - r.prob * r.det.conf
    return round(1.0 - miss, 4)


def _union(readings: list[IndexReading], *more: tuple[float, float, float, float]
           ) -> tuple[float, float, float, float]:
    boxes = [r.det.box for r in readings] + list(more)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _same_index(a: IndexReading, b: IndexReading) -> bool:
    """Two detections of one printed index: the same reading, each centre in the other's box
    (two identical cards of two decks never lie with their indices one on the other)."""
    return a.card == b.card and _inside(a.det.centre, b.det.box) and _inside(b.det.centre,
                                                                             a.det.box)


def _diagonal_partner(a: IndexReading, free: list[IndexReading]) -> IndexReading | None:
    """The free reading of the same card nearest a card's diagonal away from `a`."""
    best, best_gap = None, math.inf
    for b in free:
        if b is a or b.card != a.card:
            continue
        scale = (a.det.size + b.det.size) / 2
        dist = math.dist(a.det.centre, b.det.centre)
        ideal = (PAIR_MIN + PAIR_MAX) / 2 * scale
        if PAIR_MIN * scale <= dist <= PAIR_MAX * scale and abs(dist - ideal) < best_gap:
            best, best_gap = b, abs(dist - ideal)
    return best


def pair_indices(indices: list[IndexReading], cards: list[Detection]) -> list[PhysicalCard]:
    """Group index readings into cards; `cards` are whole-card detections, if any."""
    free: list[IndexReading] = []
    for r in sorted(indices, key=lambda r: -r.prob * r.det.conf):
        if not any(_same_index(r, kept) for kept in free):
            free.append(r)
    out: list[PhysicalCard] = []
    # 1. a whole card in view: its own indices lie inside its box, at opposite corners
    for card_det in sorted(cards, key=lambda d: -d.conf):
        inside = [r for r in free if _inside(r.det.centre, card_det.box)]
        if not inside:
            continue
        best = inside[0]
        # its other corner: the same rank (glare flips a suit far more often than a rank)
        partner = [r for r in inside[1:] if rank_of(r.card) == rank_of(best.card)][:1]
        # a joker "read" inside a card that already shows its own corner is court-card art
        art = [r for r in inside[1:] if r.card == JOKER != best.card and r not in partner]
        for r in (best, *partner, *art):
            free.remove(r)
        box = card_det.box
        if not partner:  # a card box that missed its far corner: that corner, a diagonal
            # away, unless it lies in another card's box
            far = _diagonal_partner(best, [r for r in free if not any(
                _inside(r.det.centre, d.box) for d in cards if d is not card_det)])
            if far is not None:
                free.remove(far)
                partner = [far]
                box = _union([best, far], box)
        group = [best, *partner]
        out.append(PhysicalCard(best.card, _confidence(group), box, tuple(group)))
    # 2. two free corners of one card: same reading, a card's diagonal apart
    while free:
        a = free.pop(0)
        b = _diagonal_partner(a, free)
        if b is not None:
            free.remove(b)
        group = [a] if b is None else [a, b]
        out.append(PhysicalCard(a.card, _confidence(group), _union(group), tuple(group)))
    return out
