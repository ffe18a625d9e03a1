"""The printable scan mat and table-marker sheets: PNG + PDF + the geometry JSON.

The JSON written next to each mat is the same `Layout` the calibrator uses, so what is
printed and what is measured cannot drift apart.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.calibration.drawing import (
    Fill,
    Page,
    Stroke,
    Text,
    dashed,
    marker_shapes,
    png_bytes,
    render,
    text_width_mm,
)
from scorekeeper.calibration.layout import Layout, MatSize, Point, mat_bands, mat_layout
from scorekeeper.calibration.pdf import pdf_bytes

ZONE_LABELS = {
    "melds": ("MELDS", "lay each meld in its own row, corner indices visible"),
    "hand": ("CARDS LEFT IN HAND", "spread them so every corner index shows"),
}
SCALE_BAR_MM = 100


def layout_shapes(layout: Layout) -> list[Fill]:
    return [f for m in layout.markers
            for f in marker_shapes(m.id, m.center_mm, m.size_mm, m.rotation_deg)]


def mat_page(size: MatSize) -> Page:
    """Markers, zones with labels, title, and a 100 mm scale bar to check the print scale."""
    layout = mat_layout(size)
    k = 1.0 if size == "A4" else 1.3  # text grows with the sheet
    page = Page(layout.size_mm)
    page.add(*layout_shapes(layout))
    for zone in layout.zones:
        page.add(*dashed(zone.polygon_mm, True, 4.0, 0.5, gray=0.35))
        title, hint = ZONE_LABELS.get(zone.name, (zone.name.upper(), ""))
        x0, y0 = zone.polygon_mm[0]
        page.add(Text(x0 + 4, y0 + 4 + 5 * k, title, 5 * k, bold=True, gray=0.3),
                 Text(x0 + 4, y0 + 8 + 8 * k, hint, 2.5 * k, gray=0.4))
    bands = mat_bands(size)
    tx, ty = bands["title"][0]
    page.add(Text(tx, ty + 3 + 6 * k, f"SCOREKEEPER SCAN MAT {size}", 6 * k, bold=True),
             Text(tx, ty + 6 + 10 * k, "Print at 100 % (actual size). "
                  "Keep the four corner markers uncovered.", 2.6 * k),
             Text(tx, ty + 9 + 13.5 * k, "ArUco DICT_4X4_50, ids 0-3 clockwise from "
                  "top left; geometry in mat-" + size + ".json", 2.2 * k, gray=0.3))
    page.add(*scale_bar(bands["scale"][0], k))
    return page


OUTLINE_MM = 2.5  # a point this close to a zone's dashed outline lies on its print
TEXT_PAD_MM = 2.0


@functools.cache
def printed_text_mm(size: MatSize) -> tuple[tuple[float, float, float, float], ...]:
    """Boxes (x0, y0, x1, y1, mm) around every line of text printed on the mat, the zone
    titles inside the zones among them."""
    pad = TEXT_PAD_MM
    return tuple((s.x - pad, s.y - s.cap_mm - pad,
                  s.x + text_width_mm(s.text, s.cap_mm) + pad, s.y + 0.3 * s.cap_mm + pad)
                 for s in mat_page(size).shapes if isinstance(s, Text))


def on_print(layout: Layout, point_mm: Point) -> bool:
    """Whether a point of the layout lies on its own print: a line of a mat's text or a
    zone's dashed outline, where a reading is the print's, not a card's (a card lying over
    a title hides the title)."""
    x, y = point_mm
    text = printed_text_mm(layout.name) if layout.kind == "mat" and layout.name in ("A4", "A3") \
        else ()
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in text) or any(
        abs(cv2.pointPolygonTest(np.array(z.polygon_mm, np.float32).reshape(-1, 1, 2), (x, y),
                                 True)) < OUTLINE_MM for z in layout.zones)


def scale_bar(origin: Point, k: float) -> list[Fill | Stroke | Text]:
    """0-100 mm ruler: 1 mm ticks, 10 mm labels; if it prints short, the print was scaled."""
    x0, y0 = origin[0], origin[1] + 6 * k
    y_bar = y0 + 6
    out: list[Fill | Stroke | Text] = [Stroke([(x0, y_bar), (x0 + SCALE_BAR_MM, y_bar)], 0.4)]
    for mm in range(SCALE_BAR_MM + 1):
        tall = 4.0 if mm % 10 == 0 else 2.5 if mm % 5 == 0 else 1.5
        out.append(Stroke([(x0 + mm, y_bar), (x0 + mm, y_bar - tall)], 0.15))
        if mm % 10 == 0:
            label = str(mm)
            out.append(Text(x0 + mm - text_width_mm(label, 2.0) / 2, y_bar - 5, label, 2.0))
    out.append(Text(x0 + SCALE_BAR_MM + 4, y_bar, "mm", 2.5))
    out.append(Text(x0, y_bar + 5 + 3 * k, "This ruler must measure exactly 100 mm.", 2.5 * k))
    return out


def write_mat(size: MatSize, out_dir: Path, dpi: float = 300) -> list[Path]:
    """mat-A4.pdf / .png / .json in `out_dir`; returns the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    page = mat_page(size)
    stem = out_dir / f"mat-{size}"
    paths = [stem.with_suffix(".pdf"), stem.with_suffix(".png"), stem.with_suffix(".json")]
    paths[0].write_bytes(pdf_bytes([page], title=f"scorekeeper scan mat {size}"))
    paths[1].write_bytes(png_bytes(render(page, dpi), dpi))
    paths[2].write_text(mat_layout(size).to_json(), encoding="utf-8")
    return paths


