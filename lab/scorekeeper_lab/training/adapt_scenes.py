"""`deck adapt --scenes` (experimental): learn a deck where its cards are lost, from scenes
rendered from its enrolled indices (module docstring of `training.adapt`)."""

from __future__ import annotations

import os
import random
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import cv2
import numpy as np

from scorekeeper.decks.examples import (
    centre_crop,
    kept_photos,
    load_crops,
)
from scorekeeper.decks.profile import DeckError, DeckProfile
from scorekeeper_lab.training.adapt import (
    BATCH,
    MIN_EXAMPLES,
    SYNTHETIC,
    Cancelled,
    Outcome,
    Report,
    fine_tune,
    no_report,
    other_designs,
    trainable,
)
from scorekeeper_lab.training.adapt_check import (
    CLASS_OF,
    HeldPhoto,
    Reads,
    figures,
    held_photos,
    load_photos,
    photo_rivals,
    photos_line,
    photos_note,
    read_photos,
    refusal,
    split_examples,
)
from scorekeeper_lab.training.looks import augment

if TYPE_CHECKING:
    from scorekeeper_lab.training.synth.compose import Style

DECK_SCENES_PER_MINUTE = 50  # scenes of the deck rendered per minute of the run
OTHER_SCENES = 0.5  # scenes of other designs per scene of the deck: so they are not forgotten
CHECK_SCENES = 40  # held-back scenes of the deck the check reads (never trained on)
VAL_SCENES = 6  # the detector trainer's own end-of-run look (ultralytics insists on one)
DETECTOR_SHARE = 0.7  # of the training time, the rest is the classifier's
RESERVE_S = 40.0  # exports and the check's reads, about (2-core x86, 40 check scenes)
IMGSZ = 416  # the shipped detector's training size
DET_LR = 1e-3
FAN_COPIES = 4  # `fans`: cuts of each readable corner of the deck's scenes (a few % of them)


def adapt_deck_scenes(profile: DeckProfile, models: Path, minutes: float = 8.0, seed: int = 0,
               cards_dir: Path | None = None, out: TextIO | None = None,
               detector: bool = True, fans: bool = False,
               report: Report = no_report) -> Outcome:
    """Learn the deck in about `minutes`: render scenes of it from its enrolled indices
    (`synth/enrolled.py`) and of other designs, fine-tune the shipped detector (unless
    `detector` is False) and classifier on them, read the held-back photos (and rendered
    held-back scenes) with every mix of generic and adapted networks, and install the best
    mix only when it reads the photos no worse than the deck's model and the generic one on
    either count and reads the photos or the scenes better. Without kept photos no detector
    is installed: nothing but whole photos can check one. `fans`: the deck's scenes draw
    half their fans tight and label a covered corner by what shows (`compose.READABLE`), and
    its readable corners are cut `FAN_COPIES` times, so the classifier learns the deck's
    own indices half hidden by its own cards. Ctrl-C raises Cancelled after cleaning up;
    the profile is then as it was."""
    from scorekeeper_lab.training.synth.compose import DEFAULT, READABLE
    from scorekeeper_lab.training.synth.enrolled import deck_from_examples

    out = out or sys.stderr
    start = time.monotonic()
    # OpenCV's thread pool does not survive the renderer's forks: it would hang them
    cv2.setNumThreads(1)
    budget = max(30.0, minutes * 60)
    stored, rows = load_crops(profile)
    if sum(r["card"] != "none" for r in rows) < MIN_EXAMPLES:
        raise DeckError(f"deck {profile.name!r} has {len(rows)} examples; add labelled photos "
                        f"(`deck add`, `deck enrol`) first: at least {MIN_EXAMPLES} indices")
    rng = np.random.default_rng(seed)
    split = split_examples(rows, kept_photos(profile, rows), seed)
    photos, images = load_photos(held_photos(profile, rows, split))
    examples = len(rows)
    stored = [stored[i] for i in split.train]  # the held-back examples teach nothing
    rows = [rows[i] for i in split.train]
    work = profile.folder / ".adapt"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        deck = deck_from_examples(stored, rows, f"deck-{profile.name}", seed)
        n_deck = max(24, round(DECK_SCENES_PER_MINUTE * budget / 60))
        others = _other_decks(cards_dir, seed)
        print(f"deck {profile.name}: {len(deck.faces)} faces from its enrolled indices; "
              f"rendering {n_deck} scenes of it, {round(n_deck * OTHER_SCENES)} of "
              f"{len(others)} other designs, {CHECK_SCENES} held back to check"
              f"{photos_note(split, photos)}", file=out)
        style = READABLE if fans else DEFAULT
        _render(work / "deck", n_deck, seed, [deck], style)
        _render(work / "check", CHECK_SCENES, seed + 10_000, [deck], style)
        if others:
            _render(work / "other", round(n_deck * OTHER_SCENES), seed + 20_000, others)
        import torch  # after the rendering: its thread pool would hang the renderer's forks

        torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "0")) or os.cpu_count() or 1)
        torch.manual_seed(seed)
        left = budget - (time.monotonic() - start) - RESERVE_S
        files: dict[str, Path] = {}
        steps = 0
        if detector:
            _render(work / "val", VAL_SCENES, seed + 30_000, [deck])
            files["detector"] = train_detector(models, work, max(20.0, left * DETECTOR_SHARE),
                                               seed, out, report)
        left = budget - (time.monotonic() - start) - RESERVE_S + 10
        model, steps = train_classifier(models, stored, rows, work, max(10.0, left), seed,
                                        rng, out, FAN_COPIES if fans else 1, report)
        from scorekeeper_lab.training.classifier_train import export_onnx

        files["classifier"] = work / "cards-cls.onnx"
        export_onnx(model.eval(), files["classifier"])
        report({"event": "phase", "phase": "checking"})
        print(f"checking on {len(photos)} photos and {CHECK_SCENES} held-back scenes of the "
              "deck", file=out)
        check = scene_check(models, profile, work, files, photos, images, split.whole)
        check.update(steps=steps, minutes=round((time.monotonic() - start) / 60, 2),
                     examples=examples, faces=len(deck.faces), scenes=n_deck)
        chosen = check.pop("chosen")
        if not chosen:
            return Outcome(False, check, time.monotonic() - start, steps,
                           "not installed: no mix of adapted networks read the held-back "
                           f"photos no worse and better than the {check['best']} model "
                           f"(scenes: {check['best_correct']} exact, {check['best_false']} "
                           f"false){photos_line(check)}")
        profile.install_models({k: files[k] for k in chosen}, check)
    except KeyboardInterrupt:
        raise Cancelled(f"cancelled: deck {profile.name!r} keeps its model") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Outcome(True, check, time.monotonic() - start, steps,
                   f"installed the adapted {' and '.join(chosen)}: held-back scenes "
                   f"{check['generic']:.1%} (generic) → {check['adapted']:.1%} of "
                   f"{check['held_back']} cards read exactly, false "
                   f"{check['generic_false']} → {check['adapted_false']}{photos_line(check)}")


