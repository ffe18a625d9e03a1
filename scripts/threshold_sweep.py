"""Pick the detector threshold on validation scenes (training decks) and the dev photos.

    .venv/bin/python scripts/threshold_sweep.py 0.1 0.15 0.2 0.25 0.3 0.4

Tuned here, never on the held-out deck, which stays the test set.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from scorekeeper.vision.evaluate import eval_real, eval_synthetic
from scorekeeper.vision.reader import MODELS, CardReader

VAL = MODELS.parent / "data" / "model-work" / "val"


def main(thresholds: list[float]) -> None:
    for conf in thresholds:
        with tempfile.TemporaryDirectory() as tmp:
            models = Path(tmp) / "models"
            shutil.copytree(MODELS, models)
            meta = json.loads((models / "model.json").read_text())
            meta["detector"]["conf"] = conf
            (models / "model.json").write_text(json.dumps(meta))
            reader = CardReader(models)
            val, real = eval_synthetic(reader, VAL, 100), eval_real(reader)
        print(f"conf {conf}: validation P {val['precision']} R {val['recall']} F1 {val['f1']}"
              f" | real P {real['precision']} R {real['recall']} F1 {real['f1']}", flush=True)


if __name__ == "__main__":
    main([float(c) for c in sys.argv[1:]])
