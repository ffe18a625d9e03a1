"""SVG → RGBA card images through Debian's `rsvg-convert`.

`rsvg-convert --export-id` places the element on a page whose size depends on the sheet
(aisleriot sheets give a large page with the card somewhere on it), so every render is
cropped to its opaque pixels: that is the card, whatever the page. Cards are rasterised at
twice the stored width and shrunk with INTER_AREA, which keeps thin index strokes crisp.
"""

from __future__ import annotations

import shutil
import subprocess

import cv2
import numpy as np

FACE_WIDTH = 240
OVERSAMPLE = 2


def have_rsvg() -> bool:
    return shutil.which("rsvg-convert") is not None


def rasterize(path: str, element_id: str | None = None, zoom: float = 1.0) -> np.ndarray | None:
    """BGRA crop of one element (or the whole file); None when the id is absent or blank."""
    cmd = ["rsvg-convert", "-z", f"{zoom:.5f}"]
    if element_id:
        cmd += ["-i", element_id]
    cmd.append(path)
    res = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    if res.returncode != 0 or not res.stdout:
        return None
    img = cv2.imdecode(np.frombuffer(res.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        return None
    ys, xs = np.nonzero(img[:, :, 3] > 128)
    if xs.size < 100:
        return None
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


def zoom_for(path: str, element_id: str | None) -> float | None:
    """Zoom that makes this design's card OVERSAMPLE × FACE_WIDTH pixels wide."""
    probe = rasterize(path, element_id, 1.0)
    if probe is None:
        return None
    return OVERSAMPLE * FACE_WIDTH / probe.shape[1]


def to_face(img: np.ndarray) -> np.ndarray:
    """Shrink an oversampled render to FACE_WIDTH, keeping the aspect ratio."""
    h, w = img.shape[:2]
    height = max(1, round(h * FACE_WIDTH / w))
    return cv2.resize(img, (FACE_WIDTH, height), interpolation=cv2.INTER_AREA)
