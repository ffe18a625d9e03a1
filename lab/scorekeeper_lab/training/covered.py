"""Covered variants of a deck's own index crops: other real cards of the deck laid over the
index as a tight fan lays them, so `deck adapt` learns the deck's indices half hidden.

A fan hides an under-card's index from the side its next card lies on: rank and suit pip
lose the same share, and a person still reads the card until about half is gone (the rule
the training scenes label by, `synth.compose.readable_kind`). A fanned card is seldom
upright, so the index's lie is read from its ink (the long axis of rank over pip), not from
its box, which is near square for a card turned ~45°. The next card comes in across that
axis, a few degrees turned from it (a fan's step), hides 0–20, 20–40 or 40–50 % of the
index, and shows its own index, turned with it, a little past its edge; half the time a
third card covers that one in turn, so the crop shows the stripe of indices a tight hand
shows. Each card is drawn from its own stored crop (the deck's paper under the photo's
light, its own print) with its edge's shadow line on the card under it. The label stays the
card. An index whose ink tells no lie (too little, or not elongated) falls back to its box:
covered along a tall or wide box's long side, at most 30 % from any side of a square one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scorekeeper.decks.examples import STORE, STORE_MARGIN

Box = tuple[float, float, float, float]
BANDS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.5))  # share of the index hidden, one band a draw
SQUARE_MAX = 0.3  # the most of an index of unknown lie hidden (from any side)
ELONGATED = 1.3  # long side / short side from which an index's lie is told
STEP_DEG = (1.5, 8.0)  # a tight fan's turn from one card to the next
SECOND = 0.5  # chance a third card covers the neighbour's index in turn


def index_rect(box: Box) -> tuple[float, float, float, float]:
    """Where the index box lies in its stored crop (a square of 2.6 × its long side)."""
    w, h = box[2] - box[0], box[3] - box[1]
    k = STORE / (max(w, h, 1.0) * (1 + 2 * STORE_MARGIN))
    c = STORE / 2
    return c - w * k / 2, c - h * k / 2, c + w * k / 2, c + h * k / 2


def paper(crop: np.ndarray) -> np.ndarray:
    """A crop's paper colour: the mean of its brightest tenth."""
    flat = crop.reshape(-1, 3).astype(np.float32)
    bright = flat.sum(1)
    return np.asarray(flat[bright >= np.quantile(bright, 0.9)].mean(0))


