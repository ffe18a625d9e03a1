"""How a stored crop may look to a table's camera (`augment`): the deck's training batches
and the install check's looks both draw from it."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.decks.examples import STORE
from scorekeeper.vision.classifier import CROP


def augment(stored: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A stored crop → one 48 px crop as a camera might give it: the reader's crop shifted,
    scaled and tilted (a detector box is never exact), blurred or low-resolution, relit,
    and sometimes partly covered by a neighbouring card."""
    s = rng.uniform(0.8, 1.25)  # >1: the box was larger than the index
    angle = rng.uniform(-15, 15)
    shift = rng.uniform(-0.08, 0.08, 2) * CROP
    m = cv2.getRotationMatrix2D((STORE / 2, STORE / 2), angle, 1 / s)
    m[:, 2] = m[:, 2] + shift - (STORE - CROP) / 2
    img: np.ndarray = cv2.warpAffine(stored, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    if rng.random() < 0.5:  # a smaller index in the frame: detail lost, then enlarged
        k = rng.uniform(0.3, 0.8)
        small = cv2.resize(img, (max(8, round(CROP * k)),) * 2, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < 0.3:
        img = _cover(img, rng)
    gain = rng.uniform(0.6, 1.3) * rng.uniform(0.9, 1.1, 3)
    img = img * gain + rng.uniform(-25, 25)
    if rng.random() < 0.3:  # glare or shadow across part of the crop
        ramp = np.linspace(-1, 1, CROP, dtype=np.float32)[None, :] * rng.uniform(-40, 40)
        img = img + (ramp if rng.random() < 0.5 else ramp.T)[..., None]
    img = img + rng.normal(0, rng.uniform(0, 6), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _cover(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A neighbouring card's edge over one side: up to a quarter of the crop, paper-bright
    or coloured, with its shadow line."""
    depth = int(rng.uniform(0.1, 0.28) * CROP)
    colour = rng.uniform(170, 255, 3) if rng.random() < 0.7 else rng.uniform(0, 255, 3)
    out = img.copy()
    side = int(rng.integers(4))
    sl = [slice(None), slice(None)]
    sl[side % 2] = slice(0, depth) if side < 2 else slice(CROP - depth, CROP)
    out[tuple(sl)] = colour
    return out
