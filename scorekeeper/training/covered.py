"""Covered variants of a deck's own index crops: another real card of the deck slid over
the index as a tight fan lays it, so `deck adapt` learns the deck's indices half hidden.

A fan hides an under-card's index from the side its next card lies on: rank and suit pip
lose the same share, and a person still reads the card until about half is gone (the rule
the training scenes label by, `synth.compose.readable_kind`). So the cover comes in along
the index's long side (from the left or right of an upright index, from above or below a
lying one), hides 0–20, 20–40 or 40–50 % of it, and the label stays the card. The cover is
the neighbour card from its own stored crop: the deck's paper colour under the photo's
light, its index a little past the card's edge, and the edge's shadow line. An index too square
to tell how it lies (its card turned ~45°) is covered at most 30 %, from any side.
"""

from __future__ import annotations

import numpy as np

from scorekeeper.decks.examples import STORE, STORE_MARGIN

Box = tuple[float, float, float, float]
BANDS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.5))  # share of the index hidden, one band a draw
SQUARE_MAX = 0.3  # the most of a square-ish index hidden (from any side)
ELONGATED = 1.3  # long side / short side from which an index's lie is told


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


def _from_right(img: np.ndarray, nb: np.ndarray, nb_rect: tuple[float, float, float, float],
                rect: tuple[float, float, float, float], share: float,
                rng: np.random.Generator) -> np.ndarray:
    """`img` with the neighbour card slid in from the right over `share` of the index
    `rect`: its paper from the cut on, its own index (`nb_rect` of `nb`) a little past
    the card's edge, and the edge's shadow line on the card under it."""
    x1, y1, x2, y2 = rect
    cut = round(x2 - share * (x2 - x1))
    out = img.astype(np.float32).copy()
    out[:, cut:] = paper(nb) * rng.uniform(0.92, 1.04)
    # the neighbour's index, starting 15–60 % of an index width past its card's edge
    n1, m1, n2, m2 = (round(v) for v in nb_rect)
    left = cut + round(rng.uniform(0.15, 0.6) * (x2 - x1))
    top = round(y1 + rng.uniform(-0.15, 0.15) * (y2 - y1))
    w, h = min(n2 - n1, STORE - left), min(m2 - m1, STORE - max(top, 0))
    if w > 0 and h > 0 and top >= 0:
        out[top:top + h, left:left + w] = nb[m1:m1 + h, n1:n1 + w]
    edge = max(1, round(rng.uniform(1, 2.5)))
    out[:, max(0, cut - edge):cut] *= rng.uniform(0.55, 0.85)
    return np.clip(out, 0, 255).astype(np.uint8)


def slide_over(stored: np.ndarray, box: Box, neighbour: np.ndarray, neighbour_box: Box,
               rng: np.random.Generator) -> np.ndarray:
    """`stored` (a STORE × STORE crop of the index boxed by `box`) with the card of
    `neighbour` (another stored crop, boxed by `neighbour_box`) slid over part of its
    index, from a side a fan covers it from (module docstring)."""
    w, h = box[2] - box[0], box[3] - box[1]
    lo, hi = BANDS[int(rng.integers(len(BANDS)))]
    share = float(rng.uniform(lo, hi))
    if h >= ELONGATED * w:
        turns = int(rng.choice([0, 2]))  # from the right or the left of an upright index
    elif w >= ELONGATED * h:
        turns = int(rng.choice([1, 3]))  # from above or below one lying on its side
    else:
        turns = int(rng.integers(4))
        share = min(share, SQUARE_MAX)
    # turn the crop so the cover comes from the right, cover, turn back
    img = np.ascontiguousarray(np.rot90(stored, turns))
    rect = index_rect(box if turns % 2 == 0 else (0.0, 0.0, h, w))
    out = _from_right(img, neighbour, index_rect(neighbour_box), rect, share, rng)
    return np.ascontiguousarray(np.rot90(out, -turns))