def _other_decks(cards_dir: Path | None, seed: int) -> list:
    """Designs to keep reading while this deck is learned: the training art, else
    procedural font decks (a Pi, CI), else none."""
    from scorekeeper_lab.training.synth.deckset import cache_ready, load_decks
    from scorekeeper_lab.training.synth.fontdeck import index_fonts, make_decks

    decks = load_decks("train", cards_dir) if cache_ready(cards_dir) else []
    if index_fonts():
        decks += make_decks(4 if decks else 8, seed + 7)
    return decks


def _render(folder: Path, count: int, seed: int, decks: list, style: Style | None = None
            ) -> None:
    from scorekeeper_lab.training.synth.compose import DEFAULT
    from scorekeeper_lab.training.synth.dataset import render_dataset

    stderr, sys.stderr = sys.stderr, open(os.devnull, "w")  # noqa: SIM115 - its own counter
    try:
        render_dataset(folder, count, 640, seed, workers=min(2, os.cpu_count() or 1),
                       decks=decks, style=style or DEFAULT)
    finally:
        sys.stderr.close()
        sys.stderr = stderr


def train_detector(models: Path, work: Path, seconds: float, seed: int, out: TextIO,
                   report: Report = no_report) -> Path:
    """The shipped detector fine-tuned for `seconds` on the deck's and the other designs'
    scenes (ultralytics, the `make model` augmentation); returns its ONNX export."""
    import logging

    from scorekeeper.vision.ultralytics_env import prepare
    from scorekeeper_lab.training.mixed_precision import (
        allow_ultralytics_cpu_bf16,
        cpu_has_bf16,
        skip_amp_check,
    )
    from scorekeeper_lab.training.train import AUGMENT, write_data_yaml

    prepare()
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = os.cpu_count() or 1
    skip_amp_check()
    allow_ultralytics_cpu_bf16()
    data = write_data_yaml(work / "deck", work / "val", work / "data.yaml")
    if (work / "other").is_dir():
        text = data.read_text().replace(
            f"train: {(work / 'deck' / 'images').resolve()}",
            f"train: [{(work / 'deck' / 'images').resolve()}, "
            f"{(work / 'other' / 'images').resolve()}]")
        data.write_text(text)
    yolo = YOLO(str(models / "cards-det.pt"))
    t0, last = time.monotonic(), [0.0]

    def progress(trainer) -> None:
        now = time.monotonic()
        if now - last[0] > 2:
            last[0] = now
            left = max(0.0, seconds - (now - t0))
            print(f"\radapting the detector: epoch {trainer.epoch + 1}  {int(left) // 60}:"
                  f"{int(left) % 60:02d} left", end="", file=out, flush=True)
            report({"event": "phase", "phase": "adapting", "left_s": round(left)})

    yolo.add_callback("on_train_batch_end", progress)
    logger = logging.getLogger("ultralytics")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yolo.train(data=str(data), imgsz=IMGSZ, epochs=100, time=seconds / 3600, batch=16,
                   workers=0, device="cpu", amp="bf16" if cpu_has_bf16() else False,
                   project=str(work.resolve()), name="runs", exist_ok=True, val=False,
                   plots=False, patience=0, deterministic=False, seed=seed, verbose=False,
                   optimizer="AdamW", lr0=DET_LR, warmup_epochs=0.2, warmup_bias_lr=0.01,
                   close_mosaic=1, **AUGMENT)
        print(file=out)
        weights = work / "runs" / "weights"
        best = weights / "best.pt" if (weights / "best.pt").is_file() else weights / "last.pt"
        onnx = Path(YOLO(str(best)).export(format="onnx", imgsz=IMGSZ, simplify=True,
                                           dynamic=True, verbose=False))
    finally:
        logger.setLevel(level)
    target = work / "cards-det.onnx"
    os.replace(onnx, target)
    return target


