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
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from scorekeeper.vision.classes import DETECTOR_CLASSES
from scorekeeper_lab import REPO
from scorekeeper_lab.training.classifier_train import recorded_width
from scorekeeper_lab.training.mixed_precision import cpu_has_bf16

ROOT = REPO
DATA = ROOT / "data"
MODELS = ROOT / "models"
# detector stages after the first; ultralytics' optimizer=auto (what trained the shipped
# model) ignores lr0 and starts each stage's AdamW at 0.00167 for this data
STAGE_LR = (0.005, 0.002, 0.001)


def log(msg: str) -> None:
    print(f"[make model {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def render(split: str, out: Path, count: int, size: int, seed: int,
           fallback: bool = False, font_decks: int = 0, legacy: bool = False) -> None:
    """Render a split's scenes unless they are on disk. `font_decks` procedural designs join
    the art decks; `legacy` draws the earlier generator's scenes (the old held-out set)."""
    decks = "fallback" if fallback else "test" if split.startswith("test") else "train"
    have = len(list((out / "images").glob("*.jpg"))) if out.exists() else 0
    if have >= count:
        log(f"{split}: {have} images already rendered")
        return
    log(f"rendering {count} {split} scenes at {size}px into {out}")
    subprocess.run([sys.executable, "-m", "scorekeeper_lab.training.synth", "render",
                    "--out", str(out),
                    "--count", str(count), "--size", str(size), "--decks", decks,
                    "--seed", str(seed), "--workers", str(os.cpu_count() or 1),
                    "--font-decks", str(font_decks), *(["--legacy"] if legacy else [])],
                   check=True)


def write_data_yaml(train: Path, val: Path, path: Path,
                    classes: Sequence[str] = DETECTOR_CLASSES) -> Path:
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(classes))
    tr, va = (train / "images").resolve(), (val / "images").resolve()
    path.write_text(f"train: {tr}\nval: {va}\nnames:\n{names}\n")
    return path


def _loader_workers(device: int | str) -> int:
    """On CPU the trainer loads in the main process; a GPU needs every core feeding it.

    SCOREKEEPER_LOADER_WORKERS overrides, for machines whose shared memory cannot hold
    worker batches."""
    if "SCOREKEEPER_LOADER_WORKERS" in os.environ:
        return int(os.environ["SCOREKEEPER_LOADER_WORKERS"])
    return 0 if device == "cpu" else min(16, os.cpu_count() or 1)


# no flips: a mirrored glyph is not a card; no rotation: scenes already hold every angle
AUGMENT = {"fliplr": 0.0, "flipud": 0.0, "degrees": 0.0, "mosaic": 1.0, "scale": 0.35,
           "translate": 0.1, "hsv_h": 0.02, "hsv_s": 0.5, "hsv_v": 0.4}


def _detector_stage(name: str, start: str, data_yaml: Path, runs: Path, imgsz: int,
                    epochs: int, batch: int, fraction: float, minutes: float,
                    bf16: bool = False, **stage: object) -> Path:
    """One detector stage in `runs/name`: skipped when done, resumed when stopped.

    `minutes` > 0 fits the schedule to a time budget instead of an epoch count
    (ultralytics re-plans its epochs after the first) and validates only at the end.
    `bf16`: train in bfloat16 on a CPU that has it (see `build_model`).
    """
    from scorekeeper.vision.ultralytics_env import prepare
    from scorekeeper_lab.training.mixed_precision import allow_ultralytics_cpu_bf16, skip_amp_check

    prepare()
    import torch
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = os.cpu_count() or 1
    torch.set_num_threads(os.cpu_count() or 1)
    skip_amp_check()
    allow_ultralytics_cpu_bf16()  # also for a resumed bfloat16 stage
    run = runs / name
    last, best = run / "weights" / "last.pt", run / "weights" / "best.pt"
    if (run / "done").exists() and best.exists():
        log(f"detector stage {name} already trained")
        return best
    device = 0 if torch.cuda.is_available() else "cpu"
    amp = "bf16" if bf16 and device == "cpu" else device != "cpu"
    workers = _loader_workers(device)
    if last.exists():
        log(f"resuming detector stage {name} from {last}")
        YOLO(str(last)).train(resume=True, workers=workers, device=device)
    else:
        plan = f"{minutes:g} min" if minutes else f"{epochs} epochs"
        log(f"detector stage {name} from {start}: {plan} at {imgsz}px on {device}")
        budget = {"time": minutes / 60} if minutes else {}
        YOLO(start).train(
            data=str(data_yaml), imgsz=imgsz, epochs=epochs, batch=batch, workers=workers,
            device=device, project=str(runs.resolve()), name=name, exist_ok=True,
            cache=device != "cpu", val=not minutes, **budget, amp=amp,
            plots=False, fraction=fraction, patience=0, deterministic=False, **AUGMENT,
            **stage)
    (run / "done").write_text("ok\n")
    return best


