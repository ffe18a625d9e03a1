"""Train the index classifier alone, from nothing or from weights, on crops of rendered scenes.

    .venv/bin/python -m scorekeeper_lab.analyses.train_classifier --out data/models-s32 \\
        --scenes data/model-work-c/train data/model-work-c/train2 --val data/model-work-c/val \\
        --width 32 --epochs 12 [--lr 2e-2] [--seed 3] [--init models/cards-cls.pt]

`make model` trains the classifier inside its 2-hour plan, on the scenes it renders; this
trains it on scenes already rendered (`python -m scorekeeper_lab.training.synth render`), as
many folders as given, for a longer schedule than that plan affords. It writes
`cards-cls.onnx`, `cards-cls.pt` and the training record `cards-cls.json` (whose `width` the
deck adaptation reads) into `--out`; the other files of a model folder are copied from
`--base` where `--out` lacks them, so `scorekeeper-lab eval --models OUT` measures it at once.
`--cache FILE.npz` keeps the cut crops for the next run (cutting 12 000 scenes' takes a few
minutes; the file is about 1.7 GB); with one file per `--scenes` folder, a folder added to
an earlier run's reuses that run's file. `--negatives` adds crops labelled `none` that
`scorekeeper_lab.analyses.mine_negatives` cut where a detector boxes what is no index.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import numpy as np

from scorekeeper_lab import REPO
from scorekeeper_lab.training import classifier_train
from scorekeeper_lab.training.crops import training_crops
from scorekeeper_lab.training.mixed_precision import cpu_has_bf16

ROOT = REPO


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--scenes", type=Path, nargs="+", required=True)
    ap.add_argument("--val", type=Path, required=True)
    ap.add_argument("--base", type=Path, default=ROOT / "models",
                    help="the model folder whose other files (detector, model.json) --out gets")
    ap.add_argument("--width", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-2, help="the one-cycle peak")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--crop-seed", type=int, default=1)
    ap.add_argument("--init", type=Path, default=None, help="weights to start from (.pt)")
    ap.add_argument("--cache", type=Path, nargs="+", default=[],
                    help="an .npz of the cut crops, or one per --scenes folder")
    ap.add_argument("--readable-copies", type=int, default=1,
                    help="jittered crops of each corner labelled readable (render --readable)")
    ap.add_argument("--negatives", type=Path, nargs="+", default=[],
                    help="mined `none` crops (scorekeeper_lab.analyses.mine_negatives) to add")
    ap.add_argument("--doubted-by", type=Path, default=None, metavar="MODELS",
                    help="train on the crops MODELS' first classifier answers `none` or "
                         "under its threshold (what a second classifier is asked about)")
    ap.add_argument("--keep-sure", type=float, default=0.1,
                    help="with --doubted-by: the share of the other crops kept")
    ap.add_argument("--hard-looks", type=float, default=0.0,
                    help="share of each batch shown as the real photos' worst corners look")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for f in args.base.iterdir():
        if f.is_file() and not (args.out / f.name).exists():
            shutil.copy(f, args.out / f.name)
    x, y, vx, vy = training_crops(args.scenes, args.val, args.crop_seed, args.cache,
                                  args.readable_copies)
    for mined in args.negatives:
        z = np.load(mined)
        x, y = np.concatenate([x, z["x"]]), np.concatenate([y, z["y"]])
    if args.doubted_by is not None:  # the crops a second classifier is asked about
        from scorekeeper_lab.training.second import doubted

        keep = doubted(args.doubted_by, x, args.keep_sure, args.seed)
        print(f"{len(keep)} of {len(x)} crops doubted by {args.doubted_by} or kept", flush=True)
        x, y = x[keep], y[keep]
    print(f"{len(x)} training crops, {len(vx)} validation crops", flush=True)
    stats = classifier_train.train(x, y, args.out / "cards-cls.onnx", epochs=args.epochs,
                                   seed=args.seed, val=(vx, vy), width=args.width, batch=64,
                                   lr=args.lr, bf16=cpu_has_bf16(), init=args.init,
                                   hard=args.hard_looks)
    stats["scenes"] = [str(p) for p in args.scenes]
    (args.out / "cards-cls.json").write_text(json.dumps(stats, indent=1))
    print(json.dumps({k: v for k, v in stats.items() if k != "history"}))


if __name__ == "__main__":
    main()
