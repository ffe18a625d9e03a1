"""A sure score: several things known of a read card, weighed together, instead of its raw
confidence alone, to call cards sure.

The calibrated raw figure could not carry a line that keeps sure cards wrong ≤ 0.5 % and
shows most right cards sure (models/README.md, "Confidence and the sure line"), so this
tries a sharper signal: a logistic regression of right on the card's raw figure (logit),
its look, whether two corners were read and whether they name one card, the classifier's
margin over the next name, the detector's confidence and the index's size, then an
isotonic map of its output to the right share (`calibration.fit_score`). On the
validation and judge sets it separated right from wrong no better than the raw figure
(README), so the runtime does not carry it: it lives here, to be tried again with other
signals.

The margin is not kept by the reader: the lab asks the classifier that answered again for
the card's surest index crop (`margins_of`), which gives the reader's own figure for the
first and second looks, the gaps and the hand look, and an approximate one for a
rescaled look (cropped there at another size).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.confidence import NEVER_SURE, Calibration, PathMap
from scorekeeper.vision.pairing import IndexReading, PhysicalCard

NO_CLASSIFIER = ("named", "detector")  # looks whose name no index classifier gave


@dataclass(frozen=True)
class Signals:
    """What the sure score weighs of one read card (`signals`)."""

    path: str
    raw: float  # `PhysicalCard.confidence`
    corners: int = 1  # indices read
    corners_differ: bool = False  # two corners that name two cards (one rank, two suits)
    margin: float | None = None  # the surest reading's margin over the next name
    index_px: float = 0.0  # the surest reading's index size (long side, pixels)
    det_conf: float = 1.0  # the detector's confidence in the surest reading's box
    # the card read and the surest reading's box (frame pixels): where a second opinion
    # (`second_opinion`) crops the index again, without reading the scene again
    card: str = ""
    box: tuple[float, float, float, float] | None = None
    # the second classifier, asked of that box's crop, names another card
    # (`analyses.sure_veto.disputed`): a veto's mark, set after the read
    disputed: bool = False

    def __post_init__(self) -> None:
        if self.box is not None:  # kept reads give a list
            object.__setattr__(self, "box", tuple(self.box))


def evidence_of(s: Signals) -> str:
    """The card's evidence group as the runtime tells it (`confidence.evidence`): "pair"
    where two or more corners were read and name one card, else "single"."""
    return "pair" if s.corners >= 2 and not s.corners_differ else "single"


def surest(card: PhysicalCard) -> IndexReading:
    return max(card.indices, key=lambda r: r.prob * r.det.conf)


def signals(card: PhysicalCard, path: str | None = None, margin: float | None = None
            ) -> Signals:
    """`card`'s signals; `path`: its look where not the card's own (an offer)."""
    if not card.indices:
        return Signals(path or card.path, card.confidence, margin=margin)
    best = surest(card)
    x1, y1, x2, y2 = (round(float(v), 2) for v in best.det.box)
    return Signals(path or card.path, card.confidence, len(card.indices),
                   len({r.card for r in card.indices}) > 1, margin, best.det.size,
                   best.det.conf, card.card, (x1, y1, x2, y2))


def top_margins(p: np.ndarray) -> list[float]:
    """Each row's surest probability less its next."""
    if p.ndim != 2 or p.shape[1] < 2:
        return [1.0] * len(p)
    top = np.partition(p, -2, axis=1)[:, -2:]
    return [float(v) for v in top[:, 1] - top[:, 0]]


