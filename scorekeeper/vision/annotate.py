"""Draw what was read on the frame: the players check this picture before a hand counts."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.vision.confidence import DEFAULT_SURE
from scorekeeper.vision.pairing import PhysicalCard

LOW_CONFIDENCE = DEFAULT_SURE  # a card no reader marked sure or not: sure from this


def annotate(image: np.ndarray, cards: list[PhysicalCard]) -> np.ndarray:
    out = image.copy()
    scale = max(0.5, min(out.shape[:2]) / 900)
    for card in cards:
        x1, y1, x2, y2 = (round(v) for v in card.box)
        sure = card.sure if card.sure is not None else card.confidence >= LOW_CONFIDENCE
        shown = card.probability if card.probability is not None else card.confidence
        colour = (60, 200, 60) if sure else (0, 140, 255)  # green, or orange: check this one
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(1, int(2 * scale)))
        label = f"{card.card} {shown:.2f}"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, 1)
        ty = max(th + 4, y1 - 4)
        cv2.rectangle(out, (x1, ty - th - 4), (x1 + tw + 4, ty + 2), colour, -1)
        cv2.putText(out, label, (x1 + 2, ty - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale,
                    (0, 0, 0), max(1, int(scale)), cv2.LINE_AA)
    return out
