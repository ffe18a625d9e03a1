"""Print as a real deck shows it: ink weight, bleed, fade, paper tint, misregistration, grain.

Rendered card art is vector glyphs at one stroke weight, pure ink on white; whole indices of
real print in a fan read far less often than the rendered fans' (89.4 % against 99.5 % from
their labelled boxes; the finished analysis: `git show 5f2a125:scripts/print_gap.py`).
This wears a card face at its source resolution, before it is laid on the table, as
printing and handling do; the geometry, and so every label, is unchanged. Measured (the
lab's record): 3000 scenes of it beside the readable and fan scenes did not read real print
better than those alone.
"""

from __future__ import annotations

import cv2
import numpy as np


def wear_print(rng: np.random.Generator, face: np.ndarray) -> np.ndarray:
    """A worn copy of an RGBA (or BGR) face; the alpha channel is kept as it is."""
    rgb = face[:, :, :3]
    # stroke weight: ink spreads (a darker minimum) or thins, by a pixel at the art's
    # 240 px width: a bold deck's glyphs, or a light one's
    r = rng.random()
    kernel = np.ones((3, 3), np.uint8)
    if r < 0.3:
        rgb = cv2.erode(rgb, kernel)
    elif r < 0.5:
        rgb = cv2.dilate(rgb, kernel)
    out = np.asarray(rgb, np.float32)
    # ink bleed: soft glyph edges
    if rng.random() < 0.6:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.4))),
                         np.float32)
    # misregistration: one colour plate a little off the others
    if rng.random() < 0.4:
        c = int(rng.integers(0, 3))
        shift = np.array([[1, 0, rng.uniform(-1.5, 1.5)], [0, 1, rng.uniform(-1.5, 1.5)]],
                         np.float32)
        out[:, :, c] = cv2.warpAffine(out[:, :, c], shift, (out.shape[1], out.shape[0]),
                                      borderMode=cv2.BORDER_REPLICATE)
    # fade and paper: ink toward the paper's colour, the paper off-white
    # (BGR) grey to cream: red the most, blue the least
    paper = np.float32(255 * rng.uniform(0.86, 1.0)) * np.array(
        [rng.uniform(0.9, 1.0), rng.uniform(0.96, 1.0), 1.0], np.float32)
    keep = np.float32(rng.uniform(0.55, 1.0))
    out = np.asarray(paper - (255 - out) * keep * paper / 255, np.float32)
    # grain of the card stock
    if rng.random() < 0.7:
        grain = rng.normal(0, rng.uniform(2, 7), out.shape[:2]).astype(np.float32)
        out += cv2.GaussianBlur(grain, (0, 0), 0.8)[:, :, None]
    worn = face.copy()
    worn[:, :, :3] = np.clip(out, 0, 255).astype(np.uint8)
    return worn