def margins_of(reader: Any, image: np.ndarray, cards: Sequence[PhysicalCard]
               ) -> dict[int, float]:
    """id(card) → the margin of its surest reading, asked again of the classifier that
    answered: the second for the second's look, else the first unless it does not name
    the card (a gap or hand look the second read). None for a stand-in classifier."""
    from scorekeeper.vision.classes import CLASSIFIER_CLASSES

    first = getattr(reader, "classifier", None)
    if first is None or not hasattr(first, "probabilities"):
        return {}
    todo = [(c, surest(c)) for c in cards if c.indices and surest(c).path not in NO_CLASSIFIER]
    if not todo:
        return {}
    crops = [crop_index(image, r.det.box) for _, r in todo]
    p = first.probabilities(crops)
    second = getattr(reader, "second", None)
    again = [k for k, (_, r) in enumerate(todo) if r.path == "second"
             or CLASSIFIER_CLASSES[int(p[k].argmax())] != r.card]
    if second is not None and hasattr(second, "probabilities") and again:
        p[again] = second.probabilities([crops[k] for k in again])
    return {id(c): m for (c, _), m in zip(todo, top_margins(p), strict=True)}


def _logit(p: float, eps: float = 1e-4) -> float:
    p = min(max(p, eps), 1.0 - eps)
    return math.log(p / (1.0 - p))


def feature(name: str, s: Signals) -> float:
    """One named feature of `s`: "path:<look>" is 1 for that look."""
    if name.startswith("path:"):
        return float(s.path == name[5:])
    match name:
        case "logit":
            return _logit(s.raw)
        case "det_logit":
            return _logit(s.det_conf)
        case "two_corners":
            return float(s.corners >= 2)
        case "corners_differ":
            return float(s.corners_differ)
        case "margin":
            return s.margin if s.margin is not None else 0.0
        case "no_margin":
            return float(s.margin is None)
        case "log_px":
            return math.log(max(s.index_px, 1.0))
    raise ValueError(f"unknown sure-score feature {name!r}")


# whether the second classifier agreed with a doubtful first was tried too (the reader
# kept it for the trial): on the validation scenes it lifted a few wrong second-classifier
# and gap readings to the very top of the score, so the line from the top down failed at
# once; a card-naming hand detector's name always agrees with the classifiers (`HandLook.
# agreed` takes only those, `alone` being off), so that says nothing either
FEATURES = ("logit", "det_logit", "two_corners", "corners_differ", "margin", "no_margin",
            "log_px")


def feature_rows(cards: Sequence[Signals], names: Sequence[str]) -> np.ndarray:
    return np.array([[feature(n, s) for n in names] for s in cards], float).reshape(
        len(cards), len(names))


class SureScore(BaseModel):
    """A fitted sure score: the logistic of the weighted features, its map to the chance
    of being right, and the sure line on the score."""

    model_config = ConfigDict(extra="forbid")

    features: list[str] = Field(min_length=1)
    weights: list[float] = Field(min_length=1)
    bias: float = 0.0
    map: PathMap  # the score (0–1) → the chance of being right
    line: float = Field(default=NEVER_SURE, ge=0.0, le=NEVER_SURE)  # sure from this score
    sure_rule: str = ""

    @model_validator(mode="after")
    def _known(self) -> SureScore:
        if len(self.features) != len(self.weights):
            raise ValueError("features and weights must be as many")
        for name in self.features:
            feature(name, Signals("first", 0.5))
        return self

    def __call__(self, s: Signals) -> float:
        z = self.bias + sum(w * feature(n, s)
                            for n, w in zip(self.features, self.weights, strict=True))
        return 1.0 / (1.0 + math.exp(-min(max(z, -60.0), 60.0)))


class Scored:
    """A calibration whose read cards are shown and called sure by `score` (offers keep
    the calibration's `offer` map): what `reliability.measure` weighs a set under."""

    def __init__(self, calibration: Calibration, score: SureScore) -> None:
        self.calibration = calibration
        self.score = score
        self.line = round(score.map(score.line), 4) if score.line < NEVER_SURE else NEVER_SURE

    def shown(self, s: Signals) -> tuple[float, bool]:
        if s.path == "offer":
            return self.calibration.probability(s.path, s.raw), False
        x = self.score(s)
        return round(self.score.map(x), 4), x >= self.score.line
