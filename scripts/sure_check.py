"""Does reading crops upright first change any reading? (`classifier.sure`, reader.SURE)

Cuts every index crop the reader classifies on the given image folders (its detections,
second look included), reads each at four turns and with the upright screening at each
threshold asked for, and counts the crops whose decision (card or not, which card, at the
model's card threshold) differs, with the share of looks the screening costs:

    .venv/bin/python scripts/sure_check.py data/model-work/test/images \\
        data/model-work/test-legacy/images ../shared/data/real-photos-dev/images \\
        benchmarks/frames [--models DIR] [--sure 0.9 0.95 0.98]

Run it again on a new classifier before keeping its `sure`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.reader import MODELS, CardReader, load_image

SUFFIXES = {".jpg", ".jpeg", ".png"}


def decisions(p: np.ndarray, threshold: float) -> np.ndarray:
    best = p.argmax(1)
    return np.where(p[np.arange(len(best)), best] >= threshold, best, -1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--sure", type=float, nargs="+", default=[0.9, 0.95, 0.98])
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None
    for folder in args.folders:
        crops = []
        for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in SUFFIXES):
            image = load_image(path)
            dets, _ = reader.detect(image)
            crops += [crop_index(image, d.box) for d in dets if d.cls == INDEX]
        turns = np.stack([reader.classifier.probabilities(crops, (k,)) for k in range(4)])
        average = turns.mean(0)
        four = decisions(average, reader.min_prob)
        for sure in args.sure:
            confident = turns[0].max(1) >= sure
            mixed = np.where(confident[:, None], turns[0], average)
            changed = int((decisions(mixed, reader.min_prob) != four).sum())
            looks = (len(crops) + 3 * int((~confident).sum())) / (4 * len(crops))
            print(f"{folder}: {len(crops)} crops, sure {sure}: {changed} decisions change, "
                  f"{looks:.2f} of the looks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
