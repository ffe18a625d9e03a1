"""Frame pixels ↔ mat millimetres: the homography, where it is saved, and zone lookup.

The reader keeps working on raw frames (full resolution, boxes in frame pixels); the
calibration only answers "where on the mat is this point" and "which zone is it in".
`rectify` exists for previews and for readers that prefer a top-down view.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, TypeVar

import cv2
import numpy as np
from pydantic import BaseModel, Field

from scorekeeper.calibration.detect import detect_markers
from scorekeeper.calibration.layout import Layout, Point, corners_array, pretty_json
from scorekeeper.files import write_atomic

ZoneKey = str | tuple[str, str]


def max_rms_mm(layout: Layout) -> float:
    """Beyond this the markers do not fit the layout: wrong size, or not flat (lens
    distortion grows with the surface, hence the allowance for tables)."""
    return max(2.0, 0.006 * math.hypot(*layout.size_mm))


class CalibrationError(RuntimeError):
    """No usable mat in the frame, or a calibration file that cannot be used; says why.

    `kind` lets callers react without parsing text: "no_markers", "too_few", "bad_fit",
    "mirrored", "file".
    """

    def __init__(self, message: str, kind: str = "bad_fit") -> None:
        super().__init__(message)
        self.kind = kind


class Calibration(BaseModel):
    """A saved homography from one camera's frames to a layout's millimetres."""

    version: int = 1
    layout: Layout
    px_per_mm: float = Field(gt=0)
    homography: list[list[float]]  # frame pixels → layout mm (3 × 3)
    frame_size: tuple[int, int]  # (width, height) it was measured on
    markers_seen: list[int]
    rms_mm: float
    max_mm: float
    created: datetime
    source: str = ""

    @cached_property
    def matrix(self) -> np.ndarray:
        return np.asarray(self.homography, dtype=np.float64)

    @property
    def output_size(self) -> tuple[int, int]:
        """Rectified image (width, height) in pixels: the layout at `px_per_mm`."""
        w, h = self.layout.size_mm
        return round(w * self.px_per_mm), round(h * self.px_per_mm)

    def _matrix_for(self, frame_size: tuple[int, int]) -> np.ndarray:
        """The homography for frames of another resolution of the same camera view."""
        if tuple(frame_size) == tuple(self.frame_size):
            return self.matrix
        (w0, h0), (w1, h1) = self.frame_size, frame_size
        rx, ry = w0 / w1, h0 / h1
        if abs(rx - ry) > 0.01 * max(rx, ry):
            raise CalibrationError(
                f"calibrated on {w0}×{h0} frames, got {w1}×{h1}: a different aspect ratio "
                "means a different view; calibrate again", "frame")
        # pixel centres: old = (new + 0.5)·r − 0.5
        scale = np.array([[rx, 0, 0.5 * rx - 0.5], [0, ry, 0.5 * ry - 0.5], [0, 0, 1.0]])
        return np.asarray(self.matrix @ scale)

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """Top-down view of the layout at `px_per_mm`, whatever the camera angle."""
        s = self.px_per_mm
        to_px = np.array([[s, 0, -0.5], [0, s, -0.5], [0, 0, 1.0]])
        m = to_px @ self._matrix_for((frame.shape[1], frame.shape[0]))
        return cv2.warpPerspective(frame, m, self.output_size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=(128, 128, 128))

    def to_mat_mm(self, point: Point, frame_size: tuple[int, int] | None = None) -> Point:
        """A frame pixel → millimetres on the mat (or table)."""
        m = self._matrix_for(frame_size) if frame_size else self.matrix
        return _apply(m, point)

    def to_frame(self, point_mm: Point) -> Point:
        """Millimetres on the mat → the frame pixel it appears at."""
        return _apply(np.linalg.inv(self.matrix), point_mm)

    def zone_of(self, point_in_frame: Point,
                frame_size: tuple[int, int] | None = None) -> ZoneKey | None:
        """'melds' | 'hand' | None on a mat; ('seat 2', 'melds') in table mode."""
        return self.layout.zone_of_mm(self.to_mat_mm(point_in_frame, frame_size))

    def drift_mm(self, frame: np.ndarray) -> float | None:
        """How far the markers have moved since calibration (camera bumped?); None if unseen."""
        seen = detect_markers(frame, self.layout.marker_by_id.keys(), self.layout.dictionary)
        if not seen:
            return None
        size = (frame.shape[1], frame.shape[0])
        m = self._matrix_for(size)
        ids = sorted(seen)
        got = _apply_many(m, np.concatenate([seen[i] for i in ids]))
        want = corners_array(self.layout, ids)
        return float(np.max(np.linalg.norm(got - want, axis=1)))

    def save(self, path: Path) -> Path:
        write_atomic(path, pretty_json(self.model_dump(mode="json")))  # never read back half
        return path

    @classmethod
    def load(cls, path: Path) -> Calibration:
        try:
            return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise CalibrationError(f"{path}: cannot read calibration ({exc.strerror})",
                                   "file") from exc
        except ValueError as exc:
            raise CalibrationError(f"{path}: not a scorekeeper calibration: {exc}",
                                   "file") from exc


def load_calibration(path: Path) -> Calibration | None:
    """The saved calibration, or None when there is none: then frames are read as they are."""
    return Calibration.load(path) if Path(path).exists() else None


def _apply(m: np.ndarray, p: Point) -> Point:
    x, y, w = m @ np.array([p[0], p[1], 1.0])
    return (float(x / w), float(y / w))


def _apply_many(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), m).reshape(-1, 2)


def _ids_text(ids: Iterable[int]) -> str:
    """[0, 1, 2, 3, 7] → '0-3, 7'."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r))
                     for r in runs) or "none"


