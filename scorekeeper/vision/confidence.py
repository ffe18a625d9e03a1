"""A read card's raw confidence → the chance it is right, and the line the review calls sure.

The raw figure (the classifier's probability times the detector's, two corners combined,
`pairing._confidence`) orders cards well but does not say how often a card is right: on
real print right cards sit at 0.5–0.8 and a wrong one can score above 0.8. The lab measures
how often each look's cards are right at each raw figure (`scorekeeper-lab calibrate`, on
validation scenes of the training designs only) and writes a monotone map per look as
knots into the manifest (`calibration`); the review shows the mapped figure and marks a
card sure at the line the lab chose so that sure cards are seldom wrong.

A group of cards may carry a line of its own (`lines`), grouped as `groups` says: by
`evidence` (the default: a card whose two corners were read and name it is misread
otherwise than one read from a single corner), or by `path`, the look that read it (looks
whose maps are poor, `gap` and `rescaled`, must not ride on the first look's line). The lab
certifies each group's line on that group's cards (`calibration.fit_lines`). By evidence,
a group it saw too few cards of keeps the one line (`sure`, the line the review's legend
names); by path, a look with no certified line is never sure, and `sure` is the line of the
look the lab saw most cards of.

Without a `calibration` section the shown figure is the raw one and the line 0.8: what the
reader showed before it had one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from scorekeeper.vision.pairing import PhysicalCard

# the looks a card can be read by (`IndexReading.path`); "offer": a card offered as a
# "maybe", read under the card threshold
PATHS = ("first", "second", "rescaled", "hand", "named", "gap", "detector", "offer")
# the line without a calibration: the review's rule before it had one
DEFAULT_SURE = 0.8
FALLBACK_PATH = "first"  # a look the lab saw too few cards of is mapped as the first look
NEVER_SURE = 1.01  # a line above any probability: where no line met the lab's bound
# what a card rests on (`evidence`): two or more corners all naming it, or less
EVIDENCE = ("pair", "single")
# how `lines` group cards (`CalibrationSpec.groups`), and the groups of each; an offer is
# never sure, so no path grouping names it
GROUPINGS: dict[str, tuple[str, ...]] = {
    "evidence": EVIDENCE, "path": tuple(p for p in PATHS if p != "offer")}


def evidence(card: PhysicalCard) -> str:
    """"pair" where two or more corners were read and all name the card, else "single"
    (one corner, or two that name two cards): known to the reader at no cost."""
    codes = {r.card for r in card.indices}
    return "pair" if len(card.indices) >= 2 and codes == {card.card} else "single"


class PathMap(BaseModel):
    """One look's map: raw confidence `x` (rising) → probability `y` (never falling),
    interpolated linearly and held flat beyond the ends."""

    model_config = ConfigDict(extra="forbid")

    x: list[float] = Field(min_length=1)
    y: list[float] = Field(min_length=1)

    @model_validator(mode="after")
    def _monotone(self) -> PathMap:
        if len(self.x) != len(self.y):
            raise ValueError("x and y must have as many knots")
        if any(b < a for a, b in zip(self.x, self.x[1:], strict=False)):
            raise ValueError("x must not fall")
        if any(b < a for a, b in zip(self.y, self.y[1:], strict=False)):
            raise ValueError("y must not fall: a surer raw reading is never less likely right")
        if not all(0.0 <= v <= 1.0 for v in self.y):
            raise ValueError("y must lie in [0, 1]")
        return self

    def __call__(self, raw: float) -> float:
        return float(np.interp(raw, self.x, self.y))


class CalibrationSpec(BaseModel):
    """`calibration` in models/model.json (`scorekeeper-lab calibrate` writes it)."""

    model_config = ConfigDict(extra="ignore")

    paths: dict[str, PathMap] = Field(default_factory=dict)
    sure: float = Field(default=DEFAULT_SURE, ge=0.0, le=NEVER_SURE)
    # what `lines` are keyed by (`GROUPINGS`); "evidence" where a manifest says nothing
    groups: Literal["evidence", "path"] = "evidence"
    # a group's own line; a group not named here is sure from `sure` (by evidence) or
    # never (by path: its look certified no line)
    lines: dict[str, float] = Field(default_factory=dict)
    fitted_on: str = ""  # the validation sets, as a record
    sure_rule: str = ""  # how the line was chosen, as a record

    @model_validator(mode="after")
    def _known_groups(self) -> CalibrationSpec:
        known = GROUPINGS[self.groups]
        unknown = set(self.lines) - set(known)
        if unknown:
            raise ValueError(f"unknown {self.groups} group(s) {sorted(unknown)}: not in {known}")
        if any(not 0.0 <= v <= NEVER_SURE for v in self.lines.values()):
            raise ValueError(f"a line must lie in [0, {NEVER_SURE}]")
        return self


class Calibration:
    """Maps each card's raw confidence to its probability and says whether it is sure."""

    def __init__(self, spec: CalibrationSpec | None = None) -> None:
        self.spec = spec or CalibrationSpec()
        self.line = self.spec.sure

    def probability(self, path: str, raw: float) -> float:
        """The chance a card of look `path` and raw confidence `raw` is right (the raw
        figure where no map was fitted)."""
        paths = self.spec.paths
        fit = paths.get(path) or paths.get(FALLBACK_PATH)
        return round(fit(raw), 4) if fit is not None else raw

    def group_of(self, path: str, evidence: str) -> str:
        """The group whose line a card of look `path` and evidence `evidence` is held to."""
        return path if self.spec.groups == "path" else evidence

    def line_of(self, group: str) -> float:
        """The line cards of `group` are sure from: by path, a look with no certified line
        of its own is never sure (nothing bounds its wrong rate)."""
        left = NEVER_SURE if self.spec.groups == "path" else self.line
        return self.spec.lines.get(group, left)

    def is_sure(self, probability: float, group: str = "single") -> bool:
        return probability >= self.line_of(group)

    def card(self, card: PhysicalCard, offer: bool = False) -> PhysicalCard:
        """`card` with its probability and sure set; an offer ("maybe") is never sure."""
        path = "offer" if offer else card.path
        p = self.probability(path, card.confidence)
        sure = not offer and self.is_sure(p, self.group_of(card.path, evidence(card)))
        return replace(card, path=path, probability=p, sure=sure)
