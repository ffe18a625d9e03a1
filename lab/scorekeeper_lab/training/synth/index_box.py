"""Find the printed corner index (rank glyph + small suit pip) on a rendered card face.

Ink is every opaque pixel far in colour from the nearby paper (see `ink_mask`). Inside the
top-left search window we take the ink component nearest the corner and grow it by nearby
components (the `0` of a `10`, the pip under the rank), refusing any component too large to
be part of an index (frame lines, court pictures, the card border). The bottom-right index
is found the same way on the face turned 180° and compared with the top-left box turned
180°; the montages frame the faces where the two disagree, for a person to look at.
"""

from __future__ import annotations

import cv2
import numpy as np

Box = tuple[int, int, int, int]


def ink_mask(face: np.ndarray, threshold: float = 60.0) -> np.ndarray:
    """Pixels much darker or more coloured than the brightest paper within ~5 % of the card
    width. A local-max background follows gradient paper (tigullio's metallic sheen,
    ornamental's cream); inside a pip wider than that only its outline is ink, which gives
    the same bbox. Then removed: a 2 % band inside the card's (rounded) outline, which holds
    the border, and long straight horizontal/vertical lines (inner frames, court-picture
    frames), which no index glyph has and which would glue a rank to the frame it touches."""
    h, w = face.shape[:2]
    bgr = face[:, :, :3].astype(np.float32)
    opaque = (face[:, :, 3] > 128).astype(np.uint8)
    bgr[opaque == 0] = 0.0  # outside the rounded corners must not raise the paper level
    k = max(3, int(0.1 * w) | 1)
    paper = cv2.dilate(bgr, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    ink = ((np.linalg.norm(paper - bgr, axis=2) > threshold) & (opaque > 0)).astype(np.uint8)
    m = max(1, round(0.02 * w))
    inner = cv2.erode(np.pad(opaque, 1), np.ones((2 * m + 1, 2 * m + 1), np.uint8))[1:-1, 1:-1]
    ink &= inner
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((int(0.2 * h), 1), np.uint8))
    horizontal = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, int(0.25 * w)), np.uint8))
    lines = np.bitwise_or(vertical, horizontal)
    return np.asarray(ink & ~lines & 1)


def _grow(stats: np.ndarray, seed: int, ok: np.ndarray, gap_x: float, gap_y: float,
          max_w: float, max_h: float) -> Box:
    x1, y1, w, h = stats[seed, :4]
    box = [int(x1), int(y1), int(x1 + w), int(y1 + h)]
    used = {seed}
    changed = True
    while changed:
        changed = False
        for i in np.flatnonzero(ok):
            if i in used:
                continue
            bx1, by1, bw, bh = stats[i, :4]
            bx2, by2 = bx1 + bw, by1 + bh
            dx = max(box[0] - bx2, bx1 - box[2], 0)
            dy = max(box[1] - by2, by1 - box[3], 0)
            if dx > gap_x or dy > gap_y:
                continue
            nb = [min(box[0], bx1), min(box[1], by1), max(box[2], bx2), max(box[3], by2)]
            if nb[2] - nb[0] > max_w or nb[3] - nb[1] > max_h:
                continue
            box, changed = nb, True
            used.add(int(i))
    return box[0], box[1], box[2], box[3]


def find_top_left(face: np.ndarray, joker: bool = False, big: bool = False) -> Box | None:
    """Index box (x1, y1, x2, y2, exclusive end) in face pixels, or None.

    The window is the top-left 25 % x 35 % (jokers: 45 % x 60 %, for a printed word);
    `big` widens it for designs with a large pip under the rank.
    """
    h, w = face.shape[:2]
    fw, fh, mw, mh = (0.25, 0.35, 0.2, 0.3) if not big else (0.32, 0.55, 0.26, 0.5)
    if joker:
        fw, fh, mw, mh = 0.45, 0.6, 0.42, 0.55
    win_w, win_h = int(fw * w), int(fh * h)
    # Components of the whole face, so a frame line or a court picture that reaches into
    # the window is seen at its full size and refused, instead of as a small piece.
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink_mask(face), connectivity=8)
    max_w, max_h = mw * w, mh * h
    area = stats[:, cv2.CC_STAT_AREA]
    sw, sh = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    ok = (area >= 6) & (sw <= max_w) & (sh <= max_h)
    ok &= (stats[:, 0] + sw <= win_w) & (stats[:, 1] + sh <= win_h)
    ok[0] = False
    if not ok.any():
        return None
    cand = np.flatnonzero(ok)
    dist = np.hypot(stats[cand, 0], stats[cand, 1])
    seed = int(cand[np.argmin(dist)])
    box = _grow(stats, seed, ok, 0.045 * w, 0.08 * h, max_w, max_h)
    if (box[2] - box[0]) * (box[3] - box[1]) < 0.002 * w * h:
        return None
    m = max(2, round(0.012 * w))
    return (max(0, int(box[0]) - m), max(0, int(box[1]) - m), min(w, int(box[2]) + m),
            min(h, int(box[3]) + m))


def rotate_box(box: Box, w: int, h: int) -> Box:
    """The box turned 180° about the card centre."""
    return w - box[2], h - box[3], w - box[0], h - box[1]


def iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def find_indices(face: np.ndarray, joker: bool = False,
                 big: bool = False) -> tuple[list[Box], float]:
    """Both corner boxes [top-left, bottom-right] and their agreement (IoU after turning).

    The bottom-right search result is kept when it has about the top-left box's size (some
    designs print the bottom index upright or shifted, e.g. KDE Ancient Egyptians); otherwise
    the turned top-left box stands in. Low agreement is framed in the montage to be looked at.
    """
    h, w = face.shape[:2]
    tl = find_top_left(face, joker, big)
    if tl is None or (not joker and tl[3] - tl[1] < 0.1 * h):
        return [], 0.0  # no index, or only part of one (a pip without its rank): unusable
    found = find_top_left(cv2.rotate(face, cv2.ROTATE_180), joker, big)
    turned = rotate_box(tl, w, h)
    if found is None:
        return [tl, turned], 0.0
    br = rotate_box(found, w, h)

    def area(b: Box) -> int:
        return (b[2] - b[0]) * (b[3] - b[1])

    similar = 0.6 <= area(br) / max(1, area(tl)) <= 1.6
    return [tl, br if similar else turned], iou(br, turned)
