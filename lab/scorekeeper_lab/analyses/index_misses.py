"""Where the held-out misses are, index by index: the detector, or the classifier?

    .venv/bin/python -m scorekeeper_lab.analyses.index_misses [--models models] \
        [--test data/model-work/test]
        [--limit 300] [--by size|visible]

For every labelled corner index of the held-out scenes, by its size: was it detected (a
detection with IoU ≥ 0.5), and was that detection's crop read right and sure enough to
count (the reader's min_prob), read right but too unsure, or misread? Detections are the
reader's own, second look included. And, for comparison, how often the classifier reads
the labelled box itself (a perfect detector's crop). `--by visible` groups the indices by
how much of them shows instead (an index is labelled from 60 % visible, when the suit pip
under the rank may already be covered).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from scorekeeper.vision.classes import INDEX, rank_of
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.reader import MODELS, CardReader, load_image
from scorekeeper_lab.evaluation.evaluate import SIZE_BUCKETS, read_labels, size_bucket
from scorekeeper_lab.training.synth.index_box import iou

OUTCOMES = ("read", "unsure", "misread", "of them suit only", "not detected",
            "labelled box read")
VISIBLE_FROM = (0.6, 0.8, 0.95)  # share of the index box in view; labelled from 0.6


def _visible_bucket(share: float) -> str:
    lo = max(v for v in VISIBLE_FROM if v <= max(share, VISIBLE_FROM[0]))
    hi = next((v for v in VISIBLE_FROM if v > lo), None)
    return f"≥ {lo:.0%} visible" if hi is None else f"{lo:.0%}–{hi:.0%} visible"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--test", type=Path, default=MODELS.parent / "data" / "model-work" / "test")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--by", choices=["size", "visible"], default="size")
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None, "a two-stage model (index detector + classifier)"
    counts: dict[str, Counter] = defaultdict(Counter)
    for meta in sorted((args.test / "cards").glob("*.json"))[:args.limit]:
        image = load_image(args.test / "images" / f"{meta.stem}.jpg")
        truth = [o for o in read_labels(meta) if o["kind"] == "index"]
        found = [d for d in reader.detect(image)[0] if d.cls == INDEX]
        reads = reader.classifier.classify([crop_index(image, d.box) for d in found])
        direct = reader.classifier.classify([crop_index(image, tuple(o["box"])) for o in truth])
        for o, (direct_code, _) in zip(truth, direct, strict=True):
            box = tuple(o["box"])
            c = counts[size_bucket(max(box[2] - box[0], box[3] - box[1])) if args.by == "size"
                       else _visible_bucket(o["visible"])]
            c["labelled"] += 1
            c["labelled box read"] += direct_code == o["card"]
            best = max(range(len(found)), key=lambda i: iou(found[i].box, box), default=None)
            if best is None or iou(found[best].box, box) < 0.5:
                c["not detected"] += 1
                continue
            code, p = reads[best]
            c["misread" if code != o["card"] else "read" if p >= reader.min_prob
              else "unsure"] += 1
            c["of them suit only"] += code != o["card"] and rank_of(code) == rank_of(o["card"])
    order = [size_bucket(lo) for lo, _ in SIZE_BUCKETS] if args.by == "size" else [
        _visible_bucket(lo) for lo in VISIBLE_FROM]
    rows = [(k, counts[k]) for k in order if k in counts]
    rows.append(("all", sum((c for _, c in rows), Counter())))
    print(f"| index {args.by} | indices | " + " | ".join(OUTCOMES) + " |")
    print("|---" * (len(OUTCOMES) + 2) + "|")
    for name, c in rows:
        cells = [f"{c[k] / c['labelled']:.1%}" for k in OUTCOMES]
        print(f"| {name} | {c['labelled']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
