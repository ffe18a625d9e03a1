"""Sureness by how much of a card's corner shows: a fan set's read cards split by the band of
their best corner's covered share (`fan_eval.band_of`), each band's right cards shown sure
and wrong cards among the sure, under a calibration.

A set's overall "right cards shown sure" mixes nearly whole indices with strips of them; a
hand spread so that every index shows is a different question from a tight fist, and the
split says which of the two a figure speaks for (`sure_compare --by-band`).

Reads kept before they recorded a card's band (`ReadCard.band`) are placed from the surest
reading's box (`Signals.box`): the labelled card whose corner box holds its centre, one of
the card's own code first, as `matching.match_reads` prefers it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scorekeeper.vision.confidence import Calibration
from scorekeeper.vision.matching import centre
from scorekeeper.vision.pairing import point_in_box
from scorekeeper_lab.evaluation.evaluate import read_labels
from scorekeeper_lab.evaluation.fan_eval import BAND_NAMES, NO_CARD, fan_truth
from scorekeeper_lab.evaluation.reliability import ReadCard, SceneReads, Shows, shown
from scorekeeper_lab.evaluation.sure_score import evidence_of

UNPLACED = "not placed"  # a kept read with neither a band nor a box
PLACES = (*BAND_NAMES, NO_CARD, UNPLACED)


def place_card(card: ReadCard, truth: dict[int, dict[str, Any]]) -> str:
    """The band of the labelled card `card` sits on, found from its surest box."""
    box = card.signals.box if card.signals is not None else None
    if box is None:
        return UNPLACED
    c = centre(box)
    on = [t for t in truth.values() if any(point_in_box(c, b) for b in t["boxes"])]
    if not on:
        return NO_CARD
    code = card.signals.card if card.signals is not None else ""
    own = next((t for t in on if t["card"] == code), on[0])
    return str(own["band"])


def step_band(covered: float, step: float) -> str:
    """A band `step` wide (a share) of a covered share: "0–5 %", "5–10 %", …"""
    k = min(int(covered / step + 1e-9), round(1 / step) - 1)
    return f"{round(100 * k * step)}–{round(100 * (k + 1) * step)} %"


def place(scenes: Sequence[SceneReads], root: Path, step: float | None = None) -> Counter[str]:
    """Give every card of `scenes` (read from fan set `root`) its band where it has none;
    returns the labelled cards by band (every face-up card with a corner in view).
    `step`: bands that wide instead of `fan_eval`'s, every card placed again from its box."""
    labelled = Counter[str]()
    for s in scenes:
        stem = s.name.rpartition("/")[2]
        truth = fan_truth(read_labels(root / "cards" / f"{stem}.json"))
        if step is not None:
            for t in truth.values():
                t["band"] = step_band(max(0.0, 1.0 - t["visible"]), step)
        labelled.update(t["band"] for t in truth.values())
        s.cards = [c if c.band is not None and (step is None or c.band == NO_CARD)
                   else replace(c, band=place_card(c, truth)) for c in s.cards]
    return labelled


def _order(place: str) -> tuple[int, float]:
    """Bands by their lower edge, then the cards on no card, then those not placed."""
    head = place.split("–")[0].split(" ")[0]
    return (0, float(head)) if head.isdigit() else (1 + PLACES.index(place), 0.0)


@dataclass
class Band:
    """One band's read cards under one calibration."""

    labelled: int = 0
    read: int = 0
    wrong: int = 0
    right_sure: int = 0
    sure: int = 0
    sure_wrong: int = 0

    @property
    def right(self) -> int:
        return self.read - self.wrong


def by_band(scenes: Sequence[SceneReads], calibration: Calibration | Shows,
            labelled: Counter[str] | None = None, evidence: bool = False) -> dict[str, Band]:
    """Each place's cards (a band, `NO_CARD`, `UNPLACED`) as the review shows them under
    `calibration`; places with neither a labelled nor a read card left out. `evidence`:
    each place's read cards split by the corners that read them (one, or two that agree:
    `sure_score.evidence_of`), its labelled cards on the place's own row."""
    labelled = labelled or Counter()
    out = {name: Band(labelled[name]) for name in sorted({*labelled, *PLACES}, key=_order)}
    for s in scenes:
        for c in s.cards:
            place = c.band or UNPLACED
            if evidence:
                two = evidence_of(c.weighed()) == "pair"
                place = f"{place}, {'two corners' if two else 'one corner'}"
            b = out.setdefault(place, Band())
            sure = shown(calibration, c.weighed())[1]
            b.read += 1
            b.wrong += not c.right
            b.sure += sure
            b.sure_wrong += sure and not c.right
            b.right_sure += sure and c.right
    return {k: out[k] for k in sorted(out, key=lambda k: (_order(k.split(",")[0]), k))
            if out[k].labelled or out[k].read}


def band_rows(name: str, under: str, bands: dict[str, Band]) -> list[str]:
    """Markdown rows: set, shown by, band, labelled, read (wrong), right shown sure, wrong
    among sure."""
    return [f"| {name} | {under} | {band} | {b.labelled} | {b.read} ({b.wrong}) | "
            f"{b.right_sure}/{b.right} ({b.right_sure / max(1, b.right):.1%}) | "
            f"{b.sure_wrong}/{b.sure} ({b.sure_wrong / max(1, b.sure):.2%}) |"
            for band, b in bands.items()]


BAND_HEADER = ["| set | shown by | best corner covered | labelled | read (wrong) | "
               "right shown sure | wrong among sure |",
               "|---|---|---|---:|---:|---:|---:|"]
