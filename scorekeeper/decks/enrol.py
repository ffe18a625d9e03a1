"""`scorekeeper deck enrol NAME PHOTO...`: a deck learned from photos of a prescribed layout.

The deck lies on the scan mat in two overlapping rows of 14 cards (each card covering all
but the left strip of the one before it, the lower row covering all but the top of the
upper one), so every card's top-left index shows and its place says which card it is: the
user types nothing. Photo 1 (and 3, 5) is sheet 1: clubs then diamonds, ace to king and a
joker at the end of each row; photo 2 (and 4) is sheet 2: hearts then spades. Jokers are
optional. The mat's markers give the homography, so the photo may be taken at an angle.

Slips are caught and named: a photo with no mat, a blurred photo, a missing card, a card
out of place (two cards swapped, or one the generic model reads surely as another), and a
card of another design (its index a different size from the rest).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import cv2
import numpy as np

from scorekeeper.decks.examples import Example, negatives
from scorekeeper.decks.profile import DeckError
from scorekeeper.vision.classes import INDEX, JOKER

if TYPE_CHECKING:
    from scorekeeper.calibration.calibration import Calibration
    from scorekeeper.calibration.drawing import Page
    from scorekeeper.vision.reader import CardReader

Box = tuple[float, float, float, float]

CARD_MM = (63.0, 88.0)  # a poker-size card; the layout tolerates bridge size (57 mm)
STEP_MM = 16.0  # between neighbouring cards of a row
ROW_MM = 32.0  # between the two rows' top edges
SLOTS = 14  # ace to king, then a joker
INDEX_AT_MM = (6.0, 13.0)  # a top-left index's centre from the card's corner, about
TOLERANCE_MM = (7.5, 13.0)  # how far an index may lie from where its slot expects it
SHEETS = (("C", "D"), ("H", "S"))
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
MAX_PHOTOS = 5
SHARP_MIN = 80.0  # Laplacian variance of the rectified rows, below: blurred (see docs/decks.md)
SURE = 0.98  # a generic reading this sure of another card: the card is out of place
SIZE_OFF = 0.3  # an index this much larger or smaller than the photo's median: another design


@dataclass(frozen=True)
class Slot:
    card: str
    row: int
    column: int
    origin_mm: tuple[float, float]  # the card's top-left corner on the mat

    @property
    def index_mm(self) -> tuple[float, float]:
        return self.origin_mm[0] + INDEX_AT_MM[0], self.origin_mm[1] + INDEX_AT_MM[1]


def mat_size(mat: str) -> tuple[float, float]:
    from scorekeeper.calibration.layout import mat_layout

    return mat_layout(mat).size_mm  # type: ignore[arg-type]


def slots(sheet: int, mat: str = "A4") -> list[Slot]:
    """Sheet 1 or 2's slots, laid out centred on the mat's card area."""
    from scorekeeper.calibration.layout import mat_layout

    layout = mat_layout(mat)  # type: ignore[arg-type]
    w = layout.size_mm[0]
    zone_top = min(p[1] for z in layout.zones for p in z.polygon_mm)
    zone_bottom = max(p[1] for z in layout.zones for p in z.polygon_mm)
    x0 = (w - (STEP_MM * (SLOTS - 1) + CARD_MM[0])) / 2
    y0 = zone_top + max(0.0, (zone_bottom - zone_top) - (ROW_MM + CARD_MM[1])) / 2
    out = []
    for row, suit in enumerate(SHEETS[sheet - 1]):
        for col in range(SLOTS if sheet == 1 else len(RANKS)):  # jokers: sheet 1
            card = f"{RANKS[col]}{suit}" if col < len(RANKS) else JOKER
            out.append(Slot(card, row, col, (x0 + col * STEP_MM, y0 + row * ROW_MM)))
    return out


def sheet_of(photo_number: int) -> int:
    """Photos 1, 3, 5 show sheet 1; photos 2, 4 sheet 2."""
    return 1 if photo_number % 2 else 2


def describe_layout(mat: str = "A4") -> str:
    lines = [f"Lay the deck on the {mat} scan mat in two rows of up to 14 cards, left to "
             "right, each card on the one before it so only its left strip (with the corner "
             "index) shows; the second row "
             f"{ROW_MM:g} mm lower, over the first, so only the first row's top shows. Keep "
             "the four corner markers uncovered. Photograph the mat from above.", ""]
    for sheet in (1, 2):
        photos = ", ".join(str(n) for n in range(1, MAX_PHOTOS + 1) if sheet_of(n) == sheet)
        lines.append(f"sheet {sheet} (photos {photos}):")
        for row in (0, 1):
            cards = [s.card for s in slots(sheet, mat) if s.row == row]
            lines.append(f"  row {row + 1}: {' '.join(cards)}")
    lines += ["", "Jokers are optional. Photos 3-5 repeat the sheets from another angle or "
              "light: more examples, better learning."]
    return "\n".join(lines)


def sheet_pages(mat: str = "A4") -> list[Page]:
    """The mat with each card's place drawn and named: one page a sheet."""
    from scorekeeper.calibration.drawing import Text, dashed
    from scorekeeper.calibration.layout import rect
    from scorekeeper.calibration.mat import mat_page

    pages = []
    for sheet in (1, 2):
        page = mat_page(mat)  # type: ignore[arg-type]
        for s in slots(sheet, mat):
            x, y = s.origin_mm
            page.add(*dashed(rect(x, y, x + CARD_MM[0], y + CARD_MM[1]), True, 2.0, 0.25,
                             gray=0.55))
            page.add(Text(x + 1.5, y + 5 + 4.5 * (s.column % 2), s.card, 3.2, bold=True))
        page.add(Text(15, mat_size(mat)[1] - 4, f"DECK ENROLMENT SHEET {sheet}: photos "
                      f"{'1, 3, 5' if sheet == 1 else '2, 4'}", 3.5, bold=True))
        pages.append(page)
    return pages


