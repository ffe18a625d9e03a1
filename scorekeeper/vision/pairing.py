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


def _union(readings: list[IndexReading]) -> tuple[float, float, float, float]:
    boxes = [r.det.box for r in readings]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def pair_indices(indices: list[IndexReading], cards: list[Detection]) -> list[PhysicalCard]:
    """Group index readings into cards; `cards` are whole-card detections, if any."""
    free = sorted(indices, key=lambda r: -r.prob * r.det.conf)
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
        group = [best, *partner]
        out.append(PhysicalCard(best.card, _confidence(group), card_det.box, tuple(group)))
    # 2. two free corners of one card: same reading, a card's diagonal apart, mutual best
    used: set[int] = set()
    for i, a in enumerate(free):
        if i in used:
            continue
        best_j, best_gap = None, math.inf
        for j in range(i + 1, len(free)):
            b = free[j]
            if j in used or b.card != a.card:
                continue
            scale = (a.det.size + b.det.size) / 2
            dist = math.dist(a.det.centre, b.det.centre)
            ideal = (PAIR_MIN + PAIR_MAX) / 2 * scale
            if PAIR_MIN * scale <= dist <= PAIR_MAX * scale and abs(dist - ideal) < best_gap:
                best_j, best_gap = j, abs(dist - ideal)
        group = [a] if best_j is None else [a, free[best_j]]
        used.add(i)
        if best_j is not None:
            used.add(best_j)
        out.append(PhysicalCard(a.card, _confidence(group), _union(group), tuple(group)))
    return out
