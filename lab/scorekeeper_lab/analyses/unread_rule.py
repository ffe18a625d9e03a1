"""Choose the "a card here I cannot read" rule (`scorekeeper.vision.unread.UnreadRule`) on
validation sets: each scene is read once, every whole-card box the detector found is placed
on the labels (`unread_marks`), and each rule of a grid is scored by the marks it would
make: on a card to fix (true), on a card read right (false) or elsewhere, and what that does
to the photos with an error that show nothing and the photos with no error that show
nothing to check (`reliability.measure`). Run on validation sets only:

    .venv/bin/python -m scorekeeper_lab.analyses.unread_rule \\
        --scenes data/unread-val --fans data/unread-fans-val \\
        --labelled data/real-halves/val.jsonl --real ../shared/data/real-photos-dev

`--index` scores the index-box rule (`UnreadRule.index_conf`) under the shipped body rule.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from scorekeeper.vision.classes import CARD, INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import PhysicalCard
from scorekeeper.vision.reader import MODELS, CardReader, ReadResult
from scorekeeper.vision.unread import RULE, Unread, UnreadRule, unread_cards, unread_indices
from scorekeeper_lab.evaluation.reliability import SceneReads, measure

CONFS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
SHARES = (0.5, 0.9)
IOUS = (0.3, 0.5, 0.7, 1.01)  # 1.01: no overlap rule
INDEX_CONFS = (1.01, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25)  # 1.01: no index box marked


# a frame's whole-card boxes, its index boxes, and the cards read or offered there
Logged = tuple[list[Detection], list[Detection], list[PhysicalCard]]


def candidates(bodies: list[Detection], indices: list[Detection]) -> list[Unread]:
    """Every box a rule could mark: each body, then each index box."""
    return ([Unread(d.box, d.conf) for d in bodies]
            + [Unread(d.box, d.conf, "index") for d in indices])


class EveryBody:
    """A reader whose `unread` is every whole-card and index box its frame's detections
    hold, so an evaluation places each of them; `log` keeps each read's boxes and cards."""

    def __init__(self, reader: CardReader) -> None:
        self.reader = reader
        self.last: list[Detection] = []
        self.log: list[Logged] = []
        reader.add_callback("on_detect", self._seen)

    def _seen(self, dets: list[Detection]) -> None:
        self.last = dets

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)

    def read(self, image: Any, camera: str | None = None) -> ReadResult:
        result = self.reader.read(image, camera)
        bodies = [d for d in self.last if d.cls == CARD]
        indices = [d for d in self.last if d.cls == INDEX] if self.reader.two_stage else []
        self.log.append((bodies, indices, [*result.cards, *result.maybe]))
        return dataclasses.replace(result, unread=candidates(bodies, indices))


def marks_under(rule: UnreadRule, bodies: list[Detection], indices: list[Detection],
                read: list[PhysicalCard]) -> list[Unread]:
    """The marks `rule` makes on one frame, as the reader makes them."""
    marked = unread_cards(bodies, read, rule)
    return marked + unread_indices(indices, read, marked, rule)


def under(rule: UnreadRule, reads: list[SceneReads], log: list[Logged]) -> list[SceneReads]:
    """`reads` with each scene's marks those `rule` makes (their places kept from the read)."""
    out = []
    for scene, (bodies, indices, read) in zip(reads, log, strict=True):
        marked = set(marks_under(rule, bodies, indices, read))
        places = [p for m, p in zip(candidates(bodies, indices), scene.unread, strict=True)
                  if m in marked]
        out.append(dataclasses.replace(scene, unread=places))
    return out


def grid(index: bool) -> list[UnreadRule]:
    """The rules to score: the body rule's grid, or (`index`) the shipped body rule with
    each index confidence, none first."""
    if index:
        return [dataclasses.replace(RULE, index_conf=c) for c in INDEX_CONFS]
    return [UnreadRule(conf, share, iou) for conf, share, iou in
            itertools.product(CONFS, SHARES, IOUS)]


def sweep(name: str, reader: CardReader, run: Callable[[Any, list[SceneReads]], Any],
          out: Any, rules: list[UnreadRule]) -> None:
    """Read one set through `run(reader, reads)` and print the figures of each rule."""
    spy = EveryBody(reader)
    reads: list[SceneReads] = []
    run(spy, reads)
    reader.remove_callback("on_detect", spy._seen)
    none = measure(under(UnreadRule(conf=2.0, index_conf=2.0), reads, spy.log),
                   reader.calibration)
    out.write(f"\n{name}: {none.scenes} scenes, {none.with_error} with an error; no marks: "
              f"{none.silent} silent, no-error showing nothing {none.quiet}/"
              f"{none.scenes - none.with_error}; card boxes "
              f"{sum(len(b) for b, _, _ in spy.log)}, index boxes "
              f"{sum(len(i) for _, i, _ in spy.log)}\n")
    out.write("conf share iou index | marks: to fix / read right / elsewhere | silent | "
              "no error, nothing to check | with the hand's size: silent | nothing\n")
    for rule in rules:
        f = measure(under(rule, reads, spy.log), reader.calibration)
        m = f.marks
        flag = "  <- shipped" if rule == RULE else ""
        hands = (f"{f.silent_counted}/{f.hands} | {f.quiet_counted}/"
                 f"{f.hands - f.hands_with_error}" if f.hands else "- | -")
        out.write(f"{rule.conf:.1f} {rule.own_share:.1f} {rule.iou:.2f} "
                  f"{rule.index_conf:.2f} | {m.get('missed', 0)} / {m.get('read', 0)} / "
                  f"{m.get('elsewhere', 0)} | {f.silent} | "
                  f"{f.quiet}/{f.scenes - f.with_error} | {hands}{flag}\n")


def main(argv: list[str] | None = None) -> int:
    from scorekeeper_lab.evaluation.evaluate import eval_labelled, eval_synthetic
    from scorekeeper_lab.evaluation.fan_eval import eval_fans

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=Path, action="append", default=[])
    ap.add_argument("--fans", type=Path, action="append", default=[])
    ap.add_argument("--labelled", type=Path)
    ap.add_argument("--real", type=Path)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--index", action="store_true",
                    help="score index boxes' confidence under the shipped body rule")
    args = ap.parse_args(argv)
    reader = CardReader(args.models)
    rules = grid(args.index)
    for root in args.scenes:
        sweep(f"scenes {root}", reader,
              partial(lambda r, reads, root: eval_synthetic(r, root, args.limit, reads),
                      root=root), sys.stdout, rules)
    for root in args.fans:
        sweep(f"fans {root}", reader,
              partial(lambda r, reads, root: eval_fans(r, root, args.limit, reads),
                      root=root), sys.stdout, rules)
    if args.labelled is not None:
        sweep(f"labelled {args.labelled}", reader,
              lambda r, reads: eval_labelled(r, args.labelled, args.real, None, reads),
              sys.stdout, rules)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
