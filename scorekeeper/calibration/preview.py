"""The picture that tells a person at the table whether calibration worked."""

from __future__ import annotations

import cv2
import numpy as np

from scorekeeper.calibration.calibration import Calibration

_COLOURS = [(40, 160, 40), (200, 110, 20), (30, 30, 200), (160, 40, 160), (20, 160, 200),
            (120, 120, 20)]


def _label(key: str | tuple[str, str]) -> str:
    return " ".join(key) if isinstance(key, tuple) else key


def preview(cal: Calibration, frame: np.ndarray) -> np.ndarray:
    """The rectified view with every zone outlined and named, and the fit quality on top."""
    view = cal.rectify(frame)
    if view.ndim == 2:
        view = cv2.cvtColor(view, cv2.COLOR_GRAY2BGR)
    s = cal.px_per_mm
    overlay = view.copy()
    for i, zone in enumerate(cal.layout.zones):
        pts = np.round(np.asarray(zone.polygon_mm) * s).astype(np.int32)
        colour = _COLOURS[i % len(_COLOURS)]
        cv2.fillPoly(overlay, [pts], colour)
        cv2.polylines(view, [pts], True, colour, max(2, round(s / 2)), cv2.LINE_AA)
        x, y = pts.mean(axis=0).astype(int)
        _text(view, _label(zone.key), (int(x), int(y)), 0.6 * max(1.0, s / 3), colour,
              centred=True)
    view = cv2.addWeighted(overlay, 0.18, view, 0.82, 0)
    for marker in cal.layout.markers:
        pts = np.round(np.asarray(marker.corners_mm) * s).astype(np.int32)
        seen = marker.id in cal.markers_seen
        cv2.polylines(view, [pts], True, (0, 200, 0) if seen else (0, 0, 255), 2, cv2.LINE_AA)
    _text(view, f"{cal.layout.name}: markers {cal.markers_seen}, fit rms {cal.rms_mm:.2f} mm, "
                f"worst {cal.max_mm:.2f} mm", (10, 28), 0.7, (0, 0, 0))
    return view


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float,
          colour: tuple[int, int, int], centred: bool = False) -> None:
    """Text on a white box, readable over any table."""
    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(scale * 1.5))
    (w, h), base = cv2.getTextSize(text, font, scale, thick)
    x, y = (org[0] - w // 2, org[1] + h // 2) if centred else org
    cv2.rectangle(img, (x - 4, y - h - 4), (x + w + 4, y + base + 2), (255, 255, 255), -1)
    cv2.putText(img, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)