def _no_markers(layouts: Sequence[Layout], frame_size: tuple[int, int]) -> CalibrationError:
    names = " or ".join(f"{la.name} {la.kind}" for la in layouts)
    ids = _ids_text({m.id for la in layouts for m in la.markers})
    return CalibrationError(
        f"no markers of the {names} ({layouts[0].dictionary} ids {ids}) in the "
        f"{frame_size[0]}×{frame_size[1]} frame: is it in view, flat, lit and in focus? "
        "Until it is calibrated the reader reads frames as they are, without zones",
        "no_markers")


def calibrate_frame(frame: np.ndarray, layout: Layout, px_per_mm: float = 4.0,
                    source: str = "", markers: dict[int, np.ndarray] | None = None
                    ) -> Calibration:
    """Find the layout's markers and fit frame → mm; CalibrationError says what is wrong.

    `markers`: the frame's markers already detected (any ids, the layout's dictionary)."""
    h, w = frame.shape[:2]
    wanted = layout.marker_by_id.keys()
    seen = detect_markers(frame, wanted, layout.dictionary) if markers is None else {
        i: q for i, q in markers.items() if i in wanted}
    what = f"the {layout.name} {layout.kind} ({layout.dictionary} ids {_ids_text(wanted)})"
    if not seen:
        raise _no_markers([layout], (w, h))
    if len(seen) < layout.min_markers:
        missing = _ids_text(set(wanted) - set(seen))
        raise CalibrationError(
            f"only {len(seen)} of {len(wanted)} markers of {what} visible (seen "
            f"{_ids_text(seen)}, missing {missing}); need {layout.min_markers}: uncover them",
            "too_few")
    ids = sorted(seen)
    img = np.concatenate([seen[i] for i in ids]).astype(np.float64)
    mm = corners_array(layout, ids).astype(np.float64)
    diag = math.hypot(*layout.size_mm)
    m, inliers = cv2.findHomography(img, mm, cv2.RANSAC, max(3.0, 0.01 * diag))
    if m is None:
        raise CalibrationError(f"markers of {what} found ({_ids_text(ids)}) but no consistent "
                               "view could be fitted: is the mat flat?")
    keep = inliers.ravel().astype(bool)
    m, _ = cv2.findHomography(img[keep], mm[keep], 0)  # least squares on the inliers
    err = np.linalg.norm(_apply_many(m, img[keep]) - mm[keep], axis=1)
    rms, worst = float(np.sqrt(np.mean(err**2))), float(err.max())
    if rms > max_rms_mm(layout):
        raise CalibrationError(f"markers of {what} do not fit its geometry (rms {rms:.1f} mm):"
                               " wrong layout or size, or the mat is not flat")
    _check_orientation(m, layout, (w, h))
    used = sorted({ids[k // 4] for k in np.flatnonzero(keep)})
    return Calibration(layout=layout, px_per_mm=px_per_mm, homography=(m / m[2, 2]).tolist(),
                       frame_size=(w, h), markers_seen=used, rms_mm=round(rms, 3),
                       max_mm=round(worst, 3), created=datetime.now(UTC), source=source)


def _check_orientation(m: np.ndarray, layout: Layout, frame_size: tuple[int, int]) -> None:
    """A mirror image (a photo of a screen, a flipped webcam) would give zones swapped."""
    inv = np.linalg.inv(m)
    w, h = layout.size_mm
    quad = _apply_many(inv, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    area = 0.5 * sum(quad[i, 0] * quad[(i + 1) % 4, 1] - quad[(i + 1) % 4, 0] * quad[i, 1]
                     for i in range(4))
    if area <= 0:
        raise CalibrationError("the mat appears mirrored: turn off the camera's mirror/flip",
                               "mirrored")


def best_calibration(frame: np.ndarray, layouts: Sequence[Layout], px_per_mm: float = 4.0,
                     source: str = "", markers: dict[int, np.ndarray] | None = None
                     ) -> Calibration:
    """Try each layout (e.g. A4 and A3, which share marker ids) and keep the best fit."""
    results: list[Calibration] = []
    errors: list[CalibrationError] = []
    for layout in layouts:
        try:
            results.append(calibrate_frame(frame, layout, px_per_mm, source, markers))
        except CalibrationError as exc:
            errors.append(exc)
    if not results:
        if all(e.kind == "no_markers" for e in errors):
            raise _no_markers(layouts, (frame.shape[1], frame.shape[0]))
        raise min(errors, key=lambda e: e.kind == "no_markers")  # the most telling one
    return min(results, key=lambda c: (-len(c.markers_seen), c.rms_mm))


def mat_in_view(frame: np.ndarray, markers: dict[int, np.ndarray] | None = None
                ) -> Calibration | None:
    """The scan mat (A4 or A3) fitted afresh to this frame, when three of its markers show:
    a photo of the mat, or an uncalibrated camera over it, still has its zones.
    `markers`: the frame's markers (`detect_markers`), when already found."""
    from scorekeeper.calibration.layout import MAT_MARKER_IDS, mat_layout

    markers = detect_markers(frame) if markers is None else markers
    if len(set(markers) & set(MAT_MARKER_IDS)) < 3:
        return None
    try:
        return best_calibration(frame, [mat_layout("A4"), mat_layout("A3")], source="in view",
                                markers=markers)
    except CalibrationError:
        return None


class HasBox(Protocol):
    @property
    def box(self) -> tuple[float, float, float, float]: ...


C = TypeVar("C", bound=HasBox)


def group_by_zone(cards: Iterable[C], calibration: Calibration | None,
                  frame_size: tuple[int, int] | None = None) -> dict[ZoneKey | None, list[C]]:
    """Cards by the zone their box centre lies in; everything under None if uncalibrated."""
    out: dict[ZoneKey | None, list[C]] = {}
    for card in cards:
        x0, y0, x1, y1 = card.box
        key = (calibration.zone_of(((x0 + x1) / 2, (y0 + y1) / 2), frame_size)
               if calibration else None)
        out.setdefault(key, []).append(card)
    return out


def describe(cal: Calibration) -> dict[str, Any]:
    """A short summary for logs and the CLI."""
    w, h = cal.output_size
    return {"layout": cal.layout.name, "markers": cal.markers_seen, "rms_mm": cal.rms_mm,
            "max_mm": cal.max_mm, "rectified": f"{w}x{h}", "px_per_mm": cal.px_per_mm}
