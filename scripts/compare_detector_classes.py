"""Index detector + crop classifier (what ships) against a detector whose classes are the cards.

Both detectors are YOLO11n from its yaml, trained on the same rendered scenes, at the same
size, batch and augmentation, for the same number of minutes on this machine. They are
scored per labelled index on the held-out deck's scenes: an index is read exactly when a
detection overlaps it (IoU ≥ 0.3) and names its card (the 53-class detector by its class,
ours by the classifier on the crop); a detection that overlaps no index, or names the
wrong card, is false. Pairing corners into cards is the same for both, so it is left out.

    .venv/bin/python scripts/compare_detector_classes.py --minutes 10 --images 1000

Uses the scenes `make model` rendered (data/model-work) and the shipped classifier
(models/cards-cls.onnx), which had its own training time: the figures say how fast each
detector learns per CPU minute, the budget that decides a 2-core machine's design.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.vision.classes import CARD_CODES, DETECTOR_CLASSES  # noqa: E402
from scorekeeper.vision.classifier import IndexClassifier, crop_index  # noqa: E402
from scorekeeper.vision.synth.dataset import class_names, read_labels, yolo_lines  # noqa: E402
from scorekeeper.vision.synth.index_box import iou  # noqa: E402
from scorekeeper.vision.train import _detector_stage  # noqa: E402


def relabel(src: Path, dst: Path, classes: str, limit: int) -> Path:
    """`dst/{images,labels}`: the first `limit` scenes of `src`, labelled for `classes`."""
    (dst / "images").mkdir(parents=True, exist_ok=True)
    (dst / "labels").mkdir(exist_ok=True)
    size = tuple(json.loads((src / "dataset.json").read_text())["size"])
    for meta in sorted((src / "cards").glob("*.json"))[:limit]:
        image = dst / "images" / f"{meta.stem}.jpg"
        if not image.exists():
            image.symlink_to((src / "images" / f"{meta.stem}.jpg").resolve())
        lines = yolo_lines(read_labels(meta), size, classes)  # type: ignore[arg-type]
        (dst / "labels" / f"{meta.stem}.txt").write_text("\n".join(lines) + "\n")
    return dst


def data_yaml(train: Path, val: Path, names: list[str], path: Path) -> Path:
    listed = "\n".join(f"  {i}: {n}" for i, n in enumerate(names))
    path.write_text(f"train: {(train / 'images').resolve()}\nval: {(val / 'images').resolve()}"
                    f"\nnames:\n{listed}\n")
    return path


def score(weights: Path, classes: str, test: Path, limit: int, conf: float,
          classifier: IndexClassifier) -> dict:
    from scorekeeper.vision.detectors.pytorch import TorchConfig, TorchDetector

    names = DETECTOR_CLASSES if classes == "detector" else (*CARD_CODES, "card")
    det = TorchDetector(TorchConfig(path=weights, conf=conf), tuple(names))
    labelled = predicted = correct = 0
    for meta in sorted((test / "cards").glob("*.json"))[:limit]:
        image = cv2.imread(str(test / "images" / f"{meta.stem}.jpg"))
        truth = [o for o in read_labels(meta) if o["kind"] == "index"]
        found = [d for d in det.detect(image) if names[d.cls] != "card"]
        if classes == "detector":
            reads = [c for c, _ in classifier.classify([crop_index(image, d.box) for d in found])]
        else:
            reads = [names[d.cls] for d in found]
        kept = [(d, r) for d, r in zip(found, reads, strict=True) if r != "none"]
        labelled += len(truth)
        predicted += len(kept)
        free = list(range(len(truth)))
        for d, code in sorted(kept, key=lambda dr: -dr[0].conf):
            best = max(free, key=lambda i: iou(d.box, tuple(truth[i]["box"])), default=None)
            if best is not None and iou(d.box, tuple(truth[best]["box"])) >= 0.3:
                free.remove(best)
                correct += code == truth[best]["card"]
    return {"labelled": labelled, "predicted": predicted, "read_exactly": correct,
            "recall": round(correct / max(1, labelled), 4),
            "false_rate": round((predicted - correct) / max(1, predicted), 4)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work", type=Path, default=ROOT / "data" / "model-work")
    ap.add_argument("--models", type=Path, default=ROOT / "models")
    ap.add_argument("--minutes", type=float, default=10.0, help="training time per detector")
    ap.add_argument("--images", type=int, default=1000, help="training scenes")
    ap.add_argument("--val", type=int, default=50)
    ap.add_argument("--test", type=int, default=100, help="held-out scenes scored")
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--conf", type=float, default=0.25)
    args = ap.parse_args()
    out = args.work / "compare"
    classifier = IndexClassifier(args.models / "cards-cls.onnx")
    results = {}
    for classes in ("detector", "cards"):
        root = out / classes
        train = relabel(args.work / "train", root / "train", classes, args.images)
        val = relabel(args.work / "val", root / "val", classes, args.val)
        yaml = data_yaml(train, val, class_names(classes), root / "data.yaml")
        best = _detector_stage(f"{classes}-{args.minutes:g}min", "yolo11n.yaml", yaml,
                               root / "runs", args.imgsz, 100, 16, 1.0, args.minutes,
                               pretrained=False, seed=0, close_mosaic=1)
        weights = best if best.exists() else best.with_name("last.pt")
        results[classes] = score(weights, classes, args.work / "test", args.test, args.conf,
                                 classifier)
        print(classes, json.dumps(results[classes]), flush=True)
    (out / f"results-{args.minutes:g}min.json").write_text(json.dumps(
        {"args": {k: str(v) for k, v in vars(args).items()}, "cpus": os.cpu_count(),
         **results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
