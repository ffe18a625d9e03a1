"""Enrolling a deck from the phone: `deck enrol`'s photos taken one at a time, each read as
it comes (the same `read_photo` and its checks), kept in a draft until the deck is saved.

    <data dir>/enrol/NAME/photo-K.json       photo K's reading: its slips, each place's
                                             state, the examples to store, its files' names
    <data dir>/enrol/NAME/photo-K-ID.EXT     the photo as taken (the upload's own bytes, or
                                             the table camera's frame as JPEG)
    <data dir>/enrol/NAME/marked-K-ID.jpg    the photo with each place marked, for the page

A photo taken again replaces its page: the new files are written under a new ID first and
the reading (which names them) replaces the old one atomically, so a crash leaves the old
page or the new, never a reading of one photo beside another. Saving stores every page's
examples as `scorekeeper deck enrol NAME PHOTO...` would, then drops the draft; until then
the deck is untouched.
"""

from __future__ import annotations

import json
import random
import shutil
import threading
import uuid
from pathlib import Path
from typing import Any

from scorekeeper.decks.enrol import CARD_MM, MAX_PHOTOS, ROW_MM, STEP_MM, sheet_of, slots
from scorekeeper.decks.profile import MANIFEST, check_name, decks_root
from scorekeeper.files import write_atomic

DRAFTS = "enrol"
MARKED_SIDE = 1280  # the marked photo's longer side: enough to see each place on a phone
JPEG_QUALITY = 95
# BGR colours of the marks by place state: read, nothing there, a slip
COLOURS = {"read": (60, 160, 40), "missing": (40, 40, 220), "absent": (150, 150, 150)}
SLIP_COLOUR = (0, 140, 255)

_lock = threading.Lock()  # one writer of drafts at a time in this server
_reading = threading.Lock()  # one photo read at a time: the games' scans keep their CPU


class EnrolRefused(Exception):
    """Why a draft cannot be saved or shown: `status` 404 (no such draft or photo) or 409."""

    def __init__(self, status: int, detail: str, code: str, **params: object) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail
        self.code, self.params = code, params  # the API's refusal code and its params


def draft_dir(data_dir: Path, name: str) -> Path:
    return Path(data_dir) / DRAFTS / check_name(name)


def drafts(data_dir: Path) -> list[str]:
    """The decks with an enrolment under way."""
    root = Path(data_dir) / DRAFTS
    if not root.is_dir():
        return []
    return sorted({p.parent.name for p in root.glob("*/photo-*.json")})


def layout(mat: str = "A4") -> dict[str, Any]:
    """The prescribed layout as the page draws it: each sheet's two rows of cards, which
    photos show it, and the geometry of the overlap (as `deck layout` prints and draws)."""
    sheets = []
    for sheet in (1, 2):
        places = slots(sheet, mat)
        sheets.append({"sheet": sheet,
                       "photos": [n for n in range(1, MAX_PHOTOS + 1) if sheet_of(n) == sheet],
                       "rows": [[s.card for s in places if s.row == row] for row in (0, 1)]})
    return {"mat": mat, "card_mm": list(CARD_MM), "step_mm": STEP_MM, "row_mm": ROW_MM,
            "photos": MAX_PHOTOS, "sheets": sheets}


# ---- one photo ------------------------------------------------------------------------

