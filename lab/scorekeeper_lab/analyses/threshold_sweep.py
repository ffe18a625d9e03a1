"""Pick the detector threshold on validation scenes (training decks) and the dev photos.

    .venv/bin/python -m scorekeeper_lab.analyses.threshold_sweep 0.1 0.15 0.2 0.25 0.3 0.4
        [--min-prob 0.4 0.5] [--index-px 0 24 28] [--max-scale 1.0 1.25] [--scale 0.75 1.0]
        [--models models] [--val data/model-work/val] [--scenes 100]

`--min-prob` also sweeps the classifier's answer threshold (model.json: classifier.min_prob);
`--index-px` and `--max-scale` the second look at frames with small indices
(model.json: detector.index_px, 0 for none, and detector.max_scale; see vision/refocus.py);
`--scale` the detector's first-look input size (detector.scale × the frame's long side);
`--second-prob` the answer from which the second classifier's reading of a crop the first
turns down counts (classifier.second.min_prob; the model folder must name a second).

Tuned here, never on the held-out deck, which stays the test set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import tempfile
from pathlib import Path

from scorekeeper.vision.reader import MODELS, CardReader
from scorekeeper_lab.evaluation.evaluate import eval_real, eval_synthetic

VAL = MODELS.parent / "data" / "model-work" / "val"


def main() -> None:
    ap = argparse.ArgumentParser(description="detector threshold sweep")
    ap.add_argument("thresholds", type=float, nargs="+")
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--val", type=Path, default=VAL)
    ap.add_argument("--min-prob", type=float, nargs="*", default=[])
    ap.add_argument("--index-px", type=float, nargs="*", default=[])
    ap.add_argument("--max-scale", type=float, nargs="*", default=[])
    ap.add_argument("--scale", type=float, nargs="*", default=[])
    ap.add_argument("--second-prob", type=float, nargs="*", default=[])
    ap.add_argument("--scenes", type=int, default=100, help="validation scenes to read")
    args = ap.parse_args()
    grid = itertools.product(args.thresholds, args.min_prob or [None], args.index_px or [None],
                             args.max_scale or [None], args.scale or [None],
                             args.second_prob or [None])
    for conf, min_prob, index_px, max_scale, scale, second in grid:
        with tempfile.TemporaryDirectory() as tmp:
            models = Path(tmp) / "models"
            shutil.copytree(args.models, models)
            meta = json.loads((models / "model.json").read_text())
            settings = {("detector", "conf"): conf, ("classifier", "min_prob"): min_prob,
                        ("detector", "index_px"): index_px,
                        ("detector", "max_scale"): max_scale, ("detector", "scale"): scale}
            for (part, key), value in settings.items():
                if value is not None:
                    meta[part][key] = value
            if second is not None:
                meta["classifier"]["second"]["min_prob"] = second
            (models / "model.json").write_text(json.dumps(meta))
            reader = CardReader(models)
            val, real = eval_synthetic(reader, args.val, args.scenes), eval_real(reader)
        mean = (val["f1"] + real["f1"]) / 2
        print(f"conf {conf} min_prob {reader.min_prob} index_px {reader.index_px} "
              f"max_scale {reader.max_scale} scale {reader.scale} "
              f"second {reader.second_min_prob if reader.second else None}: "
              f"validation P {val['precision']} "
              f"R {val['recall']} F1 {val['f1']} | real P {real['precision']} "
              f"R {real['recall']} F1 {real['f1']} | mean F1 {mean:.4f}", flush=True)


if __name__ == "__main__":
    main()
