"""Which answer should the scan review offer for a corner both classifiers doubt?

    .venv/bin/python -m scorekeeper_lab.analyses.offer_rules SCENES [--fans] \
        [--limit N] [--models models]

A corner the first classifier reads under its card threshold, and the second does not read
surely either, is offered to the players as a "maybe" (one tap adds it). For each rule
below this reads the scenes with the reader's first steps (detect, classify, the second
classifier; not the looks at a hand, so its figures stay comparable across readers) and
counts the offers by where they lie: on a card
the reader missed (naming it: one tap fixes it; or naming another), on a card it read right
(its other corner), on a card the figure does not ask for (a fan card 40 % or more covered,
an index under 60 % in view: naming it or another), or on no card:

- `first`: the first's answer, from `MAYBE_PROB` (0.3) up;
- `surer`: the second's answer where it names a card more surely than the first does (or
  the first answers no card), from `MAYBE_PROB` up; the first's elsewhere (the reader's
  rule, `classifier.offered`);
- `second`: the second's answer wherever it names a card from `MAYBE_PROB` up; the first's
  elsewhere.

`--fans`: fan scenes (`synth fans`), asking for the cards under 40 % covered, as the fan
benchmark's clean-scene count does; else rendered scenes, every card with an index in view.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from scorekeeper.vision.classes import CARD, INDEX
from scorekeeper.vision.classifier import (
    Answer,
    crop_index,
    first_doubts,
    offered,
    second_counts,
)
from scorekeeper.vision.matching import match_reads
from scorekeeper.vision.pairing import IndexReading, pair_indices
from scorekeeper.vision.reader import MAYBE_PROB, MODELS, CardReader, _maybe, load_image
from scorekeeper_lab.evaluation.evaluate import read_labels
from scorekeeper_lab.evaluation.fan_eval import asked_truth, fan_truth

RULES = ("first", "surer", "second")


def offer(rule: str, first: Answer, second: Answer | None) -> Answer | None:
    """The answer offered for a doubted corner under `rule` (`second` None: not asked);
    None where it names no card from `MAYBE_PROB` up. `surer` is the reader's rule."""
    if rule == "surer":
        return offered(first, second, MAYBE_PROB)
    pick = first if (rule == "first" or second is None or second[0] == "none"
                     or second[1] < MAYBE_PROB) else second
    return pick if pick[0] != "none" and pick[1] >= MAYBE_PROB else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", type=Path)
    ap.add_argument("--fans", action="store_true")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--models", type=Path, default=MODELS)
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None and reader.second is not None
    tally: dict[str, Counter[str]] = {rule: Counter() for rule in RULES}
    missed_total = 0
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        truth = asked_truth(read_labels(meta), args.fans)
        image = load_image(args.scenes / "images" / f"{meta.stem}.jpg")
        dets, _ = reader.detect(image)
        index_dets = [d for d in dets if d.cls == INDEX]
        cards = [d for d in dets if d.cls == CARD]
        crops = [crop_index(image, d.box) for d in index_dets]
        firsts = reader.classifier.classify(crops)
        doubted = [i for i, a in enumerate(firsts) if first_doubts(a, reader.min_prob)]
        seconds: dict[int, Answer] = dict(zip(
            doubted, reader.second.classify([crops[i] for i in doubted]), strict=True))
        by_second = {i for i, a in seconds.items() if second_counts(a, reader.second_min_prob)}
        labels = [seconds[i] if i in by_second else a for i, a in enumerate(firsts)]
        readings = [IndexReading(d, code, p) for d, (code, p) in zip(index_dets, labels,
                    strict=True) if code != "none" and p >= reader.min_prob]
        found = pair_indices(readings, cards)
        ids = list(truth)
        matched = match_reads(found, [(truth[c]["card"], truth[c]["boxes"]) for c in ids])
        missed = {c for k, c in enumerate(ids) if truth[c]["asked"] and (
            matched.hits.get(k) is None or matched.hits[k].card != truth[c]["card"])}
        missed_total += len(missed)
        every = fan_truth(read_labels(meta))  # every card with a corner in view
        every_ids = list(every)
        for rule in RULES:
            doubtful = []
            for i, d in enumerate(index_dets):
                if i in by_second or i not in seconds:
                    continue  # read by the second, or read surely by the first
                answer = offer(rule, firsts[i], seconds.get(i))
                if answer is not None:
                    doubtful.append(IndexReading(d, *answer))
            offers = _maybe(doubtful, cards, found)
            on = match_reads(offers, [(every[c]["card"], every[c]["boxes"]) for c in every_ids])
            t = tally[rule]
            t["offered"] += len(offers)
            t["on no card"] += len(on.strays)
            for k, card in on.hits.items():
                cid = every_ids[k]
                right = card.card == every[cid]["card"]
                if cid in missed:
                    t["missed: names it" if right else "missed: another"] += 1
                elif cid in truth and truth[cid]["asked"]:
                    t["on a card read right"] += 1
                else:
                    t["not asked: names it" if right else "not asked: another"] += 1
    print(f"{args.scenes}: {missed_total} cards missed or misread")
    keys = ("offered", "missed: names it", "missed: another", "on a card read right",
            "not asked: names it", "not asked: another", "on no card")
    print("| offer | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for rule in RULES:
        print(f"| {rule} | " + " | ".join(str(tally[rule][k]) for k in keys) + " |")


if __name__ == "__main__":
    main()