def train_classifier(models: Path, stored: list[np.ndarray], rows: list[dict], work: Path,
                     seconds: float, seed: int, rng: np.random.Generator, out: TextIO,
                     readable: int = 1, report: Report = no_report):
    """The shipped classifier fine-tuned for `seconds`: batches of the deck's enrolled
    crops (augmented), crops of its rendered scenes (each readable corner `readable`
    times), and crops of the other designs' scenes (or of their faces); batch norm keeps
    the shipped statistics."""

    from scorekeeper_lab.training.crops import crops_from_dataset

    labels = np.array([CLASS_OF[r["card"]] for r in rows], dtype=np.int64)
    pyrng = random.Random(seed)
    deck_x, deck_y = crops_from_dataset(work / "deck", pyrng, per_index=1, readable=readable)
    if (work / "other").is_dir():
        ox, oy = crops_from_dataset(work / "other", pyrng, per_index=1)
        other, other_y = list(ox), [int(v) for v in oy]
    else:
        raw, other_y = other_designs(SYNTHETIC, rng)
        other = [centre_crop(c) for c in raw]
    model = trainable(models)
    every = list(range(len(rows)))
    steps = fine_tune(
        model, lambda: _mixed_batch(stored, labels, every, deck_x, deck_y, other, other_y, rng),
        seconds, "adapting the classifier", out, report)
    return model, steps


def _mixed_batch(stored: list[np.ndarray], labels: np.ndarray, at: list[int],
                 deck_x: np.ndarray, deck_y: np.ndarray, other: list[np.ndarray],
                 other_y: list[int], rng: np.random.Generator):
    """A quarter enrolled crops (augmented), 3/8 the deck's scene crops, 3/8 the others'."""
    import torch

    n_enrol, n_deck = BATCH // 4, 3 * BATCH // 8
    picks = [(augment(stored[i], rng), int(labels[i])) for i in rng.choice(at, n_enrol)]
    picks += [(_relight(deck_x[i], rng), int(deck_y[i]))
              for i in rng.integers(0, len(deck_x), n_deck)]
    picks += [(_relight(other[i], rng), other_y[i])
              for i in rng.integers(0, len(other), BATCH - n_enrol - n_deck)]
    x = np.stack([c for c, _ in picks])
    k = int(rng.integers(4))
    xt = torch.from_numpy(np.ascontiguousarray(np.rot90(x[:, :, :, ::-1], k, axes=(1, 2))))
    return (xt.permute(0, 3, 1, 2).float() / 255,
            torch.tensor([y for _, y in picks], dtype=torch.int64))


