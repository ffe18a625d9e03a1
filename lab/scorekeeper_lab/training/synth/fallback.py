"""A tiny built-in deck drawn with OpenCV, so the composer runs (and CI tests it) without art.

Faces are plain: rank text and a drawn suit pip in the top-left corner, the same corner turned
180° in the bottom-right, a big pip in the middle. Index boxes are known from the drawing.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper_lab.training.synth.cards import RANKS, SUITS
from scorekeeper_lab.training.synth.deckset import Deck, Face

W, H = 120, 168
RED, BLACK = (30, 30, 200), (20, 20, 20)


def _pip(img: np.ndarray, suit: str, cx: int, cy: int, r: int) -> None:
    col = RED if suit in "DH" else BLACK
    if suit == "D":
        pts = np.array([[cx, cy - r], [cx + r * 3 // 4, cy], [cx, cy + r], [cx - r * 3 // 4, cy]])
        cv2.fillConvexPoly(img, pts.astype(np.int32), (*col, 255))
        return
    if suit == "C":
        for dx, dy in ((0, -r // 2), (-r // 2, r // 6), (r // 2, r // 6)):
            cv2.circle(img, (cx + dx, cy + dy), max(1, r * 2 // 5), (*col, 255), -1)
    else:
        sign = 1 if suit == "H" else -1
        for dx in (-r // 2, r // 2):
            cv2.circle(img, (cx + dx, cy - sign * r // 4), max(1, r // 2), (*col, 255), -1)
        tri = np.array([[cx - r, cy - sign * r // 6], [cx + r, cy - sign * r // 6],
                        [cx, cy + sign * r]])
        cv2.fillConvexPoly(img, tri.astype(np.int32), (*col, 255))
    cv2.line(img, (cx, cy), (cx, cy + r), (*col, 255), max(1, r // 4))


def _blank(paper: tuple[int, int, int]) -> np.ndarray:
    img = np.zeros((H, W, 4), np.uint8)
    cv2.rectangle(img, (0, 0), (W - 1, H - 1), (*paper, 255), -1)
    cv2.rectangle(img, (0, 0), (W - 1, H - 1), (90, 90, 90, 255), 1)
    return img


def _face(rank: str, suit: str) -> Face:
    img = _blank((245, 245, 245))
    col = RED if suit in "DH" else BLACK
    text = "JK" if suit == "" else rank
    scale = 0.55 if len(text) > 1 else 0.7
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    cv2.putText(img, text, (5, 5 + th), cv2.FONT_HERSHEY_SIMPLEX, scale, (*col, 255), 2)
    x2, y2 = 5 + tw, 8 + th
    if suit:
        _pip(img, suit, 5 + tw // 2, y2 + 9, 7)
        _pip(img, suit, W // 2, H // 2, 22)
        y2 += 18
    box = (2, 2, min(W, x2 + 3), min(H, y2 + 3))
    corner = img[box[1]:box[3], box[0]:box[2]].copy()
    img[H - box[3]:H - box[1], W - box[2]:W - box[0]] = cv2.rotate(corner, cv2.ROTATE_180)
    turned = (W - box[2], H - box[3], W - box[0], H - box[1])
    return Face(f"{rank}{suit}" if suit else "JK", img, [box, turned])


def fallback_deck() -> Deck:
    back = _blank((150, 60, 30))
    for y in range(8, H - 8, 8):
        cv2.line(back, (8, y), (W - 9, y), (200, 140, 90, 255), 1)
    faces = [_face(r, s) for s in SUITS for r in RANKS] + [_face("", "")]
    return Deck("fallback", back, faces)
