"""How far a read card's shown probability can be trusted: calibration error, the wrong
rate among cards shown sure, and the photos whose error nothing on the review points at.

The evaluations (`evaluate.py`, `fan_eval.py`) record each scene's read cards as right or
wrong (`SceneReads`) with the raw confidence and the look that read them, so one reading
serves both the fit (`calibration.py`, on validation sets) and the figures here (on judge
sets), under whatever calibration: a calibration never changes which cards are read.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from scorekeeper.vision.confidence import Calibration
from scorekeeper.vision.matching import Boxes, match_reads
from scorekeeper.vision.pairing import PhysicalCard
from scorekeeper_lab.evaluation.sure_score import Signals, evidence_of, signals

ECE_BINS = 15  # equal-mass bins
# the lines the risk–coverage table shows, beside the model's own
RC_LINES = (0.5, 0.8, 0.9, 0.95, 0.98, 0.99)


@dataclass(frozen=True)
class ReadCard:
    """One read card (or offer): the look that read it, its raw confidence, whether it was
    right (it names the labelled card it sits on; a stray or false card is wrong)."""

    path: str
    raw: float
    right: bool
    # what a sure score weighs (`sure_score.signals`); None: the raw figure and look only
    signals: Signals | None = None
    # a fan scene's card: the band of the labelled card it sits on (`fan_eval.band_of`), or
    # "on no card"; None where not known (`by_band.place` finds it from the box)
    band: str | None = None

    def weighed(self) -> Signals:
        return self.signals or Signals(self.path, self.raw)


@dataclass
class SceneReads:
    """One scene's read cards and offers, how many corrections it needs (missed, wrong and
    false cards), where each "a card here I cannot read" mark lands
    (`unread_marks.MARK_PLACES`), and `hand`: its labelled cards where the scene holds whole
    hands (a fan scene: one or two, counted together), the size a game knows; None where a
    photo need not be a hand."""

    name: str
    cards: list[ReadCard]
    offers: list[ReadCard] = field(default_factory=list)
    errors: int = 0
    unread: list[str] = field(default_factory=list)
    hand: int | None = None


def read_card(card: PhysicalCard, right: bool, margins: dict[int, float] | None = None,
              band: str | None = None) -> ReadCard:
    """`card` as read, right or not; `margins`: its margin by id (`sure_score.margins_of`);
    `band`: where it sits in a fan (`ReadCard.band`)."""
    return ReadCard(card.path, card.confidence, right,
                    signals(card, margin=(margins or {}).get(id(card))), band)


def offer_reads(maybe: Iterable[PhysicalCard], wanted: Sequence[tuple[str, Boxes]]
                ) -> list[ReadCard]:
    """Offers, each right where it names a card it sits on that was not read right
    (`wanted`): what tapping it would fix."""
    maybe = list(maybe)
    got = match_reads(maybe, wanted)
    right = {id(card) for k, card in got.hits.items() if card.card == wanted[k][0]}
    return [ReadCard("offer", c.confidence, id(c) in right, signals(c, "offer")) for c in maybe]


def dump_reads(path: Path, scenes: Sequence[SceneReads]) -> None:
    """`scenes` as JSON: read once, weighed under any calibration (`load_reads`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(s) for s in scenes]), encoding="utf-8")


def load_reads(path: Path) -> list[SceneReads]:
    def card(d: dict[str, Any]) -> ReadCard:
        sig = d.get("signals")
        return ReadCard(d["path"], d["raw"], d["right"],
                        Signals(**sig) if sig is not None else None, d.get("band"))

    return [SceneReads(s["name"], [card(c) for c in s["cards"]],
                       [card(c) for c in s["offers"]], s["errors"], s.get("unread", []),
                       s.get("hand"))
            for s in json.loads(path.read_text(encoding="utf-8"))]


def count_warns(read: int, hand: int | None) -> bool:
    """Whether the review's count warning ("n cards missing", too many) shows: the hand's
    size is known and the cards read differ from it. Offers are not read cards. A wrong card
    keeps the count, and so does a missed card beside a false one: the count cannot show
    those."""
    return hand is not None and read != hand


