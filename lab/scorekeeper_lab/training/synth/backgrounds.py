"""Procedural table surfaces: felt, wood, cloth, carpet, tiles, gradients, plus clutter.

Each maker returns an HxWx3 uint8 BGR image built from a few vectorised numpy/OpenCV ops
(low-frequency noise is drawn small and resized up), so a 640 px surface costs a few ms.
Clutter (paper sheets, books, blank white cards) is what a real table has and teaches the
detector that a white rectangle without an index is not a card.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Size = tuple[int, int]


def smooth_noise(rng: np.random.Generator, size: Size, cells: int) -> np.ndarray:
    """Noise in [-1, 1] with about `cells` blobs across the width (bicubic upsampling)."""
    w, h = size
    cw, ch = max(2, cells), max(2, round(cells * h / w))
    small = rng.uniform(-1, 1, (ch, cw)).astype(np.float32)
    return np.clip(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), -1, 1)


def gauss(rng: np.random.Generator, shape: tuple[int, ...], sigma: float) -> np.ndarray:
    """float32 normal noise (float64 draws would double the cost of every surface)."""
    return rng.standard_normal(shape, dtype=np.float32) * np.float32(sigma)


def grid(size: Size) -> tuple[np.ndarray, np.ndarray]:
    """float32 (yy, xx) pixel coordinates, cached per size."""
    if size not in _GRIDS:
        w, h = size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        _GRIDS[size] = (yy, xx)
    return _GRIDS[size]


_GRIDS: dict[Size, tuple[np.ndarray, np.ndarray]] = {}


def _colour(rng: np.random.Generator, lo: int = 20, hi: int = 230) -> np.ndarray:
    return rng.uniform(lo, hi, 3).astype(np.float32)


def _finish(img: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def felt(rng: np.random.Generator, size: Size) -> np.ndarray:
    w, h = size
    base = np.array([[40, 110, 30], [110, 60, 20], [30, 30, 130], [60, 60, 60], [90, 40, 90],
                     [20, 20, 25]][rng.integers(6)], np.float32) * rng.uniform(0.6, 1.4)
    shade = 1 + 0.15 * smooth_noise(rng, size, 4)[..., None]
    fine = gauss(rng, (h, w, 1), rng.uniform(3, 10))
    return _finish(base * shade + fine)


def wood(rng: np.random.Generator, size: Size) -> np.ndarray:
    w, h = size
    yy, xx = grid(size)
    ang = rng.uniform(0, np.pi)
    v = -xx * np.float32(np.sin(ang)) + yy * np.float32(np.cos(ang))
    warp = smooth_noise(rng, size, 3) * rng.uniform(10, 40)
    grain = np.sin((v + warp) * np.float32(rng.uniform(0.15, 0.6))) * 0.5 + 0.5
    pw = rng.uniform(60, 200)
    plank = np.floor(v / np.float32(pw))
    plank_tone = (np.sin(plank * np.float32(12.9898)) * np.float32(43758.5453)) % 1.0
    light = np.array([60, 110, 170], np.float32) * rng.uniform(0.6, 1.3)
    dark = light * rng.uniform(0.45, 0.75)
    t = (0.6 * grain + 0.4 * plank_tone)[..., None]
    img = dark + (light - dark) * t
    seam = (np.abs((v % np.float32(pw)) - 1) < 1.2)[..., None]
    img = np.where(seam, img * 0.5, img) + gauss(rng, (h, w, 1), 3)
    return _finish(img)


def cloth(rng: np.random.Generator, size: Size) -> np.ndarray:
    yy, xx = grid(size)
    p = rng.uniform(2.0, 6.0)
    f = np.float32(np.pi / p)
    weave = (np.sin(xx * f) * np.sin(yy * f))[..., None]
    a, b = _colour(rng), _colour(rng)
    img = a + (b - a) * (0.5 + 0.5 * weave) * rng.uniform(0.2, 0.6)
    folds = 1 + 0.25 * smooth_noise(rng, size, int(rng.integers(2, 6)))[..., None]
    if rng.random() < 0.4:  # checks / stripes
        period = rng.uniform(20, 80)
        stripes = ((xx // period + (yy // period) * rng.integers(0, 2)) % 2)[..., None]
        img = np.where(stripes > 0, img, img * rng.uniform(0.5, 0.8))
    return _finish(img * folds)


def carpet(rng: np.random.Generator, size: Size) -> np.ndarray:
    w, h = size
    palette = np.stack([_colour(rng, 60, 200) for _ in range(3)])
    palette = palette * 0.4 + palette.mean(0) * 0.6
    idx = rng.integers(0, 3, (h, w), dtype=np.uint8)
    img = palette.astype(np.float32)[idx] + gauss(rng, (h, w, 1), 18)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.2))
    return _finish(img * (1 + 0.1 * smooth_noise(rng, size, 6)[..., None]))


def tiles(rng: np.random.Generator, size: Size) -> np.ndarray:
    w, h = size
    img = np.empty((h, w, 3), np.float32)
    img[:] = _colour(rng, 120, 230)
    img *= 1 + 0.08 * smooth_noise(rng, size, 12)[..., None]
    step = int(rng.integers(90, 260))
    grout = _colour(rng, 80, 200)
    for x in range(int(rng.integers(0, step)), w, step):
        img[:, x:x + 3] = grout
    for y in range(int(rng.integers(0, step)), h, step):
        img[y:y + 3] = grout
    return _finish(img + gauss(rng, (h, w, 1), 4))


def gradient(rng: np.random.Generator, size: Size) -> np.ndarray:
    w, h = size
    yy, xx = grid(size)
    ang = rng.uniform(0, 2 * np.pi)
    t = xx * np.float32(np.cos(ang)) + yy * np.float32(np.sin(ang))
    t = ((t - t.min()) / max(1.0, float(np.ptp(t))))[..., None]
    a, b = _colour(rng), _colour(rng)
    return _finish(a + (b - a) * t + gauss(rng, (h, w, 1), 3))


MAKERS: tuple[Callable[[np.random.Generator, Size], np.ndarray], ...] = (
    felt, felt, wood, wood, cloth, carpet, carpet, tiles, gradient)


def clutter(rng: np.random.Generator, img: np.ndarray, count: int) -> None:
    """Paper sheets, books and blank cards lying on the table (drawn in place, under cards)."""
    h, w = img.shape[:2]
    for _ in range(count):
        cw, ch = rng.uniform(0.1, 0.6) * w, rng.uniform(0.1, 0.6) * h
        if rng.random() < 0.3:  # blank card-sized white rectangle: a hard negative
            cw = rng.uniform(0.08, 0.2) * min(w, h)
            ch = cw * 1.4
        rect = ((float(rng.uniform(0, w)), float(rng.uniform(0, h))), (cw, ch),
                float(rng.uniform(0, 180)))
        pts = cv2.boxPoints(rect).astype(np.int32)
        colour = rng.uniform(200, 255, 3) if rng.random() < 0.5 else rng.uniform(20, 240, 3)
        cv2.fillConvexPoly(img, pts, colour.tolist(), lineType=cv2.LINE_AA)
        if rng.random() < 0.5:  # lines of "text", kept inside the sheet
            x0, y0 = np.maximum(pts.min(0), 0)
            x1, y1 = np.minimum(pts.max(0), (w - 1, h - 1))
            if x1 <= x0 or y1 <= y0:
                continue
            sheet = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
            cv2.fillConvexPoly(sheet, pts - (x0, y0), 1)
            ink = np.zeros_like(sheet)
            for y in range(6, sheet.shape[0] - 4, int(rng.integers(7, 14))):
                xs = int(rng.uniform(0, sheet.shape[1] / 2))
                cv2.line(ink, (xs, y), (int(rng.uniform(xs, sheet.shape[1])), y), 1, 1)
            roi = img[y0:y1 + 1, x0:x1 + 1]
            roi[(sheet & ink) > 0] = (60, 60, 60)


def table(rng: np.random.Generator, size: Size) -> np.ndarray:
    img = MAKERS[int(rng.integers(len(MAKERS)))](rng, size)
    if rng.random() < 0.5:
        clutter(rng, img, int(rng.integers(1, 4)))
    return img