def cmd_layout(mat: str, target: Path | None, out: TextIO) -> int:
    if target is None:
        out.write(describe_layout(mat) + "\n")
        return 0
    from scorekeeper.calibration.drawing import png_bytes, render
    from scorekeeper.calibration.pdf import pdf_bytes

    pages = sheet_pages(mat)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix.lower() == ".png":
        written = []
        for n, page in enumerate(pages, start=1):
            path = target.with_name(f"{target.stem}-{n}.png")
            path.write_bytes(png_bytes(render(page, 150), 150))
            written.append(path)
    else:
        target.write_bytes(pdf_bytes(pages, title="scorekeeper deck enrolment"))
        written = [target]
    out.write("".join(f"{p}\n" for p in written))
    return 0


# ---- reading the photos ---------------------------------------------------------------

@dataclass
class PhotoReading:
    number: int
    sheet: int
    examples: list[Example] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    read: dict[str, str] = field(default_factory=dict)  # slot card → the generic reading
    # the same problems as data, for a page that names them in its own words: kind
    # (no_mat, blurred, missing, swapped, moved, design) and where
    slips: list[dict[str, Any]] = field(default_factory=list)
    # by the place's number in `slots(sheet, mat)` (the two jokers share a card code)
    places: dict[int, str] = field(default_factory=dict)  # → one of PLACE_STATES
    boxes: dict[int, Box] = field(default_factory=dict)  # → its index in the photo
    mat: str | None = None

    def slip(self, kind: str, text: str, **where: Any) -> None:
        self.problems.append(text)
        self.slips.append({"kind": kind, "text": text, **where})


# what a photo's reading says of each place: its card read there, nothing (a card missing,
# or an optional joker left out), or a slip's card
PLACE_STATES = ("read", "missing", "absent", "swapped", "moved", "design")


def sharpness(frame: np.ndarray, cal: Calibration, rows: list[Slot]) -> float:
    """Laplacian variance of the card rows, rectified to 4 px/mm: blur lowers it whatever
    the camera's distance."""
    top = cal.rectify(frame)
    s = cal.px_per_mm
    x0 = min(r.origin_mm[0] for r in rows)
    y0 = min(r.origin_mm[1] for r in rows)
    x1 = max(r.origin_mm[0] for r in rows) + CARD_MM[0]
    y1 = y0 + ROW_MM + 18  # the index strips
    roi = cv2.cvtColor(top[round(y0 * s):round(y1 * s), round(x0 * s):round(x1 * s)],
                       cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(roi, cv2.CV_64F).var()) if roi.size else 0.0


