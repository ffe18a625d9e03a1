"""Does a second opinion order read cards better than their mapped probability alone?

For kept reads (`sure_compare`'s caches, read with boxes in their signals) each read card's
index is cut again and asked of the classifiers (`evaluation.second_opinion`; the answers
kept beside the reads, `opinions-<cache>`), then each candidate score (the mapped
probability, capped by the share of a set of opinions that name the card) is weighed:
AUROC of right against wrong, the wrong share among sure cards where the line lets 85,
90 and 95 % of right cards be sure, and the line the shipped rule allows on them.

A veto rule (`RULES`, `--rule`) is then fitted and certified as a manifest's line would
be: `--fit`: the cap a disputed card is shown at (the right share of disputed cards on
the fitting half), `--certify`: the line by the shipped procedure on every card of other
validation reads, with and without the veto (`--out`: both, for `sure_compare --veto`).
lab/RECORD.md ("A second opinion as a veto") has the runs.

    .venv/bin/python -m scorekeeper_lab.analyses.sure_veto \\
        --reads data/sure-veto-reads/labelled-val.json=data/real-halves/val.jsonl \\
        --reads data/sure-veto-reads/fans-sure-fans-real-val.json=data/sure-fans-real-val \\
        --real ../shared/data/real-photos-dev
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.vision.confidence import NEVER_SURE, Calibration, CalibrationSpec
from scorekeeper_lab.evaluation.calibration import (
    DELTA,
    RISK,
    half_of,
    sure_line,
)
from scorekeeper_lab.evaluation.reliability import ReadCard, SceneReads, load_reads
from scorekeeper_lab.evaluation.second_opinion import opinion_names, opinions_of
from scorekeeper_lab.evaluation.sure_score import Signals

Opinions = dict[str, list[Any]]  # opinion name → [surest name, its probability, p(card)]
COVERAGES = (0.85, 0.90, 0.95)
SECOND = "second:as_cut"  # the opinion the veto rule asks (lab/RECORD.md)


def scene_image(name: str, where: Path, real: Path | None) -> Path:
    """The image a kept scene was read from: a fan or rendered scene `set/NNNNNN` in
    `where`/images, a labelled photo by its file name (as `evaluate._photo_path`)."""
    if where.suffix == ".jsonl":
        from scorekeeper_lab.evaluation.evaluate import _photo_path

        return _photo_path(where, name, real)
    return where / "images" / f"{name.rsplit('/', 1)[-1]}.jpg"


def ask(reads: Path, where: Path, real: Path | None, models: Path,
        only: Sequence[str] | None = None) -> list[list[Opinions]]:
    """Each kept scene's read cards' opinions (an empty dict for a card without a box),
    kept beside the reads as `opinions-<name>`: asked once, `only` these opinions (default
    all), the ones kept already not asked again."""
    kept = reads.with_name(f"opinions-{reads.name}")
    scenes = load_reads(reads)
    out: list[list[Opinions]] = (json.loads(kept.read_text(encoding="utf-8"))
                                 if kept.exists() else [[{} for _ in s.cards] for s in scenes])
    have = {n for scene in out for o in scene for n in o}
    want = [n for n in (only or opinion_names(True)) if n not in have]
    if kept.exists() and (not want or not have):
        return out  # every opinion asked, or none could be (no boxes)
    from scorekeeper.vision.reader import load_image
    from scorekeeper_lab.evaluation.evaluate import open_reader

    reader = open_reader(None, models, sys.stdout, sys.stderr)
    assert reader is not None and reader.classifier is not None, f"{models}: no classifier"
    for scene, got in zip(scenes, out, strict=True):
        todo = [(k, c.signals) for k, c in enumerate(scene.cards)
                if c.signals is not None and c.signals.box is not None]
        if todo:
            image = load_image(scene_image(scene.name, where, real))
            asked = opinions_of(reader.classifier, getattr(reader, "second", None), image,
                                [(s.card, s.box) for _, s in todo if s is not None
                                 and s.box is not None], want)
            for (k, _), o in zip(todo, asked, strict=True):
                got[k].update(o)
    kept.write_text(json.dumps(out), encoding="utf-8")
    return out


def _agrees(o: Opinions, name: str) -> bool:
    """Opinion `name` was asked and its surest name is the card read (the card's own
    probability is the top one)."""
    return name in o and o[name][2] >= o[name][1]


def agree_share(o: Opinions, names: Sequence[str]) -> float:
    """The share of opinions `names` whose surest name is the card read (1 where the
    card has no opinions: nothing to veto with)."""
    asked = [n for n in names if n in o]
    if not asked:
        return 1.0
    return sum(_agrees(o, n) for n in asked) / len(asked)


Score = Callable[[float, Opinions, ReadCard], float]


def capped(names: Sequence[str]) -> Score:
    """The mapped probability capped by the share of `names` naming the card: a card
    one of them doubts falls below any line above (n − 1)/n."""
    return lambda p, o, c: min(p, agree_share(o, names))


def auroc(score: np.ndarray, right: np.ndarray) -> float:
    """The chance a right card scores above a wrong one (ties count half)."""
    pos, neg = score[right], score[~right]
    if not len(pos) or not len(neg):
        return float("nan")
    both = np.concatenate([pos, neg])
    order = both.argsort(kind="stable")
    ranks = np.empty(len(both))
    ranks[order] = np.arange(1, len(both) + 1)
    for v in np.unique(both):  # ties share their mean rank
        tied = both == v
        ranks[tied] = ranks[tied].mean()
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2)
                 / (len(pos) * len(neg)))


def risk_at(score: np.ndarray, right: np.ndarray, coverage: float) -> tuple[int, int, float]:
    """(sure, wrong among them, the line) at the highest line that lets `coverage` of the
    right cards be sure (every card at the line counted)."""
    need = int(np.ceil(coverage * right.sum()))
    values = np.sort(np.unique(score))[::-1]
    for v in values:
        at = score >= v
        if (at & right).sum() >= need:
            return int(at.sum()), int((at & ~right).sum()), float(v)
    return len(score), int((~right).sum()), float(values[-1]) if len(values) else 0.0


def weigh(cards: Sequence[tuple[float, Opinions, ReadCard]], score: Score,
          deltas: Sequence[float] = (DELTA,)) -> str:
    """AUROC, the wrong share where the line lets each of `COVERAGES` of the right cards be
    sure, and the line the shipped rule certifies on these same cards at each of `deltas`
    (in-sample: what the order allows, not a certificate)."""
    s = np.array([score(p, o, c) for p, o, c in cards], float)
    right = np.array([c.right for _, _, c in cards], bool)
    parts = [f"AUROC {auroc(s, right):.3f}"]
    for cover in COVERAGES:
        n, k, line = risk_at(s, right, cover)
        parts.append(f"{cover:.0%}: {k}/{n} ({k / max(1, n):.2%}) at {line:.4f}")
    for delta in deltas:
        line = sure_line(s.tolist(), right.tolist(), RISK, delta)
        at = s >= line
        parts.append(f"line at δ {delta:g}: {line:.4f}, {int((at & ~right).sum())}/"
                     f"{int(at.sum())}, {(at & right).sum() / max(1, right.sum()):.1%} sure")
    return " | ".join(parts)




MOVED = ("wide", "tight", "left", "right", "up", "down", "tilt_l", "tilt_r")
# name → (the opinions it needs, the score)
CANDIDATES: dict[str, tuple[tuple[str, ...], Score]] = {
    "mapped probability (shipped)": ((), lambda p, o, c: p),
    "capped by the second classifier (as cut)": ((SECOND,), capped([SECOND])),
    "capped by the first's 8 moved cuts": (
        tuple(f"first:{v}" for v in MOVED), capped([f"first:{v}" for v in MOVED])),
    "capped by the first's 2 sizes": (
        ("first:wide", "first:tight"), capped(["first:wide", "first:tight"])),
    "capped by the second's 3 cuts": (
        (SECOND, "second:wide", "second:tight"),
        capped([SECOND, "second:wide", "second:tight"])),
    "capped by all 11": (
        (*(f"first:{v}" for v in MOVED), SECOND, "second:wide", "second:tight"),
        capped([*(f"first:{v}" for v in MOVED), SECOND, "second:wide", "second:tight"])),
    # the `second` look's cards: checked by the first instead, or never sure
    "the second's veto, the second's own cards the first's": (
        (SECOND, "first:as_cut"), lambda p, o, c: p if _agrees(
            o, "first:as_cut" if c.path == "second" else SECOND) else min(p, VETO_CAP)),
    "the second's veto, the second's own cards never sure": (
        (SECOND,), lambda p, o, c: p if c.path != "second" and _agrees(o, SECOND)
        else min(p, VETO_CAP)),
    "both classifiers name it (as cut)": (
        (SECOND, "first:as_cut"), lambda p, o, c: p if _agrees(o, SECOND) and _agrees(
            o, "first:as_cut") else min(p, VETO_CAP)),
}
VETO_CAP = 0.1111  # a vetoed card's figure in the path-wise candidates (the rule's cap)


# the veto rules tried (lab/RECORD.md): the opinions asked, and whether the second
# classifier's own cards are left unasked
RULES: dict[str, tuple[tuple[str, ...], bool]] = {
    "second": ((SECOND,), True),  # the crop as cut; the second's own cards exempt
    "second3": ((SECOND, "second:wide", "second:tight"), False),  # three cuts, all asked
}


def disputed(o: Opinions, card: ReadCard, rule: str = "second") -> bool:
    """Whether an opinion of `rule` names another card or none. "second": the second
    classifier on the crop as cut, a card the second read never disputed (it would be
    asked its own question); "second3": the second on the crop as cut, ×1.2 and ×0.85."""
    looks, exempt = RULES[rule]
    if exempt and card.path == "second":
        return False
    return any(n in o and not _agrees(o, n) for n in looks)


def with_disputes(scenes: Sequence[SceneReads], asked: Sequence[Sequence[Opinions]],
                  rule: str = "second") -> list[SceneReads]:
    """`scenes` with each read card's signals marked disputed or not by `rule`."""
    out = []
    for scene, ops in zip(scenes, asked, strict=True):
        cards = [replace(c, signals=replace(c.weighed(), disputed=disputed(o, c, rule)))
                 for c, o in zip(scene.cards, ops, strict=True)]
        out.append(replace(scene, cards=cards))
    return out