class Shows(Protocol):
    """A rule that shows a card otherwise than a calibration alone (`Scored`,
    `analyses.sure_veto.Vetoed`)."""

    line: float

    def shown(self, s: Signals) -> tuple[float, bool]: ...


def shown(calibration: Calibration | Shows, s: Signals) -> tuple[float, bool]:
    """(the probability a card of signals `s` is shown with, whether it is shown sure)."""
    if not isinstance(calibration, Calibration):
        return calibration.shown(s)
    p = calibration.probability(s.path, s.raw)
    return p, s.path != "offer" and calibration.is_sure(
        p, calibration.group_of(s.path, evidence_of(s)))


def ece(prob: np.ndarray, right: np.ndarray, bins: int = ECE_BINS) -> float:
    """Expected calibration error over equal-mass bins (sorted by probability)."""
    if len(prob) == 0:
        return 0.0
    order = np.argsort(prob, kind="stable")
    total = 0.0
    for chunk in np.array_split(order, min(bins, len(prob))):
        total += len(chunk) * abs(float(prob[chunk].mean()) - float(right[chunk].mean()))
    return total / len(prob)


@dataclass
class Figures:
    """A set's calibration figures under one calibration."""

    cards: int
    ece: float
    ece_by_path: dict[str, tuple[int, float]]
    line: float
    sure: int
    sure_wrong: int
    right: int
    right_sure: int
    scenes: int
    with_error: int
    silent: int  # an error and nothing on the review to check
    quiet: int  # no error and nothing on the review to check (every card sure, no offer)
    curve: list[tuple[float, int, int, float]]  # line, sure, wrong among them, coverage
    reliability: list[tuple[float, float, int]]  # per bin: mean probability, right share, n
    # unread marks by where they land; scenes with (without) an error only a mark shows
    marks: dict[str, int] = field(default_factory=dict)
    shown_by_mark: int = 0
    quiet_but_mark: int = 0
    # the scenes whose hand's size is known (`SceneReads.hand`), with the count warning too
    hands: int = 0
    hands_with_error: int = 0
    silent_counted: int = 0  # an error, and nothing shown, the count warning included
    shown_by_count: int = 0  # an error only the count warning shows
    quiet_counted: int = 0  # no error, and nothing shown, the count warning included
    quiet_but_count: int = 0  # no error, and only the count warning shows

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


def measure(scenes: Sequence[SceneReads], calibration: Calibration | Shows) -> Figures:
    """`scenes` as the review would show them under `calibration`."""
    cards = [c for s in scenes for c in s.cards]
    judged = [shown(calibration, c.weighed()) for c in cards]
    prob = np.array([p for p, _ in judged], float).reshape(len(cards))
    right = np.array([c.right for c in cards], bool)
    paths = sorted({c.path for c in cards})
    by_path = {}
    for p in paths:
        mask = np.array([c.path == p for c in cards], bool)
        by_path[p] = (int(mask.sum()), ece(prob[mask], right[mask]))
    line = calibration.line
    sure = np.array([s for _, s in judged], bool).reshape(len(cards))
    curve = []
    for x in sorted({*RC_LINES, line}):
        at = prob >= x
        curve.append((x, int(at.sum()), int((at & ~right).sum()),
                      float((at & right).sum() / max(1, right.sum()))))
    rel = []
    if len(prob):
        order = np.argsort(prob, kind="stable")
        for chunk in np.array_split(order, min(ECE_BINS, len(prob))):
            rel.append((float(prob[chunk].mean()), float(right[chunk].mean()), len(chunk)))
    silent = with_error = quiet = by_mark = but_mark = 0
    counted = Counter[str]()
    starts = np.cumsum([0] + [len(s.cards) for s in scenes])  # each scene's cards in `sure`
    for i, s in enumerate(scenes):
        unmarked = bool(sure[starts[i]:starts[i + 1]].all()) and not s.offers
        # a photo with nothing read at all is no quiet review: it says "No cards read"
        nothing = unmarked and not s.unread and bool(s.cards)
        if s.errors:
            with_error += 1
            silent += nothing
            by_mark += unmarked and not nothing
        else:
            quiet += nothing
            but_mark += unmarked and not nothing
        if s.hand is not None:
            warns = count_warns(len(s.cards), s.hand)
            kind = "error" if s.errors else "clean"
            counted["hands"] += 1
            counted[f"{kind} seen"] += 1
            counted[f"{kind} nothing"] += nothing and not warns
            counted[f"{kind} count alone"] += nothing and warns
    marks = Counter(place for s in scenes for place in s.unread)
    return Figures(len(cards), ece(prob, right), by_path, line, int(sure.sum()),
                   int((sure & ~right).sum()), int(right.sum()), int((sure & right).sum()),
                   len(scenes), with_error, silent, quiet, curve, rel, dict(marks), by_mark,
                   but_mark, counted["hands"], counted["error seen"], counted["error nothing"],
                   counted["error count alone"], counted["clean nothing"],
                   counted["clean count alone"])


