"""How a reading is scored against labelled cards: which read card sits on which label.

The speed bench (`scorekeeper bench vision`) prints what it read beside its times, scored
as the lab's evaluation scores, so both use this one rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scorekeeper.vision.pairing import PhysicalCard, point_in_box

Boxes = Sequence[Sequence[float]]


def centre(box: list[float] | tuple[float, ...]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@dataclass
class Matched:
    """One image's read cards against its labelled ones (`match_reads`)."""

    hits: dict[int, PhysicalCard]  # a labelled card → the read card on it (any code), surest first
    unboxed: list[str]  # the image's unboxed cards read (by a read card on no labelled card)
    strays: list[tuple[PhysicalCard, bool]]  # read cards matched to none; True: on none at all
    left: list[str]  # the unboxed cards nobody read
    ignored: list[PhysicalCard] = field(default_factory=list)  # right where no label asks


def match_reads(read: Iterable[PhysicalCard], truth: Sequence[tuple[str, Boxes]],
                unboxed: Iterable[str] = (), ignore: Sequence[tuple[str, Boxes]] = ()
                ) -> Matched:
    """How every score here matches reads to labels: a read card sits on a labelled card
    when one of its indices' centres lies in one of that card's boxes; surest first, it
    takes the first one not taken that it names, else the first one not taken (where boxes
    overlap in a fanned hand, a card never takes another's right answer). On no labelled
    card at all, it reads one of the image's `unboxed` cards of its code while one is left
    (the image shows it, nobody said where); anything else is a stray.

    `ignore`: indices that show but that no label asks to be read (too little of them
    shows, or their suit pip is covered). A read card that names no labelled card under it
    but names the card whose index lies there read what is there: it is `ignored`, neither
    right nor false, as detection benchmarks treat their "don't care" regions."""
    hits: dict[int, PhysicalCard] = {}
    left = list(unboxed)
    found: list[str] = []
    strays: list[tuple[PhysicalCard, bool]] = []
    ignored: list[PhysicalCard] = []
    for card in sorted(read, key=lambda c: -c.confidence):
        centres = [r.det.centre for r in card.indices] or [centre(card.box)]
        on = [k for k, (_, boxes) in enumerate(truth)
              if any(point_in_box(c, b) for c in centres for b in boxes)]
        under = [k for k in on if k not in hits]
        named = next((k for k in under if truth[k][0] == card.card), None)
        if named is None and any(code == card.card and point_in_box(c, b) for code, boxes in ignore
                                 for b in boxes for c in centres):
            ignored.append(card)
            continue
        hit = named if named is not None else under[0] if under else None
        if hit is not None:
            hits[hit] = card
        elif not on and card.card in left:
            left.remove(card.card)
            found.append(card.card)
        else:
            strays.append((card, not on))
    return Matched(hits, found, strays, left, ignored)