def _relight(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    gain = rng.uniform(0.8, 1.2) * rng.uniform(0.95, 1.05, 3)
    return np.clip(crop.astype(np.float32) * gain + rng.uniform(-12, 12), 0, 255).astype(np.uint8)


def scene_check(models: Path, profile: DeckProfile, work: Path, files: dict[str, Path],
                photos: list[HeldPhoto] | None = None, images: list[np.ndarray] | None = None,
                whole: bool = True) -> dict:
    """Read the held-back photos and scenes with the generic model, the deck's current
    model and every mix of generic and adapted networks; `chosen` is the mix to install
    (empty: none), as `choose_mix` rules."""
    from itertools import combinations

    from scorekeeper.vision.reader import CardReader
    from scorekeeper_lab.evaluation.evaluate import eval_synthetic

    photos, images = photos or [], images or []
    scenes = work / "check"
    results = {"generic": eval_synthetic(CardReader(models), scenes)}
    if profile.detector_path is not None or profile.classifier_path is not None:
        current = CardReader(models, deck=profile)
        if current.deck is not None:
            results["current"] = eval_synthetic(current, scenes)
    rivals = photo_rivals(models, profile, photos, images) if photos else {}
    mixes: dict[tuple[str, ...], dict] = {}
    reads: dict[tuple[str, ...], Reads] = {}
    for n in range(len(files), 0, -1):
        for mix in combinations(sorted(files), n):
            candidate = DeckProfile(profile.name, work, {k: {"onnx": files[k].name}
                                                         for k in mix})
            reader = CardReader(models, deck=candidate)
            if reader.warnings:  # an adapted network that does not load is no candidate
                continue
            mixes[mix] = eval_synthetic(reader, scenes)
            if photos:
                reads[mix] = read_photos(reader, photos, images)
    scene_keys = {k: (v["correct"], -v["false"]) for k, v in results.items()}
    best = max(scene_keys, key=lambda k: scene_keys[k])
    chosen = choose_mix({m: (r["correct"], r["false"]) for m, r in mixes.items()},
                        (results[best]["correct"], results[best]["false"]), reads, rivals,
                        whole)
    top = mixes[chosen] if chosen else max(mixes.values(), key=lambda r: (r["correct"],
                                                                           -r["false"]),
                                           default=results["generic"])
    labelled = max(1, results["generic"]["labelled"])
    out = {"held_back": results["generic"]["labelled"], "unit": "cards in held-back scenes",
           "generic": results["generic"]["correct"] / labelled,
           "generic_false": results["generic"]["false"],
           "adapted": top["correct"] / labelled, "adapted_false": top["false"],
           "mixes": {"+".join(m): [r["correct"], r["false"]] for m, r in mixes.items()},
           "best": best, "best_correct": results[best]["correct"],
           "best_false": results[best]["false"], "chosen": list(chosen)}
    if photos:
        out["photos"] = {"photos": len(photos), "cards": rivals["generic"].cards,
                         "whole": whole,
                         **{k: figures(v) for k, v in rivals.items()},
                         "mixes": {"+".join(m): figures(r) for m, r in reads.items()},
                         **({"adapted": figures(reads[chosen])} if chosen else {})}
    return out


def choose_mix(scenes: dict[tuple[str, ...], tuple[int, int]], best_scenes: tuple[int, int],
               reads: dict[tuple[str, ...], Reads], rivals: dict[str, Reads],
               whole: bool) -> tuple[str, ...]:
    """The mix of adapted networks to install, or (): `scenes` holds each mix's (exact,
    false) on the rendered held-back scenes, `best_scenes` the best rival's; `reads` each
    mix's reading of the held-back photos, `rivals` the generic and current models' (both
    empty when the deck keeps no photos). A mix must read the photos no worse than every
    rival on either count, and read the photos better than the best rival or the scenes
    (more exact, no more false); the best such mix on the photos, then the scenes, wins.
    A detector also needs photos held back `whole`: measured, deck-a2's detector read its
    two enrolment photos as well as the generic one (both trained the classifier) and the
    game tables with 21 cards read twice; a held-back photo of 5 showed it (docs/decks.md)."""
    best_photos = max(rivals.values(), key=Reads.key, default=None)

    def allowed(mix: tuple[str, ...]) -> bool:
        if "detector" in mix and not (rivals and whole):
            return False
        return not rivals or (mix in reads and refusal(reads[mix], rivals) is None)

    def gains(mix: tuple[str, ...]) -> bool:
        exact, false = scenes[mix]
        on_scenes = exact > best_scenes[0] and false <= best_scenes[1]
        return on_scenes or (best_photos is not None and reads[mix].key() > best_photos.key())

    ok = [m for m in scenes if allowed(m) and gains(m)]
    return max(ok, key=lambda m: (reads[m].key() if m in reads else (0, 0),
                                  scenes[m][0], -scenes[m][1]), default=())
