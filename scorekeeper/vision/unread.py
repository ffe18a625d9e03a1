"""Cards seen but not read: whole-card boxes the detector found that no read card explains.

A card whose indices are lost (glare, a busy cloth, a corner under another card) still shows
its body, and the detector boxes it. Unless the review points at it, the hand comes up one
card short with nothing on the photo saying where: a silent miss. Such a box is marked "a
card here I cannot read", and the players are asked for it.

A body is explained (no mark) where an index of a read or offered card lies in it (most of
that index's box inside the body), or where it overlaps a read card's box as much as one
card's two boxes do. In a fan a buried card's body takes in its neighbours' indices and
overlaps their bodies, so it is explained away: on validation fans a missed card there was
already shown by an unsure card or an offer. The rule was chosen on validation scenes, fans
and the real photos' validation half (models/README.md, "Cards seen but not read").

A card whose body is hidden (a fan, a row of overlapping cards) may still show its index:
the detector boxes the corner, but the classifiers name no card there (or only one already
read elsewhere, so no offer stays). Such an index box is marked too (`unread_indices`),
unless it is a second look at an index a card was read or offered from, or lies in a read
card's own span (its other corner, a pip).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import Box, PhysicalCard, box_iou, point_in_box


@dataclass(frozen=True)
class UnreadRule:
    """When a whole-card box is marked as a card not read."""

    conf: float = 0.5  # the detector's confidence from which a card box is a card
    own_share: float = 0.5  # an index this much inside a body explains it
    iou: float = 0.3  # a body overlapping a read card's box this much is that card
    # the detector's confidence from which an index box nothing was read from is a card's
    # corner (above 1: index boxes are never marked); chosen on validation sets
    # (`scorekeeper_lab.analyses.unread_rule --index`): the lowest that costs no set a photo
    # with nothing to check
    index_conf: float = 0.6


RULE = UnreadRule()


@dataclass(frozen=True)
class Unread:
    """A card seen (its body boxed) where no card was read: the box, the detector's
    confidence in it."""

    box: Box
    conf: float
    kind: str = "card"  # what was boxed: the card's body ("card") or its corner ("index")

    def to_json(self) -> dict[str, object]:
        return {"box": [round(v, 1) for v in self.box], "confidence": round(self.conf, 3),
                "kind": self.kind}


def share_inside(inner: Sequence[float], outer: Sequence[float]) -> float:
    """How much of box `inner` lies inside box `outer` (0 for an empty `inner`)."""
    w = max(0.0, min(inner[2], outer[2]) - max(inner[0], outer[0]))
    h = max(0.0, min(inner[3], outer[3]) - max(inner[1], outer[1]))
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return w * h / area if area > 0 else 0.0


def unread_cards(bodies: Iterable[Detection], read: Sequence[PhysicalCard],
                 rule: UnreadRule = RULE) -> list[Unread]:
    """The card boxes among `bodies` no card of `read` (read cards and offers) explains,
    surest first; a box overlapping one already marked is that card again."""
    indices = [r.det.box for card in read for r in card.indices]
    boxes = [card.box for card in read]
    out: list[Unread] = []
    for body in sorted(bodies, key=lambda d: -d.conf):
        if body.conf < rule.conf:
            break
        if any(share_inside(i, body.box) >= rule.own_share for i in indices):
            continue
        if any(box_iou(body.box, b) >= rule.iou for b in (*boxes, *(u.box for u in out))):
            continue
        out.append(Unread(body.box, body.conf))
    return out


def unread_indices(indices: Iterable[Detection], read: Sequence[PhysicalCard],
                   marked: Sequence[Unread] = (), rule: UnreadRule = RULE) -> list[Unread]:
    """The index boxes among `indices` (the detector's, before any reading) that no card of
    `read` (read cards and offers) explains and no mark of `marked` holds, surest first.

    Explained: its centre lies in an index a card was read or offered from (the same corner
    looked at twice), or most of it lies in a read card's span where that span is more than
    one index (a card read from two corners or with its body: its other corner, a pip)."""
    taken = [r.det.box for card in read for r in card.indices]
    spans = [card.box for card in read if all(card.box != r.det.box for r in card.indices)]
    out: list[Unread] = []
    for det in sorted(indices, key=lambda d: -d.conf):
        if det.conf < rule.index_conf:
            break
        if any(point_in_box(det.centre, t) for t in taken):
            continue
        if any(share_inside(det.box, s) >= rule.own_share for s in spans):
            continue
        if any(share_inside(det.box, m.box) >= rule.own_share or box_iou(det.box, m.box)
               >= rule.iou for m in (*marked, *out)):
            continue
        out.append(Unread(det.box, det.conf, "index"))
    return out