def fit_cap(scenes: Sequence[SceneReads]) -> tuple[float, int, int]:
    """(the right share among disputed cards of the fitting half, right, disputed):
    what a disputed card is shown at most."""
    cards = [c for s in scenes if half_of(s.name) == 0 for c in s.cards
             if c.weighed().disputed]
    right = sum(c.right for c in cards)
    return round(right / max(1, len(cards)), 4), right, len(cards)


class Vetoed:
    """A calibration whose disputed cards are shown at most `cap`, sure from `line`
    (offers as the calibration shows them): `reliability.measure` weighs a set under it."""

    def __init__(self, calibration: Calibration, cap: float, line: float) -> None:
        self.calibration = calibration
        self.cap = cap
        self.line = line

    def probability(self, s: Signals) -> float:
        p = self.calibration.probability(s.path, s.raw)
        return min(p, self.cap) if s.disputed else p

    def shown(self, s: Signals) -> tuple[float, bool]:
        p = self.probability(s)
        return p, s.path != "offer" and p >= self.line


def certify(scenes: Sequence[SceneReads], calibration: Calibration, cap: float | None,
            delta: float = DELTA) -> tuple[float, int, int, int, int]:
    """The pooled sure line by the shipped rule on every read card of `scenes` (capped at
    `cap` where disputed; None: no veto), its bound at `delta`; (line, cards, wrong, sure,
    wrong among sure)."""
    cards = [c for s in scenes for c in s.cards]
    rule = Vetoed(calibration, cap if cap is not None else 1.0, NEVER_SURE)
    prob = [rule.probability(c.weighed()) if cap is not None
            else calibration.probability(c.path, c.raw) for c in cards]
    right = [c.right for c in cards]
    line = sure_line(prob, right, RISK, delta)
    sure = [k for k, p in enumerate(prob) if p >= line]
    return (line, len(cards), sum(not r for r in right), len(sure),
            sum(not right[k] for k in sure))