def format_figures(name: str, f: Figures) -> str:
    """The lines `scorekeeper-lab eval` appends for a set."""
    per_path = ", ".join(f"{p} {e:.3f} (n {n})" for p, (n, e) in f.ece_by_path.items())
    wrong = f.sure_wrong / max(1, f.sure)
    cover = f.right_sure / max(1, f.right)
    lines = [f"confidence, {name}: ECE {f.ece:.3f} over {f.cards} read cards "
             f"({ECE_BINS} equal-mass bins); by look: {per_path or 'none'}",
             f"  sure line {f.line:.3f}: wrong among sure {f.sure_wrong}/{f.sure} "
             f"({wrong:.2%}); right cards shown sure {f.right_sure}/{f.right} ({cover:.1%})",
             "  risk–coverage (line: wrong among sure, right shown sure): " + "; ".join(
                 f"{x:.3f}: {w}/{n} ({w / max(1, n):.2%}), {c:.1%}" for x, n, w, c in f.curve),
             f"  scenes with a silent error (an error, and no unsure card, no offer, no "
             f"unread mark, and a card read, for none says \"No cards read\"): "
             f"{f.silent}/{f.scenes} (of {f.with_error} with an error; "
             f"{f.shown_by_mark} shown by an unread mark alone)",
             f"  scenes with no error and nothing to check (every card sure, no offer, no "
             f"unread mark): {f.quiet}/{f.scenes - f.with_error} ({f.quiet_but_mark} more "
             f"show an unread mark alone)",
             *_counted_lines(f),
             "  unread marks (\"a card here I cannot read\"): " + ", ".join(
                 f"{f.marks.get(p, 0)} {label}" for p, label in (
                     ("missed", "on a card to fix"), ("read", "on a card read right"),
                     ("elsewhere", "elsewhere"))),
             "  reliability (per bin: mean shown → share right, cards): " + ", ".join(
                 f"{p:.2f}→{r:.2f} ({n})" for p, r, n in f.reliability)]
    return "\n".join(lines)


def _counted_lines(f: Figures) -> list[str]:
    """The two lines above again where the hand's size is known (fan scenes: whole hands):
    the review's count warning shows a missed or extra card that nothing else does. The
    lines above leave the count out, as for a photo that need not be a hand."""
    if not f.hands:
        return []
    clean = f.hands - f.hands_with_error
    head = (f"  with the hand's size known ({f.hands} scenes of one or two whole hands, "
            f"counted together; the two lines above leave out the review's count warning, "
            f"\"n cards missing\" or too many): scenes")
    return [f"{head} with a silent error (as above, and as many cards read as the hand "
            f"holds): {f.silent_counted}/{f.hands} (of {f.hands_with_error} with an error; "
            f"{f.shown_by_count} shown by the count alone)",
            f"{head} with no error and nothing to check (as above, and the count right): "
            f"{f.quiet_counted}/{clean} ({f.quiet_but_count} more show the count warning "
            f"alone)"]


def format_reliability(f: Figures) -> str:
    """The reliability table (per equal-mass bin: mean shown probability, share right)."""
    rows = ["| bin | cards | mean shown | right |", "|---:|---:|---:|---:|"]
    rows += [f"| {i + 1} | {n} | {p:.3f} | {r:.3f} |" for i, (p, r, n) in
             enumerate(f.reliability)]
    return "\n".join(rows)
