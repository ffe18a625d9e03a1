"""Train the detector further on scenes already rendered, optionally finding readable corners.

    .venv/bin/python -m scorekeeper_lab.analyses.train_detector --out data/models-d1 \\
        --scenes data/work15/train-r --val data/work15/val-r --readable \\
        --init models/cards-det.pt --minutes 45 [--base DIR]

`make model` trains the detector inside its 2-hour plan, on the scenes it renders; this
continues one (`continue_detector`: a fresh warm-up and decay) on scenes rendered with
`python -m scorekeeper_lab.training.synth render`, for a time budget. `--readable` writes the
scenes' detector labels again with each corner labelled readable (`render --readable`: part
of it hidden, the card still told by what shows) as an index, so the detector learns the
corners a tight fan leaves; without it the labels are the render's own. The dataset is
written under `--work` as hard links to the scenes' images beside new label files (a
symlinked folder would lead ultralytics back to the render's labels). `--out` gets
`cards-det.pt` and `cards-det.onnx`, and the other files of a model folder from `--base`,
so `scorekeeper-lab eval --models OUT` measures it at once (NCNN is not exported: measure
first, export when it ships).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from scorekeeper_lab import REPO
from scorekeeper_lab.training.mixed_precision import cpu_has_bf16
from scorekeeper_lab.training.synth.dataset import class_names, yolo_lines
from scorekeeper_lab.training.train import continue_detector, export_detector, write_data_yaml

ROOT = REPO


def relabel(scenes: list[Path], out: Path, readable: bool, classes: str = "detector") -> int:
    """`out/images` (hard links) and `out/labels` for every scene of `scenes` (one whose
    labels were never written, a render stopped mid-scene, is left out); returns the number
    of index boxes the labels hold."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    boxes = 0
    card = len(class_names(classes)) - 1
    for n, folder in enumerate(scenes):
        w, h = json.loads((folder / "dataset.json").read_text())["size"]
        for image in sorted((folder / "images").glob("*.jpg")):
            name = f"{n}-{image.stem}"
            meta = folder / "cards" / f"{image.stem}.json"
            if not meta.exists():
                continue
            lines = yolo_lines(json.loads(meta.read_text()), (w, h), classes, readable=readable)
            boxes += sum(not line.startswith(f"{card} ") for line in lines)
            (out / "labels" / f"{name}.txt").write_text("".join(f"{line}\n" for line in lines))
            link = out / "images" / f"{name}.jpg"
            if not link.exists():
                os.link(image, link)
    return boxes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--scenes", type=Path, nargs="+", required=True)
    ap.add_argument("--val", type=Path, required=True)
    ap.add_argument("--work", type=Path, default=None,
                    help="where the relabelled dataset and runs go (default: OUT/work)")
    ap.add_argument("--base", type=Path, default=ROOT / "models",
                    help="the model folder whose other files (classifier, model.json) --out gets")
    ap.add_argument("--init", type=Path, default=ROOT / "models" / "cards-det.pt")
    ap.add_argument("--readable", action="store_true")
    ap.add_argument("--classes", default="detector", choices=["detector", "cards"],
                    help="the detector's classes: index and card (the reader's classifier "
                         "names the card), or the 53 cards and card (the detector names it)")
    ap.add_argument("--minutes", type=float, default=45.0)
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr0", type=float, default=0.002)
    ap.add_argument("--optimizer", default="AdamW",
                    help="ultralytics' optimizer; its 'auto' ignores --lr0 (SGD at 0.01 when "
                         "the planned steps exceed 10 000, as a time budget's 100 epochs do)")
    ap.add_argument("--no-export", action="store_true",
                    help="leave only OUT/cards-det.pt (a machine without onnxslim: export "
                         "elsewhere with --stages export)")
    args = ap.parse_args()
    work = args.work or args.out / "work"
    args.out.mkdir(parents=True, exist_ok=True)
    for f in args.base.iterdir():
        if f.is_file() and not (args.out / f.name).exists():
            shutil.copy(f, args.out / f.name)
    train_boxes = relabel(args.scenes, work / "train", args.readable, args.classes)
    val_boxes = relabel([args.val], work / "val", args.readable, args.classes)
    print(f"index boxes: {train_boxes} training, {val_boxes} validation", flush=True)
    data_yaml = write_data_yaml(work / "train", work / "val", work / "data.yaml",
                                class_names(args.classes))
    best = continue_detector(args.init, data_yaml, work / "runs", args.imgsz, epochs=100,
                             batch=args.batch, lr0=args.lr0, minutes=args.minutes,
                             bf16=cpu_has_bf16(), optimizer=args.optimizer)
    if not best.exists():  # a run stopped before its first fitness: its last weights
        best = best.with_name("last.pt")
    if args.no_export:
        shutil.copy(best, args.out / "cards-det.pt")
        return
    files = export_detector(best, args.imgsz, args.out, ncnn=False)
    print(json.dumps(files))


if __name__ == "__main__":
    main()