@dataclass(frozen=True)
class Lie:
    """An index in its stored crop: centre, unit vectors across (`u`) and along (`v`) its
    long axis, its extent along each (from the centre), and whether its lie is `known`
    (told by its ink or an elongated box; else a guess, covered at most `SQUARE_MAX`)."""

    centre: np.ndarray
    u: np.ndarray
    v: np.ndarray
    across: tuple[float, float]
    along: tuple[float, float]
    known: bool

    def flipped(self) -> Lie:
        """The same index seen from its other side (so a cover from +u comes from −u)."""
        return Lie(self.centre, -self.u, -self.v, (-self.across[1], -self.across[0]),
                   (-self.along[1], -self.along[0]), self.known)

    @property
    def width(self) -> float:
        return self.across[1] - self.across[0]

    def frame(self, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel coordinates → (across, along) from the centre."""
        dx, dy = xs - self.centre[0], ys - self.centre[1]
        return dx * self.u[0] + dy * self.u[1], dx * self.v[0] + dy * self.v[1]


def index_lie(crop: np.ndarray, box: Box, rng: np.random.Generator) -> Lie:
    """How the index boxed by `box` lies in its stored `crop`: from the principal axis of
    its ink inside the ellipse its box holds (a box corner may hold table, not ink), or,
    where the ink is too little or too round, from the box (module docstring)."""
    x1, y1, x2, y2 = index_rect(box)
    cx, cy, rx, ry = (x1 + x2) / 2, (y1 + y2) / 2, max((x2 - x1) / 2, 1), max((y2 - y1) / 2, 1)
    ys, xs = np.mgrid[0:STORE, 0:STORE].astype(np.float32) + 0.5
    inside = ((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2 <= 1
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    vals = grey[inside]
    hi, lo = np.quantile(vals, 0.9), np.quantile(vals, 0.05)
    ink = inside & (grey < hi - max(25.0, 0.4 * (hi - lo)))
    px, py = xs[ink], ys[ink]
    centre = np.array([cx, cy], np.float32)
    if px.size >= 12:
        cov = np.cov(np.stack([px, py]))
        evals, evecs = np.linalg.eigh(cov)
        if evals[1] >= ELONGATED ** 2 * max(evals[0], 1e-6):
            v = evecs[:, 1].astype(np.float32)
            u = np.array([v[1], -v[0]], np.float32)
            centre = np.array([px.mean(), py.mean()], np.float32)
            lie = Lie(centre, u, v, (0.0, 0.0), (0.0, 0.0), True)
            a, b = lie.frame(px, py)
            return Lie(centre, u, v, (float(a.min()), float(a.max())),
                       (float(b.min()), float(b.max())), True)
    w, h = x2 - x1, y2 - y1
    upright = h >= ELONGATED * w or (w < ELONGATED * h and rng.random() < 0.5)
    if upright:
        u, v = np.array([1, 0], np.float32), np.array([0, 1], np.float32)
        return Lie(centre, u, v, (-w / 2, w / 2), (-h / 2, h / 2),
                   h >= ELONGATED * w)
    u, v = np.array([0, -1], np.float32), np.array([1, 0], np.float32)  # turned, not mirrored
    return Lie(centre, u, v, (-h / 2, h / 2), (-w / 2, w / 2), w >= ELONGATED * h)


def _lay(out: np.ndarray, under: Lie, cut: float, step: float, card: np.ndarray,
         lie: Lie, rng: np.random.Generator) -> tuple[float, float]:
    """Lay `card` (a stored crop, its index at `lie`) over `out`, whose index lies at
    `under`: its edge crosses the index at `cut` across it (from the centre), turned
    `step` radians from its long axis; its paper covers everything past the edge and its
    index sits a little past it. Returns where the laid card's index starts and its width,
    across `under`'s index (for a card laid over it in turn)."""
    ys, xs = np.mgrid[0:STORE, 0:STORE].astype(np.float32) + 0.5
    a, b = under.frame(xs, ys)
    mid = (under.along[0] + under.along[1]) / 2
    past = a - cut - math.tan(step) * (b - mid)  # > 0: under the laid card
    # the laid card's axes in the under-index's frame, turned by `step`
    cs, sn = math.cos(step), math.sin(step)
    off = float(rng.uniform(0.15, 0.6)) * lie.width
    top = under.along[0] + float(rng.uniform(-0.15, 0.15)) * (under.along[1] - under.along[0])
    # the laid index's top-left corner, `off` past the edge, at the under index's top
    ax = cut + math.tan(step) * (top - mid) + off * cs
    ay = top - off * sn
    da, db = a - ax, b - ay
    p = da * cs - db * sn + lie.across[0]  # across the laid index (its own frame)
    q = da * sn + db * cs + lie.along[0]  # along it
    map_x = (lie.centre[0] + p * lie.u[0] + q * lie.v[0]).astype(np.float32)
    map_y = (lie.centre[1] + p * lie.u[1] + q * lie.v[1]).astype(np.float32)
    drawn = cv2.remap(card, map_x, map_y, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    m = 0.15 * lie.width
    shows = ((p >= lie.across[0] - m) & (p <= lie.across[1] + m)
             & (q >= lie.along[0] - m) & (q <= lie.along[1] + m))
    colour = paper(card) * rng.uniform(0.92, 1.04)
    covered = past > 0
    out[covered] = colour
    out[covered & shows] = drawn[covered & shows]
    edge = rng.uniform(1, 2.5)
    out[(past <= 0) & (past > -edge)] *= rng.uniform(0.55, 0.85)
    return cut + off, lie.width


def slide_over(stored: np.ndarray, box: Box, neighbours: list[tuple[np.ndarray, Box]],
               rng: np.random.Generator) -> np.ndarray:
    """`stored` (a STORE × STORE crop of the index boxed by `box`) with the next card of a
    fan laid over part of its index, and with a second entry in `neighbours`, sometimes the
    card after that over the next one's index (module docstring). Each neighbour is another
    stored crop of the deck and its box."""
    lie = index_lie(stored, box, rng)
    if rng.random() < 0.5:
        lie = lie.flipped()
    lo, hi = BANDS[int(rng.integers(len(BANDS)))]
    share = float(rng.uniform(lo, hi))
    if not lie.known and lie.width * ELONGATED > lie.along[1] - lie.along[0]:
        share = min(share, SQUARE_MAX)
    step = math.radians(float(rng.uniform(*STEP_DEG))) * float(rng.choice([-1.0, 1.0]))
    out = stored.astype(np.float32).copy()
    cut = lie.across[1] - share * lie.width  # at the index's middle; the edge turns about it
    for k, (card, card_box) in enumerate(neighbours[:2]):
        if k and rng.random() >= SECOND:
            break
        start, width = _lay(out, lie, cut, step * (k + 1), card,
                            index_lie(card, card_box, rng), rng)
        cut = start + float(rng.uniform(0.5, 1.0)) * width
    return np.clip(out, 0, 255).astype(np.uint8)
