"""`scorekeeper deck add NAME --labels FILE.jsonl`: labelled photos of a deck → its examples.

One JSON object a line: `{"image": "PATH", "cards": [{"card": "QD", "box": [x1, y1, x2, y2]}]}`,
PATH relative to the file's folder, `box` in image pixels: the whole card, or for a covered
card its visible corner index. The whole file is checked before anything is stored, so a
bad line (named) leaves the deck as it was.

Optionally `"unboxed": ["7H"]`: cards the photo shows whose place nobody marked, as a
confirmed scan has them (a card the players added by hand). They give no crop; the install
check counts them on the photo, so a model that finds one is not charged a false card.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.decks.examples import Box, Example, negatives
from scorekeeper.decks.profile import DeckError
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RulesError
from scorekeeper.vision.classes import CARD, INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import box_iou, point_in_box

CARD_SHARE = 0.25  # an index found inside a box this much smaller: the box is a whole card
CORNER_SHARE = 0.3  # a card's own index lies within this share of its diagonal of a corner


@dataclass
class LabelledPhoto:
    line: int
    path: Path
    cards: list[tuple[str, Box]]
    unboxed: list[str] = field(default_factory=list)  # shown, but where is not known


def _card(value: object, where: str) -> str:
    try:
        return str(parse_card(value))
    except RulesError as exc:
        raise DeckError(f"{where}: {exc}") from None


def _box(value: object, size: tuple[int, int], where: str) -> Box:
    if not (isinstance(value, list) and len(value) == 4
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise DeckError(f"{where}: box must be [x1, y1, x2, y2] in pixels, got {value!r}")
    x1, y1, x2, y2 = (float(v) for v in value)
    w, h = size
    if not (0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h):
        raise DeckError(f"{where}: box {value} is outside the {w}×{h} image "
                        "(or not x1 < x2, y1 < y2)")
    return (x1, y1, x2, y2)


def read_labels(path: Path) -> list[LabelledPhoto]:
    """Every line checked (JSON, image readable, card known, box inside the image);
    DeckError names the first bad line."""
    from scorekeeper.vision.reader import VisionError, load_image

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"cannot read {path}: {exc}") from None
    photos = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        where = f"{path.name} line {number}"
        try:
            obj: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DeckError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("image"), str) \
                or not isinstance(obj.get("cards"), list):
            raise DeckError(f'{where}: expected {{"image": "PATH", "cards": [...]}}')
        image_path = path.parent / obj["image"]
        try:
            image = load_image(image_path)
        except VisionError as exc:
            raise DeckError(f"{where}: {exc}") from None
        size = (image.shape[1], image.shape[0])
        cards = []
        for k, item in enumerate(obj["cards"], start=1):
            at = f"{where}, card {k}"
            if not isinstance(item, dict):
                raise DeckError(f'{at}: expected {{"card": "QD", "box": [x1, y1, x2, y2]}}')
            cards.append((_card(item.get("card"), at), _box(item.get("box"), size, at)))
        unboxed = obj.get("unboxed", [])
        if not isinstance(unboxed, list):
            raise DeckError(f'{where}: "unboxed" must be a list of cards, got {unboxed!r}')
        photos.append(LabelledPhoto(number, image_path, cards, [
            _card(c, f"{where}, unboxed card {k}") for k, c in enumerate(unboxed, start=1)]))
    if not photos:
        raise DeckError(f"{path}: no labelled photos in it")
    return photos


def _area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def corner_windows(box: Box) -> list[Box]:
    """Where an upright (or quarter-turned) card's two indices are: no detector needed."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    if h >= w:  # portrait: top-left and bottom-right
        a = (x1 + 0.01 * w, y1 + 0.01 * h, x1 + 0.2 * w, y1 + 0.27 * h)
        return [a, (x2 - (a[2] - x1), y2 - (a[3] - y1), x2 - (a[0] - x1), y2 - (a[1] - y1))]
    a = (x2 - 0.27 * w, y1 + 0.01 * h, x2 - 0.01 * w, y1 + 0.2 * h)  # turned: TR and BL
    return [a, (x1 + (x2 - a[2]), y2 - (a[3] - y1), x1 + (x2 - a[0]), y2 - (a[1] - y1))]


def index_boxes(box: Box, dets: list[Detection]) -> list[Box]:
    """The corner indices a labelled box stands for: itself when it is an index, else the
    detector's indices near the corners of the whole card it boxes (at most two), else the
    card's corner windows."""
    indices = [d for d in dets if d.cls == INDEX and point_in_box(d.centre, box)]
    small = [d for d in indices if _area(d.box) <= CARD_SHARE * _area(box)]
    whole = bool(small) or any(d.cls == CARD and box_iou(d.box, box) >= 0.5 for d in dets)
    if not whole:
        return [box]
    diag = float(np.hypot(box[2] - box[0], box[3] - box[1]))
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]

    def to_corner(d: Detection) -> float:
        return min(float(np.hypot(d.centre[0] - x, d.centre[1] - y)) for x, y in corners)

    near = sorted((d for d in small if to_corner(d) <= CORNER_SHARE * diag), key=to_corner)
    return [d.box for d in near[:2]] or corner_windows(box)


def photo_examples(image: np.ndarray, photo: LabelledPhoto, dets: list[Detection],
                   rng: random.Random) -> list[Example]:
    """The photo's index examples, and as many `none` examples from clear of every card."""
    out: list[Example] = []
    for k, (card, box) in enumerate(photo.cards):
        group = f"{photo.path.name}:{photo.line}:{k}"
        out += [Example(card, b, group) for b in index_boxes(box, dets)]
    avoid = [b for _, b in photo.cards] + [d.box for d in dets]
    sizes = [max(e.box[2] - e.box[0], e.box[3] - e.box[1]) for e in out]
    out += [Example("none", b, f"{photo.path.name}:{photo.line}:none")
            for b in negatives(image, avoid, sizes, len(out), rng)]
    return out
