"""Synthetic camera views of a mat or table: how calibration is tested without a camera.

A rendered layout is warped by a known homography onto a cluttered, noisy background, so
a test can compare what calibration recovers with the truth, in millimetres.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.calibration.drawing import Page, render
from scorekeeper.calibration.layout import Layout
from scorekeeper.calibration.mat import layout_shapes


def layout_image(layout: Layout, px_per_mm: float, surface: tuple[int, int, int] = (255,) * 3
                 ) -> np.ndarray:
    """The layout's markers on a plain surface (BGR), top-down, `px_per_mm` pixels a mm."""
    page = Page(layout.size_mm)
    page.add(*layout_shapes(layout))
    gray = render(page, px_per_mm * 25.4)
    out = np.empty((*gray.shape, 3), np.uint8)
    out[:] = surface
    out[gray < 128] = 0
    return out


def image_to_mm(px_per_mm: float) -> np.ndarray:
    """Pixel centres of a top-down render → mm: pixel i covers [i, i+1)/px_per_mm."""
    s = 1.0 / px_per_mm
    return np.array([[s, 0, 0.5 * s], [0, s, 0.5 * s], [0, 0, 1.0]])


def random_view(rng: np.random.Generator, size_mm: tuple[float, float],
                frame: tuple[int, int], fill: float = 0.7, tilt: float = 0.12) -> np.ndarray:
    """A random perspective homography mm → frame pixels, the whole layout in the frame."""
    w, h = size_mm
    fw, fh = frame
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    for _ in range(1000):
        scale = fill * min(fw / w, fh / h)
        angle = rng.uniform(-0.35, 0.35)
        cos, sin = np.cos(angle), np.sin(angle)
        centre = np.array([fw / 2, fh / 2]) + rng.uniform(-0.05, 0.05, 2) * (fw, fh)
        rel = (src - (w / 2, h / 2)) * scale
        dst = centre + rel @ np.array([[cos, sin], [-sin, cos]])
        dst += rng.uniform(-tilt, tilt, (4, 2)) * scale * min(w, h)  # keystone: the tilt
        margin = 0.02 * min(fw, fh)
        if (dst.min(axis=0) > margin).all() and (dst.max(axis=0) < (fw - margin, fh - margin)
                                                 ).all():
            break
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)
                                       ).astype(np.float64)


def cluttered_background(rng: np.random.Generator, frame: tuple[int, int]) -> np.ndarray:
    """A blotchy table with a few random shapes on it: something for detectors to ignore."""
    fw, fh = frame
    small = rng.integers(40, 200, (max(2, fh // 60), max(2, fw // 60), 3)).astype(np.uint8)
    bg = cv2.resize(small, (fw, fh), interpolation=cv2.INTER_CUBIC)
    for _ in range(12):
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        p = tuple(int(v) for v in rng.integers(0, min(fw, fh), 2))
        if rng.random() < 0.5:
            cv2.circle(bg, p, int(rng.integers(10, 60)), colour, -1)
        else:
            q = (p[0] + int(rng.integers(-80, 80)), p[1] + int(rng.integers(-80, 80)))
            cv2.rectangle(bg, p, q, colour, -1)
    return bg


def photograph(top_down: np.ndarray, px_per_mm: float, mm_to_frame: np.ndarray,
               background: np.ndarray, rng: np.random.Generator, noise: float = 6.0,
               blur: float = 0.8) -> np.ndarray:
    """Warp a top-down image into the frame, then light it unevenly, blur it, add noise."""
    fh, fw = background.shape[:2]
    m = mm_to_frame @ image_to_mm(px_per_mm)
    warped = cv2.warpPerspective(top_down, m, (fw, fh), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(top_down.shape[:2], 255, np.uint8), m, (fw, fh))
    frame = np.where(mask[..., None] > 127, warped, background).astype(np.float32)
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = 1.0 + gx * (xx / fw - 0.5) + gy * (yy / fh - 0.5)
    frame *= light[..., None] * rng.uniform(0.75, 1.0)
    if blur > 0:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), blur), np.float32)
    frame += rng.normal(0, noise, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8)


def project(mm_to_frame: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, mm_to_frame).reshape(-1, 2)
