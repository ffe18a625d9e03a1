"""Draw what was read on the frame: the players check this picture before a hand counts."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from scorekeeper.vision.pairing import PhysicalCard
from scorekeeper.vision.reader import is_sure, shown
from scorekeeper.vision.unread import Unread

UNREAD_COLOUR = (255, 0, 255)  # magenta: no card's colour, and seen on cloth and on cards


def annotate(image: np.ndarray, cards: list[PhysicalCard],
             unread: Sequence[Unread] = ()) -> np.ndarray:
    """The frame with each read card boxed and named, and each card seen but not read
    (`unread`) in a dashed box marked "?": the players add it by hand."""
    out = image.copy()
    scale = max(0.5, min(out.shape[:2]) / 900)
    for mark in unread:
        _unread(out, mark, scale)
    for card in cards:
        x1, y1, x2, y2 = (round(v) for v in card.box)
        # the card's own sure decision, as the review shows it: no line of this picture's own
        colour = (60, 200, 60) if is_sure(card) else (0, 140, 255)  # green, or orange: check
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(1, int(2 * scale)))
        label = f"{card.card} {shown(card):.2f}"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, 1)
        ty = max(th + 4, y1 - 4)
        cv2.rectangle(out, (x1, ty - th - 4), (x1 + tw + 4, ty + 2), colour, -1)
        cv2.putText(out, label, (x1 + 2, ty - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale,
                    (0, 0, 0), max(1, int(scale)), cv2.LINE_AA)
    return out


def _unread(out: np.ndarray, mark: Unread, scale: float) -> None:
    """A dashed box with a "?" tag: drawn unlike any read card's, so it is never taken for
    one."""
    x1, y1, x2, y2 = (round(v) for v in mark.box)
    thick = max(1, int(2 * scale))
    dash = max(6, int(14 * scale))
    for (ax, ay), (bx, by) in (((x1, y1), (x2, y1)), ((x2, y1), (x2, y2)),
                               ((x2, y2), (x1, y2)), ((x1, y2), (x1, y1))):
        length = max(abs(bx - ax), abs(by - ay))
        for start in range(0, length, 2 * dash):
            end = min(length, start + dash)
            p = (ax + (bx - ax) * start // max(1, length), ay + (by - ay) * start // max(1, length))
            q = (ax + (bx - ax) * end // max(1, length), ay + (by - ay) * end // max(1, length))
            cv2.line(out, p, q, UNREAD_COLOUR, thick, cv2.LINE_AA)
    label = "?"
    size = 0.9 * scale
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, 2)
    pad = max(4, int(6 * scale))
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    if mark.kind == "index":  # beside the corner, so its rank and suit stay in sight
        cx = min(out.shape[1] - tw // 2 - pad, x2 + tw // 2 + pad + thick)
        cy = max(th // 2 + pad, y1)
    cv2.rectangle(out, (cx - tw // 2 - pad, cy - th // 2 - pad),
                  (cx + tw // 2 + pad, cy + th // 2 + pad), UNREAD_COLOUR, -1)
    cv2.putText(out, label, (cx - tw // 2, cy + th // 2), cv2.FONT_HERSHEY_SIMPLEX, size,
                (255, 255, 255), max(2, int(2 * scale)), cv2.LINE_AA)