def _sets(items: Sequence[str], real: Path | None, models: Path,
          rule: str = "second") -> list[SceneReads]:
    scenes: list[SceneReads] = []
    for item in items:
        cache, _, where = item.partition("=")
        scenes += with_disputes(load_reads(Path(cache)),
                                ask(Path(cache), Path(where), real, models, RULES[rule][0]),
                                rule)
    return scenes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", action="append", default=[], metavar="CACHE=SET")
    parser.add_argument("--fit", action="append", default=[], metavar="CACHE=SET",
                        help="fit the veto's cap on these sets' fitting half")
    parser.add_argument("--certify", action="append", default=[], metavar="CACHE=SET",
                        help="certify the line on every card of these sets")
    parser.add_argument("--rule", choices=sorted(RULES), default="second",
                        help="with --fit: the veto's opinions (`RULES`)")
    parser.add_argument("--delta", type=float, default=DELTA,
                        help="the chance the certified bound is wrong")
    parser.add_argument("--deltas", type=float, nargs="+", default=[DELTA],
                        help="with --reads: the in-sample line at each of these")
    parser.add_argument("--out", type=Path, default=None, metavar="VETO.json",
                        help="write the cap and line here (`sure_compare --veto`)")
    parser.add_argument("--real", type=Path, default=None)
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--only", action="append", default=None, metavar="OPINION",
                        help="ask only these opinions (e.g. second:as_cut) of sets not asked yet")
    args = parser.parse_args(argv)
    section = json.loads((args.models / "model.json").read_text(encoding="utf-8"))
    cal = Calibration(CalibrationSpec.model_validate(section["calibration"]))
    if args.fit:
        cap, right, n = fit_cap(_sets(args.fit, args.real, args.models, args.rule))
        sys.stdout.write(f"cap {cap:.4f}: {right} right of {n} disputed (fitting half)\n")
        held = _sets(args.certify, args.real, args.models, args.rule)
        result: dict[str, Any] = {"rule": args.rule, "cap": cap, "delta": args.delta}
        for name, c in (("no veto", None), ("veto", cap)):
            line, n, wrong, sure, bad = certify(held, cal, c, args.delta)
            right_n = n - wrong
            sys.stdout.write(f"{name}: line {line:.4f} on {n} cards ({wrong} wrong): {bad}/"
                             f"{sure} wrong among sure, {sure - bad}/{right_n} "
                             f"({(sure - bad) / max(1, right_n):.1%}) right cards sure\n")
            result["line" if c is not None else "line_without"] = line
        if args.out is not None:
            args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if not args.reads:
        return 0
    cards: list[tuple[float, Opinions, ReadCard]] = []
    for item in args.reads:
        cache, _, where = item.partition("=")
        scenes: list[SceneReads] = load_reads(Path(cache))
        asked = ask(Path(cache), Path(where), args.real, args.models, args.only)
        for scene, ops in zip(scenes, asked, strict=True):
            cards += [(cal.probability(c.path, c.raw), o, c)
                      for c, o in zip(scene.cards, ops, strict=True)]
    wrong = sum(not c.right for *_, c in cards)
    sys.stdout.write(f"{len(cards)} read cards, {wrong} wrong\n")
    per_card = [set(o) for _, o, _ in cards if o]
    have: set[str] = set.intersection(*per_card) if per_card else set()  # of every card
    for name, (needs, score) in CANDIDATES.items():
        if set(needs) <= have:  # a candidate whose opinions were not all asked: left out
            sys.stdout.write(f"{name}: {weigh(cards, score, args.deltas)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