def read_photo(frame: np.ndarray, number: int, reader: CardReader, rng: random.Random
               ) -> PhotoReading:
    """One photo's slots → examples, and every problem found, in words."""
    from scorekeeper.calibration.calibration import CalibrationError, best_calibration
    from scorekeeper.calibration.layout import mat_layout
    from scorekeeper.vision.classifier import crop_index

    sheet = sheet_of(number)
    result = PhotoReading(number, sheet)
    try:
        cal = best_calibration(frame, [mat_layout("A4"), mat_layout("A3")])
    except CalibrationError as exc:
        result.slip("no_mat", f"photo {number}: no scan mat found ({exc})")
        return result
    size = (frame.shape[1], frame.shape[0])
    result.mat = cal.layout.name
    expected = slots(sheet, cal.layout.name)
    sharp = sharpness(frame, cal, expected)
    if sharp < SHARP_MIN:
        result.slip("blurred", f"photo {number} is blurred (sharpness {sharp:.0f}, needs "
                    f"{SHARP_MIN:.0f}): hold the camera still, let it focus, and take it again",
                    sharpness=round(sharp), needs=round(SHARP_MIN))
        return result
    dets, _ = reader.detect(frame)
    indices = [d for d in dets if d.cls == INDEX]
    where = [cal.to_mat_mm(d.centre, size) for d in indices]
    found: dict[int, int] = {}  # slot → detection
    for k, s in enumerate(expected):
        ex, ey = s.index_mm
        near = [(abs(p[0] - ex) / TOLERANCE_MM[0] + abs(p[1] - ey) / TOLERANCE_MM[1], i)
                for i, p in enumerate(where) if abs(p[0] - ex) <= TOLERANCE_MM[0]
                and abs(p[1] - ey) <= TOLERANCE_MM[1] and i not in found.values()]
        if near:
            found[k] = min(near)[1]
    boxes = {k: indices[i].box for k, i in found.items()}
    boxes.update(_unseen(expected, boxes, cal, size))
    result.boxes = dict(boxes)  # the empty places' too, where the found ones put them
    assert reader.classifier is not None
    crops = [crop_index(frame, b) for b in boxes.values()]
    readings = dict(zip(boxes, reader.classifier.classify(crops), strict=True))
    # a place the detector missed holds a card when the generic model sees an index there
    boxes = {k: b for k, b in boxes.items() if k in found or readings[k][0] != "none"}
    readings = {k: readings[k] for k in boxes}
    result.read = {expected[k].card: card for k, (card, _) in readings.items()}
    result.places = dict.fromkeys(boxes, "read")
    _check(result, expected, boxes, readings, cal, size)
    if result.problems:
        return result
    for k, box in boxes.items():
        result.examples.append(Example(expected[k].card, box,
                                       f"enrol:{number}:{expected[k].card}"))
    sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes.values()]
    avoid = [d.box for d in dets]
    for b in negatives(frame, avoid, sizes, len(found), rng):
        result.examples.append(Example("none", b, f"enrol:{number}:none"))
    return result


def _unseen(expected: list[Slot], boxes: dict[int, Box], cal: Calibration,
            size: tuple[int, int]) -> dict[int, Box]:
    """Boxes for the places the detector found nothing in: where the found indices lie
    relative to their places (the median), and their median size in the frame."""
    if len(boxes) < 3:
        return {}
    offsets, sides = [], []
    for k, b in boxes.items():
        x, y = cal.to_mat_mm(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), size)
        offsets.append((x - expected[k].index_mm[0], y - expected[k].index_mm[1]))
        sides.append((b[2] - b[0], b[3] - b[1]))
    dx, dy = np.median(np.array(offsets), axis=0)
    w, h = np.median(np.array(sides), axis=0)
    out: dict[int, Box] = {}
    for k, s in enumerate(expected):
        if k not in boxes:
            cx, cy = cal.to_frame((s.index_mm[0] + dx, s.index_mm[1] + dy))
            out[k] = (float(cx - w / 2), float(cy - h / 2), float(cx + w / 2),
                      float(cy + h / 2))
    return out


