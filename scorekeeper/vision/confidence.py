"""A read card's raw confidence → the chance it is right, and the line the review calls sure.

The raw figure (the classifier's probability times the detector's, two corners combined,
`pairing._confidence`) orders cards well but does not say how often a card is right: on
real print right cards sit at 0.5–0.8 and a wrong one can score above 0.8. The lab measures
how often each look's cards are right at each raw figure (`scorekeeper-lab calibrate`, on
validation scenes of the training designs only) and writes a monotone map per look as
knots into the manifest (`calibration`); the review shows the mapped figure and marks a
card sure at the line the lab chose so that sure cards are seldom wrong.

Without a `calibration` section the shown figure is the raw one and the line 0.8: what the
reader showed before it had one.
"""

from __future__ import annotations

from dataclasses import replace

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
    fitted_on: str = ""  # the validation sets, as a record
    sure_rule: str = ""  # how the line was chosen, as a record


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

    def is_sure(self, probability: float) -> bool:
        return probability >= self.line

    def card(self, card: PhysicalCard, offer: bool = False) -> PhysicalCard:
        """`card` with its probability and sure set; an offer ("maybe") is never sure."""
        path = "offer" if offer else card.path
        p = self.probability(path, card.confidence)
        return replace(card, path=path, probability=p, sure=not offer and self.is_sure(p))
