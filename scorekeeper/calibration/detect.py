"""ArUco marker detection, tuned for accuracy over speed (it runs once per calibration)."""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

_DICTIONARIES = {"DICT_4X4_50": cv2.aruco.DICT_4X4_50}


def _detector(dictionary: str) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # sub-pixel corners: the homography is only as good as these corners
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 5
    return cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(_DICTIONARIES[dictionary]), params)


def detect_markers(frame: np.ndarray, ids: Collection[int] | None = None,
                   dictionary: str = "DICT_4X4_50") -> dict[int, np.ndarray]:
    """id → (4, 2) float32 corners in frame pixels (TL, TR, BR, BL as printed).

    Only `ids` are kept when given. A marker id seen twice (a stray print, a reflection)
    keeps its larger sighting: a small false detection is the likelier mistake.
    """
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners, found, _ = _detector(dictionary).detectMarkers(gray)
    out: dict[int, np.ndarray] = {}
    if found is None:
        return out
    for quad, marker_id in zip(corners, (int(i) for i in found.ravel()), strict=True):
        if ids is not None and marker_id not in ids:
            continue
        pts = quad.reshape(4, 2).astype(np.float32)
        if marker_id not in out or cv2.arcLength(pts, True) > cv2.arcLength(out[marker_id], True):
            out[marker_id] = pts
    return out
