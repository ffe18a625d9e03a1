"""Where each "a card here I cannot read" mark (`ReadResult.unread`) lands on the labels:
on a card the review must fix (missed, or read as another: the mark points at the error),
on a card read right (a false mark: the players are asked for a card they have), or
elsewhere (no labelled card there, or one no figure asks for).

A mark sits on the labelled card whose whole-card box it overlaps most (from `ON_IOU`);
failing that, on a card to fix whose box lies mostly inside it (a covered card labelled by
its visible corner only, as some real photos are). A mark on a corner (`kind` "index") sits
on the labelled index it overlaps most, failing that in the smallest labelled box that holds
most of it (photos labelled by whole cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.vision.pairing import box_iou
from scorekeeper.vision.unread import share_inside

ON_IOU = 0.3
MARK_PLACES = ("missed", "read", "elsewhere")

# a labelled card's box, and whether the review must fix it (None: no figure asks for it)
Labelled = tuple[Sequence[float], bool | None]


PLACE = {True: "missed", False: "read", None: "elsewhere"}


def mark_place(box: Sequence[float], labelled: Sequence[Labelled], kind: str = "card") -> str:
    """Where one mark lands (`MARK_PLACES`)."""
    best = max(labelled, key=lambda lab: box_iou(box, lab[0]), default=None)
    if best is not None and box_iou(box, best[0]) >= ON_IOU:
        return PLACE[best[1]]
    if kind == "index":
        holding = [lab for lab in labelled if share_inside(box, lab[0]) >= 0.5]
        if holding:
            return PLACE[min(holding, key=lambda lab: _area(lab[0]))[1]]
        return "elsewhere"
    if any(fix and share_inside(b, box) >= 0.5 for b, fix in labelled):
        return "missed"
    return "elsewhere"


def _area(box: Sequence[float]) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def mark_places(marks: Iterable[Any], labelled: Sequence[Labelled]) -> list[str]:
    """Each mark's place (`mark_place`); `marks` have a `box` and may have a `kind`
    (`unread.Unread`)."""
    return [mark_place(m.box, labelled, getattr(m, "kind", "card")) for m in marks]


def card_bodies(objects: Sequence[dict[str, Any]], fix: Mapping[int, bool | None]
                ) -> list[Labelled]:
    """A rendered scene's whole-card and index labels (`kind` "card", "index"), each with
    `fix`'s word on its card (by card id; a card not in `fix` is asked for by no figure)."""
    return [(o["box"], fix.get(o["card_id"])) for o in objects
            if o.get("kind") in ("card", "index") and o.get("card_id") is not None]