def mark(frame: Any, reading: Any) -> bytes:
    """The photo, scaled down, with each place's index boxed in its state's colour."""
    import cv2

    scale = min(1.0, MARKED_SIDE / max(frame.shape[:2]))
    view = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    places = slots(reading.sheet, reading.mat or "A4")
    line = max(2, round(max(view.shape[:2]) / 400))
    for k, box in reading.boxes.items():
        state = reading.places.get(k, "missing")
        colour = COLOURS.get(state, SLIP_COLOUR)
        x1, y1, x2, y2 = (round(v * scale) for v in box)
        cv2.rectangle(view, (x1, y1), (x2, y2), colour, line)
        if state not in ("read", "absent"):  # a slip's place is named, big enough for a phone
            cv2.putText(view, places[k].card, (x1, max(20, y1 - 2 * line)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.5 * line, (255, 255, 255), 3 * line,
                        cv2.LINE_AA)
            cv2.putText(view, places[k].card, (x1, max(20, y1 - 2 * line)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.5 * line, colour, line, cv2.LINE_AA)
    ok, jpeg = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise OSError("the marked photo cannot be encoded")
    return bytes(jpeg.tobytes())


def _record(reading: Any, photo: str, marked: str) -> dict[str, Any]:
    places = slots(reading.sheet, reading.mat or "A4")
    return {"number": reading.number, "sheet": reading.sheet, "ok": not reading.problems,
            "slips": reading.slips, "notes": reading.notes,
            "places": [{"card": s.card, "row": s.row + 1, "place": s.column + 1,
                        "state": reading.places.get(k, "unread")}
                       for k, s in enumerate(places)],
            "examples": [{"card": e.card, "box": list(e.box),
                          "group": e.group} for e in reading.examples],
            "photo": photo, "marked": marked}


def read_page(data_dir: Path, name: str, number: int, frame: Any, reader: Any,
              photo: bytes | None, ext: str) -> dict[str, Any]:
    """Read photo `number` of the layout (`photo`: the bytes to keep, None: encode `frame`)
    and make it that page of the draft; returns the draft, with this photo as `photo`."""
    import cv2

    from scorekeeper.decks.enrol import read_photo

    folder = draft_dir(data_dir, name)
    with _reading:
        reading = read_photo(frame, number, reader, random.Random(f"{name}:{number}"))
    if photo is None:
        ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise OSError("the camera's frame cannot be encoded")
        photo, ext = bytes(jpeg.tobytes()), "jpg"
    marked = mark(frame, reading)
    tag = uuid.uuid4().hex[:12]
    files = (f"photo-{number}-{tag}.{ext}", f"marked-{number}-{tag}.jpg")
    with _lock:
        old = _page(folder, number)
        write_atomic(folder / files[0], photo)
        write_atomic(folder / files[1], marked)
        write_atomic(folder / f"photo-{number}.json",
                     json.dumps(_record(reading, *files)) + "\n")
        for stale in (old or {}).get("photo"), (old or {}).get("marked"):
            if stale and stale not in files:
                (folder / stale).unlink(missing_ok=True)
    view = draft(data_dir, name)
    view["photo"] = next(p for p in view["photos"] if p["number"] == number)
    return view


# ---- the draft --------------------------------------------------------------------------

def _page(folder: Path, number: int) -> dict[str, Any] | None:
    try:
        record = json.loads((folder / f"photo-{number}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _pages(folder: Path) -> dict[int, dict[str, Any]]:
    pages = {k: _page(folder, k) for k in range(1, MAX_PHOTOS + 1)}
    return {k: p for k, p in pages.items() if p is not None}


def photo_view(name: str, record: dict[str, Any]) -> dict[str, Any]:
    """A page as the phone shows it (its examples and file names stay on the server)."""
    n = record["number"]
    tag = str(record.get("marked", "")).rsplit("-", 1)[-1].removesuffix(".jpg")
    return {"number": n, "sheet": record["sheet"], "ok": record["ok"],
            "cards": sum(e["card"] != "none" for e in record["examples"]),
            "slips": record["slips"], "notes": record["notes"], "places": record["places"],
            "image": f"/api/decks/{name}/enrol/photos/{n}.jpg?v={tag}"}


def _why_not(pages: dict[int, dict[str, Any]]) -> str | None:
    """Why the draft cannot be saved yet, or None: photos 1 to n, in the layout's order
    (as `deck enrol` takes them), each read without a slip."""
    if not pages:
        return "no photo yet: take photo 1 of the layout"
    gap = next((k for k in range(1, max(pages) + 1) if k not in pages), None)
    if gap is not None:
        return f"photo {gap} is not taken yet: the photos follow the layout's order"
    bad = [k for k, p in sorted(pages.items()) if not p["ok"]]
    if bad:
        return f"photo {bad[0]} has a slip: take it again"
    return None


def draft(data_dir: Path, name: str) -> dict[str, Any]:
    """The enrolment of deck `name` so far (no photos: none begun)."""
    folder = draft_dir(data_dir, name)
    pages = _pages(folder)
    why = _why_not(pages)
    return {"deck": name, "exists": (decks_root(data_dir) / name / MANIFEST).is_file(),
            "photos": [photo_view(name, p) for _, p in sorted(pages.items())],
            "ready": why is None, "why": why, "max_photos": MAX_PHOTOS, "layout": layout()}


def marked_photo(data_dir: Path, name: str, number: int) -> bytes:
    record = _page(draft_dir(data_dir, name), number)
    try:
        if record is None:
            raise FileNotFoundError
        return (draft_dir(data_dir, name) / str(record["marked"])).read_bytes()
    except OSError:
        raise EnrolRefused(404, f"no photo {number} in the enrolment of {name!r}",
                           "enrol_photo_unknown", number=number) from None


def discard(data_dir: Path, name: str) -> int:
    """Drop the draft; how many photos it held."""
    folder = draft_dir(data_dir, name)
    with _lock:
        count = len(_pages(folder))
        shutil.rmtree(folder, ignore_errors=True)
    return count


def _decode(path: Path) -> Any:
    """The photo as the reading saw it: decoded as the upload was (web/uploads.py)."""
    import cv2
    import numpy as np

    try:
        data = path.read_bytes()
    except OSError:
        return None
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def save(data_dir: Path, name: str, write_lock: Any) -> dict[str, Any]:
    """Store every page's examples in deck `name` (made if new), as `deck enrol` does, and
    drop the draft. Every photo is decoded before anything is stored."""
    from scorekeeper.decks.examples import Example, store
    from scorekeeper.decks.profile import create_or_open

    folder = draft_dir(data_dir, name)
    with _lock:
        pages = _pages(folder)
        if not pages:
            raise EnrolRefused(404, f"no enrolment of {name!r} under way: take photo 1 first",
                               "enrol_none", deck=name)
        why = _why_not(pages)
        if why is not None:
            raise EnrolRefused(409, f"deck {name!r} cannot be saved yet: {why}",
                               "enrol_not_ready", deck=name)
        frames = {k: _decode(folder / str(p["photo"])) for k, p in pages.items()}
        broken = [k for k, f in frames.items() if f is None]
        if broken:
            raise EnrolRefused(409, f"photo {broken[0]} of the draft cannot be read back: "
                                    "take it again", "enrol_photo_broken",
                               number=broken[0])
        with write_lock:
            profile, created = create_or_open(data_dir, name)
            for k, page in sorted(pages.items()):
                examples = [Example(e["card"], tuple(e["box"]), e["group"])
                            for e in page["examples"]]
                store(profile, frames[k], examples, f"enrol:photo-{k}")
            total = len(profile.examples())
        shutil.rmtree(folder, ignore_errors=True)
    cards = sum(e["card"] != "none" for p in pages.values() for e in p["examples"])
    return {"deck": name, "created": created, "photos": len(pages), "cards": cards,
            "examples": total, "summary": profile.summary()}
