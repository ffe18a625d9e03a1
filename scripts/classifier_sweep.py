"""Compare index-classifier designs and schedules on one small crop set, at equal cost.

    .venv/bin/python scripts/classifier_sweep.py [--work data/model-work] [--scenes 1200]
        [--epochs 6] [NAME ...]

Cuts crops from the first `--scenes` training scenes (and every validation scene) of a
`make model` work folder, trains each named setting for `--epochs`, and prints validation
accuracy per epoch (one look per crop, no turns) and the seconds taken. Settings are picked
on validation crops only; the held-out deck stays the test set. NAMEs: see SETTINGS.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper.vision import classifier_train
from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper.vision.crops import crops_from_dataset
from scorekeeper.vision.reader import MODELS


def full_resolution(width: int = 16) -> Any:
    """The 0.1.0 to 0.3.0 design: two convs at the crop's full 48 px, then 24, 12, 6."""
    from torch import nn

    w, block = width, classifier_train.conv_block
    return nn.Sequential(
        *block(3, w), *block(w, w), nn.MaxPool2d(2),
        *block(w, 2 * w), *block(2 * w, 2 * w), nn.MaxPool2d(2),
        *block(2 * w, 4 * w), *block(4 * w, 4 * w), nn.MaxPool2d(2),
        *block(4 * w, 8 * w), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(8 * w, len(CLASSIFIER_CLASSES)),
    )


# name → (design, width, one-cycle peak lr, batch)
SETTINGS: dict[str, tuple[Any, int, float, int]] = {
    "full-res": (full_resolution, 16, 3e-3, 128),
    "full-res-lr1e-2": (full_resolution, 16, 1e-2, 128),
    "stem2-lr1e-2": (classifier_train.build_model, 16, 1e-2, 128),
    "stem2-lr2e-2": (classifier_train.build_model, 16, 2e-2, 128),
    "stem2-w24-lr1e-2": (classifier_train.build_model, 24, 1e-2, 128),
    "stem2-b64-lr1e-2": (classifier_train.build_model, 16, 1e-2, 64),
    "stem2-b64-lr2e-2": (classifier_train.build_model, 16, 2e-2, 64),  # shipped
    "stem2-b32-lr1e-2": (classifier_train.build_model, 16, 1e-2, 32),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--work", type=Path, default=MODELS.parent / "data" / "model-work")
    ap.add_argument("--scenes", type=int, default=1200)
    ap.add_argument("--epochs", type=int, default=6)
    args = ap.parse_args()
    rng = random.Random(0)
    x, y = crops_from_dataset(args.work / "train", rng, limit=args.scenes, workers=2)
    vx, vy = crops_from_dataset(args.work / "val", rng, workers=2)
    print(f"{len(x)} training crops, {len(vx)} validation crops", flush=True)
    for name in args.names:
        design, width, lr, batch = SETTINGS[name]
        start = time.time()
        with tempfile.TemporaryDirectory() as tmp:
            stats = classifier_train.train(x, y, Path(tmp) / "cls.onnx", epochs=args.epochs,
                                           val=(vx, vy), lr=lr, batch=batch, width=width,
                                           design=design)
        print(json.dumps({"name": name, "seconds": round(time.time() - start),
                          "val": [round(h["val_acc"], 3) for h in stats["history"]]}),
              flush=True)


if __name__ == "__main__":
    main()
