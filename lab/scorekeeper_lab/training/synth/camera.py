"""What the room and a Pi camera do to the table: light, glare, perspective, blur, noise, JPEG.

`light_table` acts on the flat table (light falls on the table, before the lens);
`shoot` views it through the homography and adds the sensor and codec artefacts. Strengths
are kept where a person can still read the indices, since labels are not dropped for them.
"""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper_lab.training.synth.backgrounds import gauss, grid, smooth_noise

Size = tuple[int, int]


def light_table(rng: np.random.Generator, canvas: np.ndarray) -> None:
    """In place on float32 BGR: uneven lamp light, a cast shadow, specular glare."""
    h, w = canvas.shape[:2]
    yy, xx = grid((w, h))
    ang = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.float32(np.cos(ang)) + yy * np.float32(np.sin(ang))) / np.float32(max(w, h))
    gain = 1 + np.float32(rng.uniform(-0.35, 0.2)) * (ramp - ramp.mean())
    gain += np.float32(rng.uniform(0, 0.15)) * smooth_noise(rng, (w, h), 3)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / np.float32(0.25 * (w * w + h * h))
    gain *= 1 - np.float32(rng.uniform(0, 0.3)) * r2  # vignetting
    canvas *= (gain * np.float32(rng.uniform(0.7, 1.15)))[..., None]
    if rng.random() < 0.25:  # a person's or lamp's shadow
        mask: np.ndarray = np.zeros((h, w), np.float32)
        pts = rng.uniform(-0.2, 1.2, (int(rng.integers(3, 7)), 2)) * (w, h)
        cv2.fillPoly(mask, [cv2.convexHull(pts.astype(np.int32))], 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(5, 30))
        canvas *= (1 - rng.uniform(0.25, 0.6) * mask)[..., None]
    for _ in range(int(rng.integers(1, 3)) if rng.random() < 0.35 else 0):  # glare
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.02, 0.12) * w, rng.uniform(0.02, 0.12) * h
        r = 3 * max(sx, sy)
        x0, x1 = int(max(0, cx - r)), int(min(w, cx + r))
        y0, y1 = int(max(0, cy - r)), int(min(h, cy + r))
        if x1 <= x0 or y1 <= y0:
            continue
        t = rng.uniform(0, np.pi)
        dx, dy = xx[y0:y1, x0:x1] - np.float32(cx), yy[y0:y1, x0:x1] - np.float32(cy)
        u = (dx * np.float32(np.cos(t)) + dy * np.float32(np.sin(t))) / np.float32(sx)
        v = (dy * np.float32(np.cos(t)) - dx * np.float32(np.sin(t))) / np.float32(sy)
        blob = np.exp(-0.5 * (u * u + v * v))
        canvas[y0:y1, x0:x1] += (np.float32(rng.uniform(60, 200)) * blob)[..., None]


def _motion_kernel(rng: np.random.Generator) -> np.ndarray:
    n = int(rng.integers(3, 10))
    k: np.ndarray = np.zeros((n, n), np.float32)
    k[n // 2, :] = 1.0
    rotm = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1.0)
    k = cv2.warpAffine(k, rotm, (n, n))
    out: np.ndarray = k / max(k.sum(), 1e-6)
    return out


def shoot(rng: np.random.Generator, canvas: np.ndarray, to_table: np.ndarray,
          size: Size) -> np.ndarray:
    """The photo: perspective view of the table, optics, colour, sensor noise, JPEG."""
    img = cv2.warpPerspective(canvas, to_table, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.4))
    elif r < 0.45:
        img = cv2.filter2D(img, -1, _motion_kernel(rng))
    img *= rng.uniform(0.85, 1.15, 3).astype(np.float32)  # white balance / colour cast
    sigma = rng.uniform(0.5, 7)
    img += gauss(rng, (*img.shape[:2], 1), sigma * rng.uniform(0.5, 1))
    img += gauss(rng, img.shape, sigma * 0.5)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    gamma = rng.uniform(0.8, 1.25)
    out = cv2.LUT(out, (255.0 * (np.arange(256) / 255.0) ** gamma).astype(np.uint8))
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out
