"""Where the markers and zones are, in millimetres: the single source of truth.

A mat and a whole table are the same thing to the calibrator: a flat surface with ArUco
markers at known places and named zones. Keeping both as one data model means table mode
is only a JSON file, not a second code path. Coordinates: origin at the top-left corner of
the printed sheet (or table), x to the right, y down, like image pixels.
"""

from __future__ import annotations

import json
import math
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

Point = tuple[float, float]
MatSize = Literal["A4", "A3"]
MAT_SIZES: tuple[MatSize, ...] = ("A4", "A3")
DICTIONARY: Literal["DICT_4X4_50"] = "DICT_4X4_50"
MAT_MARKER_IDS = (0, 1, 2, 3)


class MarkerSpec(BaseModel):
    """One printed marker; its corners follow ArUco's order (TL, TR, BR, BL as printed)."""

    model_config = ConfigDict(frozen=True)

    id: int = Field(ge=0, lt=50)
    center_mm: Point
    size_mm: float = Field(gt=0, description="side of the black square, border included")
    rotation_deg: float = Field(default=0.0, description="clockwise, as laid on the surface")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def corners_mm(self) -> list[Point]:
        half = self.size_mm / 2
        a = math.radians(self.rotation_deg)
        cos, sin = math.cos(a), math.sin(a)
        cx, cy = self.center_mm
        return [(round(cx + dx * cos - dy * sin, 4), round(cy + dx * sin + dy * cos, 4))
                for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))]


class Zone(BaseModel):
    """A named polygon; `seat` set in table mode so a zone reads e.g. ("seat 2", "melds")."""

    model_config = ConfigDict(frozen=True)

    name: str
    seat: str | None = None
    polygon_mm: list[Point] = Field(min_length=3)

    @property
    def key(self) -> str | tuple[str, str]:
        return (self.seat, self.name) if self.seat else self.name

    def contains(self, point_mm: Point) -> bool:
        return _point_in_polygon(point_mm, self.polygon_mm)


class Layout(BaseModel):
    """A mat or a table: its size, its markers and its zones, all in millimetres."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: Literal["mat", "table"] = "mat"
    size_mm: Point
    dictionary: Literal["DICT_4X4_50"] = DICTIONARY
    min_markers: int = Field(default=3, ge=1,
                             description="fewer seen than this and calibration refuses")
    markers: list[MarkerSpec] = Field(min_length=1)
    zones: list[Zone] = Field(default_factory=list)
    notes: str = ""

    @model_validator(mode="after")
    def _unique_ids(self) -> Layout:
        ids = [m.id for m in self.markers]
        if len(set(ids)) != len(ids):
            raise ValueError(f"marker ids must be unique, got {ids}")
        if self.min_markers > len(ids):
            raise ValueError(f"min_markers {self.min_markers} > {len(ids)} markers")
        return self

    @cached_property
    def marker_by_id(self) -> dict[int, MarkerSpec]:
        return {m.id: m for m in self.markers}

    def zone_of_mm(self, point_mm: Point) -> str | tuple[str, str] | None:
        """The first zone containing the point: order in the file breaks ties."""
        for zone in self.zones:
            if zone.contains(point_mm):
                return zone.key
        return None

    def to_json(self) -> str:
        return pretty_json(self.model_dump(mode="json"))

    @classmethod
    def load(cls, path: Path) -> Layout:
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))


def pretty_json(obj: object) -> str:
    """Indented JSON, but a point or a list of points stays on one line: readable by hand."""
    return _dump(obj, 0) + "\n"


def _flat(obj: object) -> bool:
    return isinstance(obj, list) and all(
        isinstance(v, int | float) or (isinstance(v, list) and _flat(v)) for v in obj)


def _dump(obj: object, level: int) -> str:
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(obj, dict) and obj:
        items = [f"{inner}{json.dumps(k)}: {_dump(v, level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list) and obj and not _flat(obj):
        return "[\n" + ",\n".join(inner + _dump(v, level + 1) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


def _point_in_polygon(p: Point, poly: list[Point]) -> bool:
    """Even-odd ray casting; boundary points count as inside (cards sit on lines)."""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if _on_segment(p, (x1, y1), (x2, y2)):
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _on_segment(p: Point, a: Point, b: Point, eps: float = 1e-9) -> bool:
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    if abs(cross) > eps * max(1.0, math.dist(a, b)):
        return False
    return (min(a[0], b[0]) - eps <= p[0] <= max(a[0], b[0]) + eps
            and min(a[1], b[1]) - eps <= p[1] <= max(a[1], b[1]) + eps)


# --- the printed scan mats --------------------------------------------------------------

# (width, height) landscape, edge margin a printer can reach, marker side, gap to zones
_MAT_DIMS: dict[MatSize, tuple[Point, float, float, float]] = {
    "A4": ((297.0, 210.0), 10.0, 30.0, 5.0),
    "A3": ((420.0, 297.0), 10.0, 40.0, 6.0),
}


def rect(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def mat_layout(size: MatSize) -> Layout:
    """The scan mat: markers 0-3 clockwise from top-left, melds left, hand right.

    Zones span the full height between the marker rows so a card (88 mm tall) fits upright
    even on A4; the hand gets ~40 % of the width and may be spread in two rows.
    """
    (w, h), margin, side, gap = _MAT_DIMS[size]
    c = margin + side / 2
    centers = [(c, c), (w - c, c), (w - c, h - c), (c, h - c)]
    markers = [MarkerSpec(id=i, center_mm=p, size_mm=side)
               for i, p in zip(MAT_MARKER_IDS, centers, strict=True)]
    top, bottom = margin + side + gap, h - margin - side - gap
    split = margin + (w - 2 * margin) * 0.6
    zones = [Zone(name="melds", polygon_mm=rect(margin, top, split - gap / 2, bottom)),
             Zone(name="hand", polygon_mm=rect(split + gap / 2, top, w - margin, bottom))]
    return Layout(name=size, kind="mat", size_mm=(w, h), min_markers=3, markers=markers,
                  zones=zones, notes="print at 100 % (actual size, no fit-to-page)")


def mat_bands(size: MatSize) -> dict[str, list[Point]]:
    """Where the title and scale bar go: the strips between the markers, above and below."""
    (w, h), margin, side, gap = _MAT_DIMS[size]
    x0, x1 = margin + side + gap, w - margin - side - gap
    return {"title": rect(x0, margin, x1, margin + side),
            "scale": rect(x0, h - margin - side, x1, h - margin)}


def layout_for(name: str) -> Layout:
    """'A4' / 'A3' → the built-in mat; anything else is a path to a layout JSON file."""
    if name.upper() in MAT_SIZES:
        return mat_layout(name.upper())  # type: ignore[arg-type]
    path = Path(name)
    if not path.exists():
        raise FileNotFoundError(f"{name}: not A4, A3 or an existing layout JSON file")
    return Layout.load(path)


def corners_array(layout: Layout, ids: list[int]) -> np.ndarray:
    """(4·n, 2) float32 of the given markers' corners in mm, in detection order."""
    pts = [layout.marker_by_id[i].corners_mm for i in ids]
    return np.asarray(pts, dtype=np.float32).reshape(-1, 2)
