"""`make model`: art → synthetic tables → detector + classifier → evaluation → export.

Every stage skips work already done, so a stopped run resumes where it was. Sizes are
chosen so the whole run fits in 2 hours on a 2-core CPU; a GPU is used when present.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from scorekeeper.vision.classes import DETECTOR_CLASSES

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
MODELS = ROOT / "models"
STAGE_LR = (0.005, 0.003, 0.002)  # detector stages after the first: each starts lower


def log(msg: str) -> None:
    print(f"[make model {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def render(split: str, out: Path, count: int, size: int, seed: int,
           fallback: bool = False) -> None:
    decks = "fallback" if fallback else "test" if split == "test" else "train"
    have = len(list((out / "images").glob("*.jpg"))) if out.exists() else 0
    if have >= count:
        log(f"{split}: {have} images already rendered")
        return
    log(f"rendering {count} {split} scenes at {size}px into {out}")
    subprocess.run([sys.executable, "-m", "scorekeeper.vision.synth", "render", "--out", str(out),
                    "--count", str(count), "--size", str(size), "--decks", decks,
                    "--seed", str(seed), "--workers", str(min(2, os.cpu_count() or 1))],
                   check=True)


def write_data_yaml(train: Path, val: Path, path: Path) -> Path:
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(DETECTOR_CLASSES))
    tr, va = (train / "images").resolve(), (val / "images").resolve()
    path.write_text(f"train: {tr}\nval: {va}\nnames:\n{names}\n")
    return path


def train_detector(data_yaml: Path, runs: Path, imgsz: int, epochs: int, batch: int,
                   fraction: float = 1.0) -> Path:
    from scorekeeper.vision.ultralytics_env import prepare

    prepare()
    import torch
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = os.cpu_count() or 1
    torch.set_num_threads(os.cpu_count() or 1)
    run = runs / "detector"
    last, best = run / "weights" / "last.pt", run / "weights" / "best.pt"
    done_marker = run / "done"
    if done_marker.exists() and best.exists():
        log("detector already trained")
        return best
    device = 0 if torch.cuda.is_available() else "cpu"
    if last.exists():
        log(f"resuming detector training from {last}")
        YOLO(str(last)).train(resume=True, workers=0, device=device)
    else:
        log(f"training detector yolo11n from scratch: {epochs} epochs at {imgsz}px on {device}")
        YOLO("yolo11n.yaml").train(
            data=str(data_yaml), imgsz=imgsz, epochs=epochs, batch=batch, workers=0,
            device=device, project=str(runs.resolve()), name="detector", exist_ok=True,
            pretrained=False,
            amp=device != "cpu", plots=False, fliplr=0.0, flipud=0.0, degrees=0.0,
            fraction=fraction, mosaic=1.0, close_mosaic=max(1, epochs // 5), scale=0.35,
            translate=0.1,
            hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, patience=0, seed=0, deterministic=False)
    done_marker.write_text("ok\n")
    return best


def continue_detector(start: Path, data_yaml: Path, runs: Path, imgsz: int, epochs: int,
                      batch: int, fraction: float = 1.0, name: str = "detector-2",
                      lr0: float = 0.005) -> Path:
    """A second, shorter schedule from the first one's weights: a fresh warm-up and decay.

    Splitting training in two lets a 2-core machine stop after either stage with a usable
    model, and resume each stage on its own.
    """
    from scorekeeper.vision.ultralytics_env import prepare

    prepare()
    import torch
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = os.cpu_count() or 1
    run = runs / name
    last, best = run / "weights" / "last.pt", run / "weights" / "best.pt"
    if (run / "done").exists() and best.exists():
        log(f"detector stage {name} already trained")
        return best
    device = 0 if torch.cuda.is_available() else "cpu"
    if last.exists():
        YOLO(str(last)).train(resume=True, workers=0, device=device)
    else:
        log(f"continuing the detector for {epochs} epochs from {start}")
        YOLO(str(start)).train(
            data=str(data_yaml), imgsz=imgsz, epochs=epochs, batch=batch, workers=0,
            device=device, project=str(runs.resolve()), name=name, exist_ok=True,
            amp=device != "cpu", plots=False, fliplr=0.0, flipud=0.0, degrees=0.0,
            fraction=fraction, mosaic=1.0, close_mosaic=1, scale=0.35, translate=0.1,
            hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, lr0=lr0, warmup_epochs=0.5, patience=0,
            seed=1, deterministic=False)
    (run / "done").write_text("ok\n")
    return best


def train_classifier(train: Path, val: Path, out: Path, epochs: int, seed: int,
                     limit: int | None = None, extra_epochs: int = 0) -> dict:
    from scorekeeper.vision import classifier_train
    from scorekeeper.vision.crops import crops_from_dataset

    stats_path = out.with_suffix(".json")
    if out.exists() and stats_path.exists():
        log("classifier already trained")
        return json.loads(stats_path.read_text())
    rng = random.Random(seed)
    log("cutting classifier crops from the rendered scenes")
    x, y = crops_from_dataset(train, rng, per_index=1, limit=limit)
    vx, vy = crops_from_dataset(val, rng, per_index=1)
    log(f"{len(x)} training crops, {len(vx)} validation crops")
    stats = classifier_train.train(x, y, out, epochs=epochs, seed=seed, val=(vx, vy))
    if extra_epochs:  # a second, gentler schedule from the first one's weights
        first = out.with_name(out.stem + "-first.pt")
        out.with_suffix(".pt").replace(first)
        more = classifier_train.train(x, y, out, epochs=extra_epochs, seed=seed + 1,
                                      val=(vx, vy), init=first, lr=1e-3)
        stats = {**more, "first": stats}
    stats_path.write_text(json.dumps(stats, indent=1))
    return stats


def export_detector(best: Path, imgsz: int, models: Path = MODELS,
                    ncnn: bool = True) -> dict[str, str]:
    from scorekeeper.vision.ultralytics_env import prepare

    prepare()
    from ultralytics import YOLO

    models.mkdir(parents=True, exist_ok=True)
    pt = models / "cards-det.pt"
    shutil.copy(best, pt)
    # dynamic input: the reader sizes each frame's input to keep cards at the trained scale
    onnx = Path(YOLO(str(pt)).export(format="onnx", imgsz=imgsz, simplify=True, dynamic=True))
    files = {"pt": pt.name, "onnx": onnx.name}
    if not ncnn:
        return files
    try:
        ncnn_dir = Path(YOLO(str(pt)).export(format="ncnn", imgsz=imgsz))
        files["ncnn"] = ncnn_dir.name
    except Exception as exc:  # NCNN is optional off the Pi; ONNX serves everywhere
        log(f"NCNN export failed ({exc}); ONNX and PyTorch still ship")
    return files


def build_model(work: Path, models: Path, *, train_images: int, val_images: int,
                test_images: int, size: int, imgsz: int, epochs: int, batch: int,
                fraction: float, cls_epochs: int, seed: int, cls_images: int | None = None,
                extra_epochs: tuple[int, ...] = (), cls_extra_epochs: int = 0,
                fallback: bool = False,
                ncnn: bool = True) -> dict:
    """Every stage, each skipped when its output exists; returns the model.json written."""
    start = time.time()
    train, val, test = work / "train", work / "val", work / "test"
    render("train", train, train_images, size, seed, fallback)
    render("val", val, val_images, size, seed + 1, fallback)
    render("test", test, test_images, size, seed + 2, fallback)
    data_yaml = write_data_yaml(train, val, work / "data.yaml")
    cls_stats = train_classifier(train, val, models / "cards-cls.onnx", cls_epochs, seed,
                                 cls_images, cls_extra_epochs)
    best = train_detector(data_yaml, work / "runs", imgsz, epochs, batch, fraction)
    # further stages, each a fresh short schedule at a lower rate: 0.005, 0.003, ...
    for stage, stage_epochs in enumerate(extra_epochs, start=2):
        best = continue_detector(best, data_yaml, work / "runs", imgsz, stage_epochs, batch,
                                 fraction, name=f"detector-{stage}",
                                 lr0=STAGE_LR[min(stage - 2, len(STAGE_LR) - 1)])
    files = export_detector(best, imgsz, models, ncnn)
    meta = {
        "runtime": "onnx",
        "detector": {"names": list(DETECTOR_CLASSES), "imgsz": imgsz, "infer_imgsz": 0,
                     "scale": 0.75, "conf": 0.25, **files},
        "classifier": {"onnx": "cards-cls.onnx", "crop": 48},
        "training": {"train_images": train_images, "fraction": fraction, "size": size,
                     "imgsz": imgsz, "epochs": epochs, "extra_epochs": list(extra_epochs),
                     "cls_epochs": cls_epochs, "cls_extra_epochs": cls_extra_epochs,
                     "classifier": cls_stats, "seconds": round(time.time() - start)},
    }
    (models / "model.json").write_text(json.dumps(meta, indent=1) + "\n")
    return meta


def evaluate_model(models: Path, test: Path) -> dict:
    from scorekeeper.vision.evaluate import eval_real, eval_synthetic, format_report
    from scorekeeper.vision.reader import CardReader

    reader = CardReader(models)
    metrics = {"held_out_deck": eval_synthetic(reader, test), "real_photos": eval_real(reader)}
    (models / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    for name, s in metrics.items():
        print(format_report(name, s))
    return metrics


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="make model")
    ap.add_argument("--train-images", type=int, default=3000)
    ap.add_argument("--val-images", type=int, default=200)
    ap.add_argument("--test-images", type=int, default=300)
    ap.add_argument("--size", type=int, default=640, help="rendered scene size")
    ap.add_argument("--imgsz", type=int, default=416, help="detector input size")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--extra-epochs", type=int, nargs="*", default=[4],
                    help="epochs of each detector stage after the first")
    ap.add_argument("--cls-extra-epochs", type=int, default=4,
                    help="classifier epochs continued at a lower rate")
    ap.add_argument("--fraction", type=float, default=0.7, help="share of images per epoch")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--cls-epochs", type=int, default=10)
    ap.add_argument("--cls-images", type=int, default=None, help="scenes cut into crops")
    ap.add_argument("--work", type=Path, default=DATA / "model-work")
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--skip-art", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    start = time.time()
    if not args.skip_art:
        subprocess.run(["bash", str(ROOT / "scripts" / "install_card_art.sh")], check=True)
    build_model(args.work, args.models, train_images=args.train_images,
                val_images=args.val_images, test_images=args.test_images, size=args.size,
                imgsz=args.imgsz, epochs=args.epochs, batch=args.batch,
                fraction=args.fraction, cls_epochs=args.cls_epochs, seed=args.seed,
                cls_images=args.cls_images, extra_epochs=tuple(args.extra_epochs),
                cls_extra_epochs=args.cls_extra_epochs)
    log("evaluating")
    evaluate_model(args.models, args.work / "test")
    log(f"done in {(time.time() - start) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
