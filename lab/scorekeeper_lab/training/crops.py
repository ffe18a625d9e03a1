"""Training crops for the index classifier, cut from rendered scenes and their labels."""

from __future__ import annotations

import os
import random
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.vision.classes import CLASSIFIER_CLASSES, NONE
from scorekeeper.vision.classifier import crop_index
from scorekeeper_lab.evaluation.evaluate import read_labels
from scorekeeper_lab.training.synth.compose import readable_kind
from scorekeeper_lab.training.synth.index_box import iou

CLASS_OF = {c: i for i, c in enumerate(CLASSIFIER_CLASSES)}
Box = tuple[float, float, float, float]


def jitter(box: Box, rng: random.Random, amount: float) -> Box:
    """Detector boxes are never exact: shift and scale like its errors."""
    w, h = box[2] - box[0], box[3] - box[1]
    s = 1 + rng.uniform(-amount, amount)
    cx = (box[0] + box[2]) / 2 + rng.uniform(-amount, amount) * w
    cy = (box[1] + box[3]) / 2 + rng.uniform(-amount, amount) * h
    return (cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2)


def _crops_of(job: tuple[Path, list[Path], int, int, float, int]) -> tuple[list, list[int]]:
    root, files, seed, per_index, negatives, readable = job
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for meta_path in files:
        image = cv2.imread(str(root / "images" / f"{meta_path.stem}.jpg"))
        if image is None:
            continue
        labels = read_labels(meta_path)
        indices = [o for o in labels if o["kind"] == "index"]
        # printed matter that is no index (text, markers, chips): "none", boxed loosely as
        # the detector would box it
        hard = [o for o in labels if o["kind"] == "negative"]
        for o in rng.sample(hard, min(len(hard), 12)):
            xs.append(crop_index(image, jitter(tuple(o["box"]), rng, 0.15)))
            ys.append(NONE)
        for o in indices:
            for _ in range(per_index):
                xs.append(crop_index(image, jitter(tuple(o["box"]), rng, 0.12)))
                ys.append(CLASS_OF[o["card"]])
        # a corner partly covered that a person still reads ("readable", `Style.readable`)
        # is taught as its card, `readable` jittered copies each (they are few: a fan's)
        for o in labels:
            # by today's rule (`readable_kind`) on the shares the label records, so scenes
            # rendered under an earlier one are cut as if rendered now
            if o["kind"] == "readable" and readable_kind(o["visible"], o["rank"],
                                                         o["pip"]) == "readable":
                for _ in range(per_index * readable):
                    xs.append(crop_index(image, jitter(tuple(o["box"]), rng, 0.12)))
                    ys.append(CLASS_OF[o["card"]])
        # an index whose suit pip lies under another card (`compose._labels`): the detector
        # still finds it, but no camera can tell its card, so it is "none", jittered as an
        # index is
        for o in labels:
            if o["kind"] == "covered":
                for _ in range(per_index):
                    xs.append(crop_index(image, jitter(tuple(o["box"]), rng, 0.12)))
                    ys.append(NONE)
        h, w = image.shape[:2]
        boxes = [tuple(o["box"]) for o in indices]
        sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [min(h, w) * 0.06]
        for _ in range(int(len(indices) * per_index * negatives) + 2):
            side = rng.choice(sizes) * rng.uniform(0.6, 1.6)
            x, y = rng.uniform(0, max(1, w - side)), rng.uniform(0, max(1, h - side))
            cand = (x, y, x + side * rng.uniform(0.5, 1), y + side)
            if all(iou(cand, b) < 0.15 for b in boxes):
                xs.append(crop_index(image, cand))
                ys.append(NONE)
    return xs, ys


def crops_from_dataset(root: Path, rng: random.Random, per_index: int = 2,
                       negatives: float = 0.3, limit: int | None = None, workers: int = 1,
                       shard: int = 200, readable: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every labelled index (jittered `per_index` times) and of things that are not:
    the scene's hard negatives (`compose._negatives`), indices whose suit pip is covered
    (labelled "covered", jittered `per_index` times) and random background. Corners
    labelled "readable" are cut as their card, `per_index * readable` times.

    Scenes are cut in fixed shards, each with its own seed drawn from `rng`, so the crops
    are the same whatever the number of worker processes.
    """
    files = sorted((root / "cards").glob("*.json"))[:limit]
    shards = [files[i:i + shard] for i in range(0, len(files), shard)]
    jobs = [(root, shard, rng.randrange(2**31), per_index, negatives, readable)
            for shard in shards]
    if workers > 1 and len(jobs) > 1:
        from multiprocessing import Pool

        with Pool(min(workers, len(jobs))) as pool:
            parts = pool.map(_crops_of, jobs)
    else:
        parts = [_crops_of(job) for job in jobs]
    xs = [x for part_x, _ in parts for x in part_x]
    ys = [y for _, part_y in parts for y in part_y]
    if not xs:
        raise FileNotFoundError(f"no labelled images under {root}")
    return np.stack(xs), np.array(ys, dtype=np.int64)


def training_crops(scenes: list[Path], val: Path, seed: int, caches: list[Path | None],
                   readable: int = 1
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every folder's crops and the validation crops; `caches`: one .npz for all folders,
    or one per folder (in order; None: not kept), each cut and written when missing. With
    one a folder, each folder is cut with its own `Random(seed)`, and the validation crops
    with the first folder's after it."""
    if len(caches) > 1:
        if len(caches) != len(scenes):
            raise SystemExit("--cache: one file, or one per --scenes folder")
        parts = [training_crops([folder], val, seed, [cache], readable)
                 for folder, cache in zip(scenes, caches, strict=True)]
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                parts[0][2], parts[0][3])
    cache = caches[0] if caches else None
    if cache is not None and cache.exists():
        z = np.load(cache)
        return z["x"], z["y"], z["vx"], z["vy"]
    rng = random.Random(seed)
    workers = os.cpu_count() or 1
    cut = [crops_from_dataset(folder, rng, per_index=1, workers=workers, readable=readable)
           for folder in scenes]
    x = np.concatenate([p[0] for p in cut])
    y = np.concatenate([p[1] for p in cut])
    vx, vy = crops_from_dataset(val, rng, per_index=1, workers=workers)
    if cache is not None:
        np.savez(cache, x=x, y=y, vx=vx, vy=vy)
    return x, y, vx, vy
