"""Hard negatives for the index classifier: what a detector boxes that is no index.

    .venv/bin/python -m scorekeeper_lab.analyses.mine_negatives --models data/models-d1 \\
        --scenes data/work15/train-r --limit 3000 --out data/work15/neg-d1.npz [--copies 2]

A detector taught covered corners also boxes glyph-like print beside an index (a piece of a
jack's court picture), and the classifier, which never saw such a crop as `none`, reads it
as a card (20 false jokers on the held-out game tables, RECORD.md). The random background
`crops_from_dataset` cuts rarely lands there, so this cuts what the detector itself boxes:
each index detection of the reader's own looks that meets no labelled corner (index,
readable, covered or partial: IoU under 0.1 with each, and its centre in none) is cut as
the classifier cuts, `--copies` jittered times, labelled `none`, into an .npz that
`scorekeeper_lab.analyses.train_classifier --negatives` adds to its crops. Mine scenes of
the training
designs only: the held-out scenes and the game tables are measurements.

Measured (RECORD.md): taught these, the classifier still reads
d1's boxes on the held-out design's court pictures as jokers (20 false cards on its game
tables become 16): what fools it there is that design's art, which no mining of the
training designs shows it. Game tables in the detector's own scenes did more (7).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

import numpy as np

from scorekeeper.vision.classes import INDEX, NONE
from scorekeeper.vision.classifier import CROP, crop_index
from scorekeeper.vision.reader import CardReader, load_image
from scorekeeper_lab.evaluation.evaluate import read_labels
from scorekeeper_lab.training.crops import jitter
from scorekeeper_lab.training.synth.index_box import iou

CORNER_KINDS = {"index", "readable", "covered", "partial"}


def _meets(box: tuple[float, float, float, float], corner: list[float]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    inside = corner[0] <= cx <= corner[2] and corner[1] <= cy <= corner[3]
    x1, y1, x2, y2 = corner
    return inside or iou(box, (x1, y1, x2, y2)) >= 0.1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, required=True, help="the detector to mine")
    ap.add_argument("--scenes", type=Path, nargs="+", required=True)
    ap.add_argument("--limit", type=int, default=None, help="scenes per folder")
    ap.add_argument("--copies", type=int, default=2)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    reader = CardReader(args.models)
    assert reader.classifier is not None, "a two-stage model (index detector + classifier)"
    xs: list[np.ndarray] = []
    read_as: Counter[str] = Counter()
    scenes = 0
    for folder in args.scenes:
        for meta in sorted((folder / "cards").glob("*.json"))[:args.limit]:
            image = load_image(folder / "images" / f"{meta.stem}.jpg")
            corners = [o["box"] for o in read_labels(meta) if o["kind"] in CORNER_KINDS]
            strays = [d.box for d in reader.detect(image)[0]
                      if d.cls == INDEX and not any(_meets(d.box, c) for c in corners)]
            scenes += 1
            if not strays:
                continue
            for (code, prob) in reader.classifier.classify([crop_index(image, b)
                                                            for b in strays]):
                read_as["sure card" if code != "none" and prob >= reader.min_prob
                        else "card, unsure" if code != "none" else "none"] += 1
            for box in strays:
                xs.extend(crop_index(image, jitter(box, rng, 0.12))
                          for _ in range(args.copies))
    # an empty file keeps the crops' shape, so `train_classifier.py --negatives` still joins it
    x = np.stack(xs) if xs else np.zeros((0, CROP, CROP, 3), np.uint8)
    np.savez(args.out, x=x, y=np.full(len(xs), NONE, dtype=np.int64))
    print(f"{scenes} scenes: {sum(read_as.values())} detections on no corner "
          f"({dict(read_as)} by the models' own classifier); {len(xs)} crops -> {args.out}")


if __name__ == "__main__":
    main()
