"""A page as a list of simple shapes in millimetres, drawn to pixels or to PDF.

The mats must print at exactly the size the calibration JSON claims, so both outputs are
drawn from the same shape list: the PNG for screens and quick prints, the PDF (vector, so
markers stay sharp at any printer resolution) for the real thing.
"""

from __future__ import annotations

import itertools
import math
import struct
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

from scorekeeper.calibration.layout import Point

MM_PER_INCH = 25.4
HELVETICA_CAP = 0.718  # cap height / em, so text sized by cap height matches in both outputs


@dataclass(frozen=True)
class Fill:
    poly: list[Point]
    gray: float = 0.0  # 0 black … 1 white
    holes: tuple[list[Point], ...] = ()  # even-odd: one path, so no hairline seams in PDFs


@dataclass(frozen=True)
class Stroke:
    points: list[Point]
    width_mm: float = 0.3
    closed: bool = False
    gray: float = 0.0


@dataclass(frozen=True)
class Text:
    x: float  # left end of the baseline
    y: float
    text: str  # ASCII only: the PDF uses the standard Helvetica without embedding
    cap_mm: float = 3.0
    bold: bool = False
    gray: float = 0.0


Shape = Fill | Stroke | Text


@dataclass
class Page:
    size_mm: Point
    shapes: list[Shape] = field(default_factory=list)

    def add(self, *shapes: Shape) -> None:
        self.shapes.extend(shapes)


def dashed(points: list[Point], closed: bool, dash_mm: float, width_mm: float,
           gray: float = 0.0) -> list[Stroke]:
    """A dashed outline as solid pieces, so neither backend needs its own dash support."""
    pts = [*points, points[0]] if closed else list(points)
    out: list[Stroke] = []
    for a, b in itertools.pairwise(pts):
        length = math.dist(a, b)
        steps = max(1, round(length / (2 * dash_mm)))
        step = length / steps
        for k in range(steps):
            t0, t1 = k * step / length, (k * step + step / 2) / length
            out.append(Stroke([_lerp(a, b, t0), _lerp(a, b, t1)], width_mm, gray=gray))
    return out


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def marker_shapes(marker_id: int, center: Point, side_mm: float, rotation_deg: float = 0.0,
                  dictionary: int = cv2.aruco.DICT_4X4_50) -> list[Fill]:
    """The marker as one black square with its white cells as holes, border included."""
    d = cv2.aruco.getPredefinedDictionary(dictionary)
    bits = d.markerSize + 2
    cells = cv2.aruco.generateImageMarker(d, marker_id, bits, borderBits=1)
    cell = side_mm / bits
    a = math.radians(rotation_deg)
    cos, sin = math.cos(a), math.sin(a)

    def place(u: float, v: float) -> Point:
        dx, dy = u * cell - side_mm / 2, v * cell - side_mm / 2
        return (center[0] + dx * cos - dy * sin, center[1] + dx * sin + dy * cos)

    def square(u0: float, v0: float, u1: float, v1: float) -> list[Point]:
        return [place(u0, v0), place(u1, v0), place(u1, v1), place(u0, v1)]

    holes = tuple(square(col, row, col + 1, row + 1)
                  for row in range(bits) for col in range(bits) if cells[row, col])
    return [Fill(square(0, 0, bits, bits), 0.0, holes)]


def text_width_mm(text: str, cap_mm: float) -> float:
    """Rough Helvetica width (0.56 em a character): enough to keep labels apart."""
    return len(text) * 0.56 * cap_mm / HELVETICA_CAP


# --- pixels -------------------------------------------------------------------------------

def render(page: Page, dpi: float) -> np.ndarray:
    """Grayscale uint8 image; pixel i covers [i, i+1)/scale mm, so sizes are exact."""
    s = dpi / MM_PER_INCH
    w, h = round(page.size_mm[0] * s), round(page.size_mm[1] * s)
    img = np.full((h, w), 255, np.uint8)
    shift = 4

    def px(p: Point) -> list[int]:
        return [round((p[0] * s - 0.5) * 16), round((p[1] * s - 0.5) * 16)]

    for shape in page.shapes:
        if isinstance(shape, Fill):
            pts = np.array([px(p) for p in shape.poly], np.int32)
            cv2.fillPoly(img, [pts], _gray(shape.gray), cv2.LINE_8, shift)
            holes = [np.array([px(p) for p in hole], np.int32) for hole in shape.holes]
            if holes:
                cv2.fillPoly(img, holes, 255, cv2.LINE_8, shift)
        elif isinstance(shape, Stroke):
            pts = np.array([px(p) for p in shape.points], np.int32)
            thick = max(1, round(shape.width_mm * s))
            cv2.polylines(img, [pts], shape.closed, _gray(shape.gray), thick, cv2.LINE_AA,
                          shift)
        else:
            _put_text(img, shape, s)
    return img


def _gray(g: float) -> int:
    return round(255 * min(1.0, max(0.0, g)))


def _put_text(img: np.ndarray, t: Text, s: float) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX if t.bold else cv2.FONT_HERSHEY_SIMPLEX
    cap_px = t.cap_mm * s
    (_, unit_h), _ = cv2.getTextSize("H", font, 1.0, 1)
    scale = cap_px / unit_h
    thick = max(1, round(cap_px / (7 if t.bold else 10)))
    cv2.putText(img, t.text, (round(t.x * s), round(t.y * s)), font, scale, _gray(t.gray),
                thick, cv2.LINE_AA)


def png_bytes(img: np.ndarray, dpi: float) -> bytes:
    """PNG with a pHYs chunk, so image viewers print it at its true size."""
    ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise RuntimeError("PNG encoding failed")
    data = buf.tobytes()
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, crc
    return data[:ihdr_end] + chunk + data[ihdr_end:]