# --- markers for table mode ----------------------------------------------------------------

A4_PORTRAIT: Point = (210.0, 297.0)


def marker_sheets(layout: Layout, sheet: Point = A4_PORTRAIT) -> list[Page]:
    """Each marker of a table layout, at its true size, labelled with where it goes."""
    margin, label_h, gap = 12.0, 9.0, 3.0
    pages: list[Page] = []
    page = Page(sheet)
    x, y, row_h = margin, margin, 0.0
    for m in sorted(layout.markers, key=lambda m: m.id):
        quiet = m.size_mm / 6  # one cell of white around the marker
        cw, ch = m.size_mm + 2 * quiet, m.size_mm + 2 * quiet + label_h
        if x + cw > sheet[0] - margin:
            x, y, row_h = margin, y + row_h, 0.0
        if y + ch > sheet[1] - margin:
            pages.append(page)
            page, x, y, row_h = Page(sheet), margin, margin, 0.0
        center = (x + cw / 2, y + quiet + m.size_mm / 2)
        page.add(*marker_shapes(m.id, center, m.size_mm))
        page.add(*dashed([(x, y), (x + cw, y), (x + cw, y + ch), (x, y + ch)], True, 2, 0.2,
                         gray=0.6))
        cx, cy = m.center_mm
        page.add(Text(x + 2, y + ch - 5.5, f"id {m.id}  ({m.size_mm:g} mm)", 2.6, bold=True),
                 Text(x + 2, y + ch - 1.5, f"centre at x={cx:g}, y={cy:g} mm", 2.1))
        x += cw + gap
        row_h = max(row_h, ch + gap)
    pages.append(page)
    return pages


def write_marker_sheets(layout: Layout, out_dir: Path, dpi: float = 300) -> list[Path]:
    """<layout>-markers.pdf (all pages) and one PNG a page."""
    out_dir.mkdir(parents=True, exist_ok=True)
    pages = marker_sheets(layout)
    pdf = out_dir / f"{layout.name}-markers.pdf"
    pdf.write_bytes(pdf_bytes(pages, title=f"{layout.name} markers"))
    paths = [pdf]
    for i, page in enumerate(pages, start=1):
        png = out_dir / f"{layout.name}-markers-{i}.png"
        png.write_bytes(png_bytes(render(page, dpi), dpi))
        paths.append(png)
    return paths
