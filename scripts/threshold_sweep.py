"""Pick the detector threshold on validation scenes (training decks) and the dev photos.

    .venv/bin/python scripts/threshold_sweep.py 0.1 0.15 0.2 0.25 0.3 0.4
        [--models models] [--val data/model-work/val]

Tuned here, never on the held-out deck, which stays the test set.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

from scorekeeper.vision.evaluate import eval_real, eval_synthetic
from scorekeeper.vision.reader import MODELS, CardReader

VAL = MODELS.parent / "data" / "model-work" / "val"


def main() -> None:
    ap = argparse.ArgumentParser(description="detector threshold sweep")
    ap.add_argument("thresholds", type=float, nargs="+")
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--val", type=Path, default=VAL)
    args = ap.parse_args()
    for conf in args.thresholds:
        with tempfile.TemporaryDirectory() as tmp:
            models = Path(tmp) / "models"
            shutil.copytree(args.models, models)
            meta = json.loads((models / "model.json").read_text())
            meta["detector"]["conf"] = conf
            (models / "model.json").write_text(json.dumps(meta))
            reader = CardReader(models)
            val, real = eval_synthetic(reader, args.val, 100), eval_real(reader)
        print(f"conf {conf}: validation P {val['precision']} R {val['recall']} F1 {val['f1']}"
              f" | real P {real['precision']} R {real['recall']} F1 {real['f1']}", flush=True)


if __name__ == "__main__":
    main()