def _check(result: PhotoReading, expected: list[Slot], boxes: dict[int, Box],
           readings: dict[int, tuple[str, float]], cal: Calibration, size: tuple[int, int]
           ) -> None:
    n = result.number
    for k, s in enumerate(expected):
        if k in boxes:
            continue
        where = {"card": s.card, "row": s.row + 1, "place": s.column + 1}
        if s.card == JOKER:
            result.notes.append(f"photo {n}: no joker at the end of row {s.row + 1}")
            result.places[k] = "absent"
        else:
            result.places[k] = "missing"
            result.slip("missing", f"photo {n}: {s.card} is missing (row {s.row + 1}, "
                        f"place {s.column + 1})", **where)
    by_card = {expected[k].card: k for k in boxes}
    for k, (card, p) in readings.items():
        want = expected[k].card
        if card == want or card == "none":
            continue
        other = by_card.get(card, -1)
        swapped = other >= 0 and readings[other][0] == want
        row, place = expected[k].row + 1, expected[k].column + 1
        if swapped and k < other:
            result.places[k] = result.places[other] = "swapped"
            result.slip("swapped", f"photo {n}: {want} and {card} are swapped (row {row}, "
                        f"places {place} and {expected[other].column + 1})", card=want,
                        other=card, row=row, place=place, other_place=expected[other].column + 1)
        elif not swapped and p >= SURE:
            result.places[k] = "moved"
            result.slip("moved", f"photo {n}: the card in {want}'s place (row {row}, place "
                        f"{place}) reads {card}: a card out of place?", card=want, reads=card,
                        row=row, place=place)
    # a joker's index (a star, a word) is its own size in every design
    heights = {k: _height_mm(b, cal, size) for k, b in boxes.items()
               if expected[k].card != JOKER}
    if len(heights) >= 5:
        median = float(np.median(list(heights.values())))
        for k, h in heights.items():
            if abs(h / median - 1) > SIZE_OFF:
                s = expected[k]
                result.places[k] = "design"
                result.slip("design", f"photo {n}: {s.card}'s index is {h:.0f} mm tall where "
                            f"the others' are {median:.0f} mm: a card of another deck design?",
                            card=s.card, row=s.row + 1, place=s.column + 1, mm=round(h),
                            others_mm=round(median))


def _height_mm(box: Box, cal: Calibration, size: tuple[int, int]) -> float:
    top = cal.to_mat_mm(((box[0] + box[2]) / 2, box[1]), size)
    bottom = cal.to_mat_mm(((box[0] + box[2]) / 2, box[3]), size)
    return float(np.hypot(top[0] - bottom[0], top[1] - bottom[1]))


def enrol(data_dir: Path, models: Path, name: str, photos: list[Path], out: TextIO) -> int:
    """Read every photo first; store nothing unless all of them are right."""
    from scorekeeper.decks.examples import store
    from scorekeeper.decks.profile import check_name, create_or_open
    from scorekeeper.vision.reader import CardReader, load_image

    check_name(name)
    if not 1 <= len(photos) <= MAX_PHOTOS:
        raise DeckError(f"enrolment takes 1 to {MAX_PHOTOS} photos, got {len(photos)}")
    reader = CardReader(models)
    rng = random.Random(0)
    frames = [load_image(p) for p in photos]
    readings = [read_photo(f, n, reader, rng) for n, f in enumerate(frames, start=1)]
    for r in readings:
        got = sum(e.card != "none" for e in r.examples)
        out.write(f"photo {r.number} (sheet {r.sheet}): {got} cards placed"
                  + (f"; {len(r.problems)} problem(s)" if r.problems else "") + "\n")
        for note in r.notes:
            out.write(f"  note: {note}\n")
    problems = [p for r in readings for p in r.problems]
    if problems:
        raise DeckError("nothing stored:\n  " + "\n  ".join(problems))
    profile, created = create_or_open(data_dir, name)
    for r, frame, path in zip(readings, frames, photos, strict=True):
        store(profile, frame, r.examples, f"enrol:{path.name}")
    out.write(f"{'created' if created else 'added to'} deck {name!r}: {profile.summary()}\n"
              f"next: scorekeeper deck adapt {name}\n")
    return 0


cmd_enrol = enrol
