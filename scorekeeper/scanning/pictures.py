"""The annotated pictures of scans: for the players to check a read, not a record.

A scan's picture is kept in memory only, the last few by id (the hand that counts is in the
store); the knock check's is only ever sent back, small, to the phone that asked.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

KEEP_SCANS = 40
SCAN_QUALITY = 85  # JPEG quality of a kept scan's picture
PREVIEW_SIDE = 720  # px, the longer side of the knock check's marked photo
PREVIEW_QUALITY = 75


class ScanImages:
    """The last few annotated scans, as JPEG bytes by id."""

    def __init__(self, keep: int = KEEP_SCANS) -> None:
        self._images: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.keep = keep

    def add(self, jpeg: bytes) -> str:
        key = uuid.uuid4().hex
        with self._lock:
            self._images[key] = jpeg
            while len(self._images) > self.keep:
                self._images.popitem(last=False)
        return key

    def get(self, key: str) -> bytes | None:
        with self._lock:
            return self._images.get(key)


def jpeg(picture: np.ndarray, quality: int = SCAN_QUALITY) -> bytes | None:
    """The picture as JPEG bytes, or None when it cannot be encoded."""
    import cv2

    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else None


def preview(picture: np.ndarray) -> bytes | None:
    """The picture at most `PREVIEW_SIDE` across, as JPEG: enough to check a read on a phone."""
    import cv2

    side = max(picture.shape[:2])
    if side > PREVIEW_SIDE:
        scale = PREVIEW_SIDE / side
        picture = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return jpeg(picture, PREVIEW_QUALITY)
