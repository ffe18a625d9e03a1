"""The second classifier: a reader for the corners the first turns down.

The shipped classifier was taught an index whose suit pip is covered as no card, so it
refuses most corners of a tight fan. Taught to read them (readable corners and tight fans),
a classifier reads those fans far better but misreads more of an unseen design's whole
indices (RECORD.md). Asked only about the crops the first
answers `none` or under its threshold, and counted only where it is sure, it keeps every
figure of the first and adds what it reads of the fans. Trained in a second stage
on those doubted crops alone (and a tenth of the rest), as the reader asks it, it reads
more of them (the record's s6, the shipped second).

    python -m scorekeeper_lab.training.second --work data/model-work --models models

renders the scenes it learns from into WORK, trains it from the models' classifier (all
crops, then the doubted ones with one more folder of font-deck fans), chooses its
threshold on WORK/val (`choose_threshold`) and names it in model.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from scorekeeper_lab.training.mixed_precision import cpu_has_bf16

FILE = "cards-cls-fans.onnx"
# the thresholds tried, least first; declared before the held-out figures were read
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)


@dataclass(frozen=True)
class SecondPlan:
    """What the shipped second classifier was trained on (the record's s6). Stage one: readable
    random scenes, tight fans of the art decks in `fan_folders` folders and one of fans
    printed in the 12 procedural font decks, all crops, from the first classifier. Stage
    two: those and `font_folders - 1` more font-deck folders, only the crops the first
    doubts and `keep_sure` of the rest, from stage one."""

    readable_scenes: int = 6000
    fan_scenes: int = 2000  # a folder
    fan_folders: int = 3
    font_folders: int = 2
    val_scenes: int = 200
    epochs: int = 2
    doubted_epochs: int = 3  # as many samples as stage one's
    keep_sure: float = 0.1
    lr: float = 5e-3  # the warm plan's one-cycle peak
    readable_copies: int = 8  # readable corners are ~1.5 % of the crops otherwise
    seed: int = 31


def log(msg: str) -> None:
    print(f"[second] {msg}", file=sys.stderr, flush=True)


def _synth(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "scorekeeper_lab.training.synth", *args], check=True)


def _rendered(folder: Path) -> int:
    return len(list((folder / "images").glob("*.jpg"))) if folder.exists() else 0


def render_scenes(work: Path, plan: SecondPlan) -> tuple[list[Path], list[Path], Path]:
    """Readable random scenes and tight fans of the training designs (stage one's folders,
    and the font-deck folders stage two adds), and readable validation scenes (each
    skipped when already rendered)."""
    readable, val = work / "second-readable", work / "second-val"
    workers = str(os.cpu_count() or 1)
    if _rendered(readable) < plan.readable_scenes:
        _synth("render", "--out", str(readable), "--count", str(plan.readable_scenes),
               "--size", "640", "--decks", "train", "--seed", str(plan.seed),
               "--workers", workers, "--font-decks", "12", "--readable")
    fans = []
    for k in range(plan.fan_folders + plan.font_folders):  # the last: the font decks' fans
        folder = work / f"second-fans-{k}"
        fonts = ["--font-decks", "12"] if k >= plan.fan_folders else []
        if _rendered(folder) < plan.fan_scenes:
            _synth("fans", "--out", str(folder), "--count", str(plan.fan_scenes),
                   "--decks", "train", "--seed", str(plan.seed + 10 + k), *fonts)
        fans.append(folder)
    if _rendered(val) < plan.val_scenes:
        _synth("render", "--out", str(val), "--count", str(plan.val_scenes), "--size", "640",
               "--decks", "train", "--seed", str(plan.seed + 1), "--workers", workers,
               "--readable")
    first = plan.fan_folders + min(plan.font_folders, 1)
    return [readable, *fans[:first]], fans[first:], val


def train_second(models: Path, scenes: list[Path], more: list[Path], val: Path,
                 plan: SecondPlan) -> dict:
    """The models' classifier trained further on `scenes`, then on the crops of `scenes`
    and `more` its first classifier doubts → models/FILE (and .pt, .json)."""
    from scorekeeper_lab.training import classifier_train
    from scorekeeper_lab.training.crops import training_crops

    # one crop seed a folder, as analyses.train_classifier cuts them with a cache a folder
    parts = [training_crops([f], val, 1, [None], plan.readable_copies) for f in scenes + more]
    vx, vy = parts[0][2], parts[0][3]
    x, y = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    first = sum(len(p[0]) for p in parts[:len(scenes)])  # stage one's: a view, not a copy
    first_x, first_y = x[:first], y[:first]
    log(f"stage one: {len(first_x)} training crops, {len(vx)} validation crops")
    out = models / FILE
    train = partial(classifier_train.train, seed=3, val=(vx, vy), lr=plan.lr,
                    width=classifier_train.recorded_width(models), bf16=cpu_has_bf16())
    train(first_x, first_y, out, epochs=plan.epochs, init=models / "cards-cls.pt")
    keep = doubted(models, x, plan.keep_sure, seed=3)
    log(f"stage two: {len(keep)} of {len(x)} crops doubted by the first or kept")
    stats = train(x[keep], y[keep], out, epochs=plan.doubted_epochs, init=out.with_suffix(".pt"))
    out.with_suffix(".json").write_text(json.dumps(stats, indent=1))
    store_half(out)
    return stats


def doubted(models: Path, x: np.ndarray, keep: float, seed: int = 0,
            batch: int = 2048) -> np.ndarray:
    """The indices of the crops `x` (N × 48 × 48 × 3, BGR) the models' first classifier
    answers `none` or under its card threshold, as the reader reads them, and `keep` of the
    rest drawn at random: the crops the second is asked about at the table, and enough of
    the others to keep what it reads of them."""
    from scorekeeper.vision.classifier import first_doubts
    from scorekeeper.vision.reader import CardReader

    reader = CardReader(models)  # its first classifier and threshold, as model.json sets them
    assert reader.classifier is not None
    doubt = np.zeros(len(x), bool)
    for i in range(0, len(x), batch):
        answers = reader.classifier.classify(list(x[i:i + batch]))
        doubt[i:i + len(answers)] = [first_doubts(a, reader.min_prob) for a in answers]
    rest = np.flatnonzero(~doubt)
    kept = np.random.default_rng(seed).choice(len(rest), round(keep * len(rest)), replace=False)
    return np.sort(np.concatenate([np.flatnonzero(doubt), rest[kept]]))


def _with_second(models: Path, into: Path, min_prob: float | None) -> Path:
    """A copy of `models` (no PyTorch or NCNN files) whose model.json names the second
    at `min_prob`, or names none (None)."""
    shutil.copytree(models, into, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    name_second(into, min_prob, {})
    return into


def choose_threshold(models: Path, val: Path, scenes: int = 200
                     ) -> tuple[float | None, dict[str, float]]:
    """The least of THRESHOLDS at which the validation scenes (training designs) are read
    at least as precisely as by the first classifier alone; None when none is. The
    held-out design is never looked at here."""
    from scorekeeper.vision.reader import CardReader
    from scorekeeper_lab.evaluation.evaluate import eval_synthetic

    precision: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for t in (None, *THRESHOLDS):
            folder = _with_second(models, Path(tmp) / f"m{t}", t)
            precision[str(t)] = eval_synthetic(CardReader(folder), val, scenes)["precision"]
            log(f"second at {t}: validation precision {precision[str(t)]}")
            if t is not None and precision[str(t)] >= precision["None"]:
                return t, precision
    return None, precision


def name_second(models: Path, min_prob: float | None, record: dict) -> None:
    """Write the second (or its absence) into models/model.json."""
    path = models / "model.json"
    meta = json.loads(path.read_text())
    meta["classifier"].pop("second", None)
    if min_prob is not None:
        meta["classifier"]["second"] = {"onnx": FILE, "min_prob": min_prob, "training": record}
    path.write_text(json.dumps(meta, indent=1) + "\n")


def build_second(work: Path, models: Path, plan: SecondPlan = SecondPlan()) -> float | None:
    scenes, more, val = render_scenes(work, plan)
    stats = train_second(models, scenes, more, val, plan)
    min_prob, precision = choose_threshold(models, work / "val", plan.val_scenes)
    name_second(models, min_prob, {"scenes": [str(s) for s in scenes + more],
                                   "epochs": [plan.epochs, plan.doubted_epochs],
                                   "lr": plan.lr, "val_acc": stats.get("val_acc"),
                                   "validation_precision": precision})
    log(f"threshold {min_prob}" if min_prob is not None else
        "no threshold keeps the first's validation precision: no second named")
    return min_prob


def store_half(path: Path) -> None:
    """Keep the network's weights in float16 (half the file), each cast back to float32
    once when the runtime loads it, so it still computes in float32: the second classifier
    is read beside the first, and the model stays within its size (models/README.md)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    casts, kept = [], []
    for init in graph.initializer:
        w = numpy_helper.to_array(init)
        if init.data_type != TensorProto.FLOAT or w.size < 256:
            kept.append(init)
            continue
        half = numpy_helper.from_array(w.astype(np.float16), init.name + "_half")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, required=True,
                    help="the `make model` work folder (its val/ chooses the threshold)")
    ap.add_argument("--models", type=Path, required=True)
    ap.add_argument("--readable-scenes", type=int, default=SecondPlan.readable_scenes)
    ap.add_argument("--fan-scenes", type=int, default=SecondPlan.fan_scenes,
                    help="fans a folder (the art decks' folders and the font decks')")
    ap.add_argument("--fan-folders", type=int, default=SecondPlan.fan_folders)
    ap.add_argument("--font-folders", type=int, default=SecondPlan.font_folders)
    ap.add_argument("--val-scenes", type=int, default=SecondPlan.val_scenes)
    ap.add_argument("--epochs", type=int, default=SecondPlan.epochs)
    ap.add_argument("--doubted-epochs", type=int, default=SecondPlan.doubted_epochs)
    args = ap.parse_args(argv)
    if not (args.work / "val" / "cards").is_dir():
        ap.error(f"{args.work / 'val'}: no validation scenes (`make model` renders them)")
    plan = SecondPlan(readable_scenes=args.readable_scenes, fan_scenes=args.fan_scenes,
                      fan_folders=args.fan_folders, font_folders=args.font_folders,
                      val_scenes=args.val_scenes, epochs=args.epochs,
                      doubted_epochs=args.doubted_epochs)
    build_second(args.work, args.models, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
