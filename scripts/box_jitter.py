"""Is a small index lost to the detector's box, or to what its pixels show?

For every labelled corner index of rendered scenes that the reader's detector finds (IoU
≥ 0.5), by its size, the first classifier reads the crop of the detector's box (as the
reader does), the average of seven boxes jittered about it (12 % shifts, 0.88× and 1.15×),
and the crop of the labelled box (a perfect detector's): read right at the card threshold,
and false (another card at the threshold). The last column is the detector's box side over
the label's, averaged.

    PYTHONPATH=. .venv/bin/python scripts/box_jitter.py data/model-work/test2 --limit 300
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from scorekeeper.training.synth.index_box import iou
from scorekeeper.vision.classes import CLASSIFIER_CLASSES, INDEX
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.evaluate import SIZE_BUCKETS, _bucket, read_labels
from scorekeeper.vision.reader import MODELS, CardReader, load_image

Box = tuple[float, float, float, float]
JITTER = ((0, 0, 1.0), (-.12, 0, 1), (.12, 0, 1), (0, -.12, 1), (0, .12, 1), (0, 0, .88),
          (0, 0, 1.15))
WAYS = ("detector's box", "7 boxes averaged", "label box")


def jittered(box: Box, dx: float, dy: float, scale: float) -> Box:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx, cy = (x1 + x2) / 2 + dx * w, (y1 + y2) / 2 + dy * h
    return (cx - scale * w / 2, cy - scale * h / 2, cx + scale * w / 2, cy + scale * h / 2)


def _side(box: Box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--limit", type=int, default=300)
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None, "a two-stage model (index detector + classifier)"
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    ratio: dict[str, float] = defaultdict(float)
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        image = load_image(args.scenes / "images" / f"{meta.stem}.jpg")
        found = [d for d in reader.detect(image)[0] if d.cls == INDEX]
        for o in (o for o in read_labels(meta) if o["kind"] == "index"):
            box: Box = tuple(o["box"])
            best = max(found, key=lambda d: iou(d.box, box), default=None)
            if best is None or iou(best.box, box) < 0.5:
                continue
            size = _bucket(_side(box))
            counts[size]["detected"] += 1
            ratio[size] += _side(best.box) / _side(box)
            crops = [crop_index(image, jittered(best.box, *j)) for j in JITTER]
            p = reader.classifier.probabilities([*crops, crop_index(image, box)])
            for way, q in zip(WAYS, (p[0], p[:-1].mean(0), p[-1]), strict=True):
                k = int(np.argmax(q))
                sure = q[k] >= reader.min_prob
                counts[size][f"{way}: read"] += sure and CLASSIFIER_CLASSES[k] == o["card"]
                counts[size][f"{way}: false"] += sure and CLASSIFIER_CLASSES[k] not in (
                    "none", o["card"])
    keys = ["detected", *(f"{w}: {k}" for w in WAYS for k in ("read", "false"))]
    print("| index size | " + " | ".join(keys) + " | detector / label side |")
    print("|---" * (len(keys) + 2) + "|")
    for size in (_bucket(lo) for lo, _ in SIZE_BUCKETS):
        c = counts.get(size)
        if c:
            cells = " | ".join(str(c[k]) for k in keys)
            print(f"| {size} | {cells} | {ratio[size] / c['detected']:.2f} |")


if __name__ == "__main__":
    main()