def train_detector(data_yaml: Path, runs: Path, imgsz: int, epochs: int, batch: int,
                   fraction: float = 1.0, minutes: float = 0.0, bf16: bool = False) -> Path:
    """YOLO11n from its yaml (no downloaded weights)."""
    return _detector_stage("detector", "yolo11n.yaml", data_yaml, runs, imgsz, epochs, batch,
                           fraction, minutes, bf16, pretrained=False, seed=0,
                           close_mosaic=3 if minutes else max(1, epochs // 5))


def continue_detector(start: Path, data_yaml: Path, runs: Path, imgsz: int, epochs: int,
                      batch: int, fraction: float = 1.0, name: str = "detector-2",
                      lr0: float = 0.005, minutes: float = 0.0, bf16: bool = False,
                      optimizer: str = "auto") -> Path:
    """A further, shorter schedule from the last stage's weights: a fresh warm-up and decay.

    Splitting training in stages lets a 2-core machine stop after any of them with a
    usable model, and resume each stage on its own. ultralytics' `optimizer="auto"` ignores
    `lr0`: AdamW at a rate of its own under 10 000 planned steps, SGD at 0.01 over them.
    """
    return _detector_stage(name, str(start), data_yaml, runs, imgsz, epochs, batch, fraction,
                           minutes, bf16, close_mosaic=1, lr0=lr0, warmup_epochs=0.5, seed=1,
                           optimizer=optimizer)


def train_classifier(train: Path, val: Path, out: Path, epochs: int, seed: int, *,
                     limit: int | None, extra_epochs: tuple[int, ...], width: int,
                     per_index: int, batch: int, lr: float, bf16: bool = False,
                     init: Path | None = None) -> dict:
    """The plan's classifier stage (its sizes: `Plan.cls_*`), skipped when already trained.

    `init`: start from these weights (a warm start) instead of from nothing."""
    from scorekeeper_lab.training import classifier_train
    from scorekeeper_lab.training.crops import crops_from_dataset

    stats_path = out.with_suffix(".json")
    if out.exists() and stats_path.exists():
        log("classifier already trained")
        return json.loads(stats_path.read_text())
    rng = random.Random(seed)
    log("cutting classifier crops from the rendered scenes")
    workers = os.cpu_count() or 1
    x, y = crops_from_dataset(train, rng, per_index=per_index, limit=limit, workers=workers)
    vx, vy = crops_from_dataset(val, rng, per_index=1, workers=workers)
    log(f"{len(x)} training crops, {len(vx)} validation crops")
    stats = classifier_train.train(x, y, out, epochs=epochs, seed=seed, val=(vx, vy),
                                   width=width, batch=batch, lr=lr, bf16=bf16, init=init)
    stages = [stats]
    for stage, stage_epochs in enumerate(extra_epochs, start=2):
        # each further stage: a fresh, gentler one-cycle schedule from the last weights
        previous = out.with_name(f"{out.stem}-{stage - 1}.pt")
        out.with_suffix(".pt").replace(previous)
        stages.append(classifier_train.train(x, y, out, epochs=stage_epochs, seed=seed + stage,
                                             val=(vx, vy), init=previous, lr=lr / 10,
                                             width=width, batch=batch, bf16=bf16))
    stats = {**stages[-1], "stages": stages[:-1]} if len(stages) > 1 else stats
    stats_path.write_text(json.dumps(stats, indent=1))
    return stats


NCNN_IMGSZ = 960  # NCNN runs at one size: 0.75 × the long side of a 1280 × 960 camera frame


def export_detector(best: Path, imgsz: int, models: Path = MODELS,
                    ncnn: bool = True) -> dict[str, str | int]:
    from scorekeeper.vision.ultralytics_env import prepare

    prepare()
    from ultralytics import YOLO

    models.mkdir(parents=True, exist_ok=True)
    pt = models / "cards-det.pt"
    shutil.copy(best, pt)
    # dynamic input: the reader sizes each frame's input to keep cards at the trained scale
    onnx = Path(YOLO(str(pt)).export(format="onnx", imgsz=imgsz, simplify=True, dynamic=True))
    files: dict[str, str | int] = {"pt": pt.name, "onnx": onnx.name}
    if not ncnn:
        return files
    try:
        ncnn_dir = Path(YOLO(str(pt)).export(format="ncnn", imgsz=NCNN_IMGSZ))
        # ultralytics' example script loads this machine's absolute paths: not for shipping
        (ncnn_dir / "model_ncnn.py").unlink(missing_ok=True)
        files["ncnn"] = ncnn_dir.name
        files["ncnn_imgsz"] = NCNN_IMGSZ
    except Exception as exc:  # noqa: BLE001 - NCNN is optional off the Pi; ONNX serves everywhere
        log(f"NCNN export failed ({exc}); ONNX and PyTorch still ship")
    return files


RESERVE_MINUTES = 7.0  # detector's final validation, export and eval: ~2 min measured


@dataclass(frozen=True)
class Plan:
    """Sizes of one `make model` run: the CPU plan (the shipped model) ends within 2 hours
    on 2 cores, cpu-long is an early model's longer schedule, and the GPU plan is what
    a GPU machine (16 cores feeding it) trains in about 10 minutes."""

    train_images: int = 3000
    val_images: int = 200
    test_images: int = 300
    size: int = 640
    imgsz: int = 416
    epochs: int = 5
    extra_epochs: tuple[int, ...] = (4,)
    minutes: float = 0.0  # > 0: the detector trains for this long instead of `epochs`
    # > 0: the whole run (art to evaluation) fits this many minutes: the first detector
    # stage gets what the earlier stages left, less RESERVE_MINUTES for export and eval
    budget_minutes: float = 0.0
    fraction: float = 0.7
    batch: int = 16
    cls_epochs: int = 10
    cls_extra_epochs: tuple[int, ...] = (4,)
    cls_images: int | None = None
    cls_width: int = 16
    cls_per_index: int = 1
    cls_batch: int = 64
    cls_lr: float = 2e-2  # the one-cycle peak; measured best of 3e-3 … 2e-2 (models/README)
    seed: int = 0
    # both networks in bfloat16 where the CPU computes it natively (training/mixed_precision.py)
    bf16: bool = False
    # procedural deck designs printed in the installed fonts, beside the art decks
    # (training scenes only; synth/fontdeck.py)
    font_decks: int = 12
    fallback: bool = False


PLANS = {
    # one classifier schedule, then one detector schedule sized to end the run by 1 h 55 min
    "cpu": Plan(extra_epochs=(), cls_epochs=22, cls_extra_epochs=(), budget_minutes=115),
    # the shipped model: the cpu plan in bfloat16 (~1.7× the classifier's and ~1.6× the
    # detector's steps per minute), 32 classifier epochs, the rest to the detector, in 90
    # minutes (84.4 min measured on 2 cores)
    "cpu-bf16": Plan(extra_epochs=(), cls_epochs=32, cls_extra_epochs=(), budget_minutes=90,
                     bf16=True),
    # an early model's schedule: three detector and three classifier stages (~3.3 h)
    "cpu-long": Plan(extra_epochs=(4, 20), cls_extra_epochs=(4, 7)),
    # a warm start (`--init models`): the shipped networks trained further on freshly
    # rendered scenes, the classifier at a quarter of the peak rate for 14 epochs, the
    # detector for what a 75-minute run leaves
    "cpu-bf16-warm": Plan(extra_epochs=(), cls_epochs=14, cls_extra_epochs=(), cls_lr=5e-3,
                          budget_minutes=75, bf16=True),
    "gpu": Plan(train_images=8000, val_images=300, epochs=60, extra_epochs=(), minutes=5.5,
                fraction=1.0, batch=64, cls_epochs=16, cls_extra_epochs=(), cls_width=24,
                cls_per_index=1, cls_batch=512),
}


def detector_minutes(plan: Plan, started: float) -> float:
    """The first detector stage's time budget: the plan's own, or what the run has left."""
    if plan.minutes or not plan.budget_minutes:
        return plan.minutes
    left = plan.budget_minutes - RESERVE_MINUTES - (time.time() - started) / 60
    if left < 5:
        raise RuntimeError(f"only {left:.1f} min left for the detector in a "
                           f"{plan.budget_minutes:g}-minute run: raise --budget-minutes")
    return round(left, 1)


def build_model(work: Path, models: Path, plan: Plan, *, ncnn: bool = True,
                stages: str = "all", started: float | None = None,
                init: Path | None = None) -> dict:
    """Every stage, each skipped when its output exists; returns the model.json written.

    `stages` runs only "classifier" or "detector" (a GPU machine runs both at once), or
    "export" (detector weights trained elsewhere → runtime files and model.json).
    `init`: a model folder whose networks both stages start from (a warm start).
    """
    start = time.time()
    started = start if started is None else started
    bf16 = plan.bf16 and cpu_has_bf16()
    if plan.bf16 and not bf16:
        log("this CPU has no native bfloat16: training in float32")
    train, val, test = work / "train", work / "val", work / "test"
    if stages != "export":
        render("train", train, plan.train_images, plan.size, plan.seed, plan.fallback,
               0 if plan.fallback else plan.font_decks)
        render("val", val, plan.val_images, plan.size, plan.seed + 1, plan.fallback)
    if stages == "all":
        render("test", test, plan.test_images, plan.size, plan.seed + 2, plan.fallback)
        render("test-legacy", work / "test-legacy", plan.test_images, plan.size,
               plan.seed + 2, plan.fallback, legacy=True)
    data_yaml = write_data_yaml(train, val, work / "data.yaml")
    cls_stats: dict = {}
    if stages in ("all", "classifier"):
        cls_stats = train_classifier(
            train, val, models / "cards-cls.onnx", plan.cls_epochs, plan.seed,
            limit=plan.cls_images, extra_epochs=plan.cls_extra_epochs, width=plan.cls_width,
            per_index=plan.cls_per_index, batch=plan.cls_batch, lr=plan.cls_lr, bf16=bf16,
            init=init / "cards-cls.pt" if init else None)
        if stages == "classifier":
            return cls_stats
    last_stage = f"detector-{len(plan.extra_epochs) + 1}" if plan.extra_epochs else "detector"
    best = work / "runs" / last_stage / "weights" / "best.pt"
    if stages != "export":
        if init:
            best = continue_detector(init / "cards-det.pt", data_yaml, work / "runs",
                                     plan.imgsz, plan.epochs, plan.batch, plan.fraction,
                                     name="detector", lr0=STAGE_LR[1],
                                     minutes=detector_minutes(plan, started), bf16=bf16)
        else:
            best = train_detector(data_yaml, work / "runs", plan.imgsz, plan.epochs,
                                  plan.batch, plan.fraction, detector_minutes(plan, started),
                                  bf16)
        # further stages, each a fresh short schedule at a lower rate: 0.005, 0.003, ...
        for stage, stage_epochs in enumerate(plan.extra_epochs, start=2):
            best = continue_detector(best, data_yaml, work / "runs", plan.imgsz, stage_epochs,
                                     plan.batch, plan.fraction, name=f"detector-{stage}",
                                     lr0=STAGE_LR[min(stage - 2, len(STAGE_LR) - 1)],
                                     bf16=bf16)
        if stages == "detector":
            return {"best": str(best)}
    stats_path = models / "cards-cls.json"
    if not cls_stats and stats_path.exists():
        cls_stats = json.loads(stats_path.read_text())
    files = export_detector(best, plan.imgsz, models, ncnn)
    meta = {
        "runtime": "onnx",
        "detector": {"names": list(DETECTOR_CLASSES), "imgsz": plan.imgsz, "infer_imgsz": 0,
                     "scale": 0.75, "conf": 0.25, **files},
        "classifier": {"onnx": "cards-cls.onnx", "crop": 48, "turns": True},
        "training": {**{k: v for k, v in asdict(plan).items() if k != "fallback"},
                     "detector_results": _results_rows(best),
                     "classifier": cls_stats, "seconds": round(time.time() - start),
                     "init": str(init) if init else None},
    }
    text = json.dumps(meta, indent=1) + "\n"
    (models / "model.json").write_text(text)
    return json.loads(text)  # as the reader will see it (tuples become lists)


def _results_rows(best: Path) -> list[str]:
    """The per-epoch figures of every detector stage, kept with the shipped model."""
    rows: list[str] = []
    for results in sorted(best.parents[2].glob("detector*/results.csv")):
        rows += results.read_text().splitlines()
    return rows


def evaluate_model(models: Path, test: Path) -> dict:
    from scorekeeper.vision.reader import CardReader
    from scorekeeper_lab.evaluation.evaluate import (
        eval_real,
        eval_synthetic,
        format_report,
        legacy_set,
    )

    reader = CardReader(models)
    metrics = {"held_out_deck": eval_synthetic(reader, test)}
    if (legacy := legacy_set(test)) is not None:
        metrics["held_out_deck_legacy"] = eval_synthetic(reader, legacy)
    metrics["real_photos"] = eval_real(reader)
    (models / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    for name, s in metrics.items():
        print(format_report(name, s))
    return metrics


def make_plan(name: str, overrides: dict[str, Any], init: Path | None = None) -> Plan:
    """The named plan with the command line's sizes; a warm start from `init` keeps its
    classifier's width unless one is given (a plan's wider one is grown by `widen`)."""
    if init is not None and "cls_width" not in overrides:
        overrides = {**overrides,
                     "cls_width": max(PLANS[name].cls_width, recorded_width(init))}
    return replace(PLANS[name], **overrides)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="make model")
    ap.add_argument("--plan", choices=["auto", *PLANS], default="auto",
                    help="sizes: 'gpu' when CUDA is present (auto), else 'cpu-bf16' on a "
                         "CPU with native bfloat16, else 'cpu'")
    ap.add_argument("--stages", choices=["all", "classifier", "detector", "export", "second"],
                    default="all", help="second: the classifier for covered corners, trained "
                    "from --models' classifier (training/second.py); not part of all")
    ap.add_argument("--no-eval", action="store_true", help="skip the evaluation")
    ap.add_argument("--work", type=Path, default=DATA / "model-work")
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--skip-art", action="store_true")
    ap.add_argument("--init", type=Path, default=None,
                    help="a model folder to start both networks from (a warm start; "
                         "its .pt files), e.g. models")
    for field in fields(Plan):  # every size can be overridden: --train-images 500 ...
        if field.name != "fallback":
            flag = "--" + field.name.replace("_", "-")
            kinds: dict[str, Callable[[str], Any]] = {"tuple[int, ...]": int, "int | None": int,
                                                       "bool": _yes}
            kind = kinds.get(str(field.type), type(field.default))
            nargs = "*" if str(field.type).startswith("tuple") else None
            ap.add_argument(flag, type=kind, nargs=nargs, default=None)
    args = ap.parse_args(argv)
    name = args.plan if args.plan != "auto" else default_plan()
    overrides = {f.name: getattr(args, f.name) for f in fields(Plan)
                 if f.name != "fallback" and getattr(args, f.name) is not None}
    for key in ("extra_epochs", "cls_extra_epochs"):
        if key in overrides:
            overrides[key] = tuple(overrides[key])
    plan = make_plan(name, overrides, args.init)
    if args.stages == "second":
        from scorekeeper_lab.training.second import build_second

        build_second(args.work, args.models)
        return 0
    log(f"plan {name}: {plan}")
    start = time.time()
    if not args.skip_art:
        subprocess.run(["bash", str(ROOT / "scripts" / "install_card_art.sh")], check=True)
    if args.init and args.init.resolve() == args.models.resolve():
        # the networks are written into --models as they finish: start from a copy
        copy = args.work / "init"
        copy.mkdir(parents=True, exist_ok=True)
        for name in ("cards-cls.pt", "cards-det.pt"):
            if not (copy / name).exists():
                shutil.copy(args.init / name, copy / name)
        args.init = copy
    build_model(args.work, args.models, plan, stages=args.stages, started=start,
                init=args.init)
    if args.stages in ("all", "export") and not args.no_eval:
        log("evaluating")
        render("test", args.work / "test", plan.test_images, plan.size, plan.seed + 2)
        render("test-legacy", args.work / "test-legacy", plan.test_images, plan.size,
               plan.seed + 2, legacy=True)
        evaluate_model(args.models, args.work / "test")
    log(f"done in {(time.time() - start) / 60:.1f} min")
    return 0


def default_plan() -> str:
    """The shipped model's plan where this machine can run it, else the nearest one."""
    return "gpu" if _has_cuda() else "cpu-bf16" if cpu_has_bf16() else "cpu"


def _yes(text: str) -> bool:
    """A plan's on/off size from the command line: `--bf16 true` or `--bf16 0`."""
    if text.lower() not in {"1", "0", "true", "false", "yes", "no", "on", "off"}:
        raise argparse.ArgumentTypeError(f"{text!r}: say true or false")
    return text.lower() in {"1", "true", "yes", "on"}


def _has_cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


if __name__ == "__main__":
    raise SystemExit(main())
