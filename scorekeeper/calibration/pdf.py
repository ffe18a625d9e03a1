"""A minimal vector PDF writer for the printable mats: no dependency, a few kB a page.

Only what the mats use: filled polygons, lines and standard-14 Helvetica text. Drawing is
in millimetres with y down (one `cm` maps it to PDF points), matching `drawing.Page`.
"""

from __future__ import annotations

import zlib

from scorekeeper.calibration.drawing import HELVETICA_CAP, MM_PER_INCH, Fill, Page, Stroke
from scorekeeper.calibration.layout import Point

PT_PER_MM = 72.0 / MM_PER_INCH


def _num(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") or "0"


def _escape(text: str) -> str:
    ascii_text = text.encode("ascii", "replace").decode("ascii")
    return ascii_text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _path(points: list[Point]) -> str:
    return " ".join(f"{_num(x)} {_num(y)} {'m' if i == 0 else 'l'}"
                    for i, (x, y) in enumerate(points))


def _content(page: Page) -> bytes:
    h_pt = page.size_mm[1] * PT_PER_MM
    ops = [f"{_num(PT_PER_MM)} 0 0 {_num(-PT_PER_MM)} 0 {_num(h_pt)} cm", "1 J 1 j"]
    for shape in page.shapes:
        if isinstance(shape, Fill):
            paths = " ".join(_path(poly) + " h" for poly in (shape.poly, *shape.holes))
            ops.append(f"{_num(shape.gray)} g {paths} {'f*' if shape.holes else 'f'}")
        elif isinstance(shape, Stroke):
            close = " h" if shape.closed else ""
            ops.append(f"{_num(shape.gray)} G {_num(shape.width_mm)} w "
                       f"{_path(shape.points)}{close} S")
        else:
            size = shape.cap_mm / HELVETICA_CAP
            font = "/F2" if shape.bold else "/F1"
            ops.append(f"BT {_num(shape.gray)} g {font} {_num(size)} Tf "
                       f"1 0 0 -1 {_num(shape.x)} {_num(shape.y)} Tm ({_escape(shape.text)}) Tj ET")
    return "\n".join(ops).encode("ascii")


def pdf_bytes(pages: list[Page], title: str = "scorekeeper") -> bytes:
    """One PDF, one page per `Page`, each page its own size."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree exists
    pages_obj = add(b"")
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
             b"/Encoding /WinAnsiEncoding >>")
    f2 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
             b"/Encoding /WinAnsiEncoding >>")
    info = add(f"<< /Title ({_escape(title)}) /Producer (scorekeeper) >>".encode("ascii"))
    kids = []
    for page in pages:
        data = zlib.compress(_content(page), 9)
        stream = add(f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode()
                     + data + b"\nendstream")
        w, h = (v * PT_PER_MM for v in page.size_mm)
        kids.append(add(
            f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_num(w)} {_num(h)}] "
            f"/Resources << /Font << /F1 {f1} 0 R /F2 {f2} 0 R >> >> "
            f"/Contents {stream} 0 R >>".encode()))
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode()
    refs = " ".join(f"{k} 0 R" for k in kids)
    objects[pages_obj - 1] = f"<< /Type /Pages /Kids [{refs}] /Count {len(kids)} >>".encode()

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)
