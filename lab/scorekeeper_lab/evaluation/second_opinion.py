"""Second opinions on a read card: other looks at the same index crop (the first classifier
on the crop moved, grown, shrunk or turned a little; the second classifier on the crop as
cut), each asked whether it names the card read.

Real print's wrong sure cards are single-corner misreads the maps score 0.35–0.71 raw
(lab/RECORD.md), one look's guess at a glyph it half sees: a look at a slightly other cut
of it is likely to guess otherwise, while a right reading of a clear index survives small
moves. Used as a veto (a card's score can only fall), never as a feature that may lift a
card (the second classifier's agreement lifted wrong cards as a logistic feature).

The lab asks the opinions after the read, from the surest reading's box each read card
keeps in its signals (`sure_score.Signals.box`), so a set is read once and weighed under
any opinions (`opinions_of`, kept per set by `analyses.sure_veto`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper.vision.classifier import CROP, MARGIN

# a look at the crop: (side ×, shift right and down as shares of the side, degrees turned)
Variant = tuple[float, float, float, float]
VARIANTS: dict[str, Variant] = {
    "as_cut": (1.0, 0.0, 0.0, 0.0),
    "wide": (1.2, 0.0, 0.0, 0.0), "tight": (0.85, 0.0, 0.0, 0.0),
    "left": (1.0, -0.08, 0.0, 0.0), "right": (1.0, 0.08, 0.0, 0.0),
    "up": (1.0, 0.0, -0.08, 0.0), "down": (1.0, 0.0, 0.08, 0.0),
    "tilt_l": (1.0, 0.0, 0.0, 10.0), "tilt_r": (1.0, 0.0, 0.0, -10.0),
}
# which classifier looks at which cuts: "first:<variant>", "second:<variant>"
SECOND_CUTS = ("as_cut", "wide", "tight")


def crop_variant(image: np.ndarray, box: Sequence[float], variant: Variant,
                 margin: float = MARGIN, size: int = CROP) -> np.ndarray:
    """`classifier.crop_index`'s square crop, its side scaled, its centre shifted and the
    crop turned about it by `variant`; `variant` (1, 0, 0, 0) is `crop_index` itself."""
    x1, y1, x2, y2 = box
    scale, dx, dy, degrees = variant
    side = max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * margin) * scale
    cx = (x1 + x2) / 2 + dx * side
    cy = (y1 + y2) / 2 + dy * side
    k = size / side
    a = math.radians(degrees)
    c, s = math.cos(a) * k, math.sin(a) * k
    # frame → crop: turn by `degrees` about (cx, cy), scale by k, centre in the crop
    m = np.array([[c, s, size / 2 - c * cx - s * cy],
                  [-s, c, size / 2 + s * cx - c * cy]], dtype=np.float32)
    return cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


def opinion_names(second: bool) -> list[str]:
    names = [f"first:{v}" for v in VARIANTS]
    return names + ([f"second:{v}" for v in SECOND_CUTS] if second else [])


def opinions_of(first: Any, second: Any, image: np.ndarray,
                cards: Sequence[tuple[str, Sequence[float]]],
                only: Sequence[str] | None = None) -> list[dict[str, list[Any]]]:
    """Per (card read, box): each opinion's [surest name, its probability, the
    probability of the card read] (`opinion_names`; `only`: these of them; `second`
    None: none of the second's)."""
    if not cards:
        return []
    out: list[dict[str, list[Any]]] = [{} for _ in cards]
    looks = [(w, v) for w, _, v in (n.partition(":") for n in
                                    (only or opinion_names(second is not None)))
             if w == "first" or second is not None]
    index = {c: i for i, c in enumerate(CLASSIFIER_CLASSES)}
    for who, v in looks:
        model = first if who == "first" else second
        crops = [crop_variant(image, box, VARIANTS[v]) for _, box in cards]
        p = model.probabilities(crops)
        for k, (code, _) in enumerate(cards):
            top = int(p[k].argmax())
            own = float(p[k, index[code]]) if code in index else 0.0
            out[k][f"{who}:{v}"] = [CLASSIFIER_CLASSES[top], round(float(p[k, top]), 4),
                                    round(own, 4)]
    return out
