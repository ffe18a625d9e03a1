"""Training crops for the index classifier, cut from rendered scenes and their labels."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.vision.classes import CLASSIFIER_CLASSES, NONE
from scorekeeper.vision.classifier import crop_index

CLASS_OF = {c: i for i, c in enumerate(CLASSIFIER_CLASSES)}
Box = tuple[float, float, float, float]


def _iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _jitter(box: Box, rng: random.Random, amount: float) -> Box:
    """Detector boxes are never exact: shift and scale like its errors."""
    w, h = box[2] - box[0], box[3] - box[1]
    s = 1 + rng.uniform(-amount, amount)
    cx = (box[0] + box[2]) / 2 + rng.uniform(-amount, amount) * w
    cy = (box[1] + box[3]) / 2 + rng.uniform(-amount, amount) * h
    return (cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2)


def crops_from_dataset(root: Path, rng: random.Random, per_index: int = 2,
                       negatives: float = 0.3, limit: int | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every labelled index (jittered `per_index` times) and of things that are not."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    files = sorted((root / "cards").glob("*.json"))[:limit]
    for meta_path in files:
        image = cv2.imread(str(root / "images" / f"{meta_path.stem}.jpg"))
        if image is None:
            continue
        objects = json.loads(meta_path.read_text())
        objects = objects["objects"] if isinstance(objects, dict) else objects
        indices = [o for o in objects if o["kind"] == "index"]
        for o in indices:
            for _ in range(per_index):
                xs.append(crop_index(image, _jitter(tuple(o["box"]), rng, 0.12)))
                ys.append(CLASS_OF[o["card"]])
        h, w = image.shape[:2]
        boxes = [tuple(o["box"]) for o in indices]
        sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [min(h, w) * 0.06]
        for _ in range(int(len(indices) * per_index * negatives) + 2):
            side = rng.choice(sizes) * rng.uniform(0.6, 1.6)
            x, y = rng.uniform(0, max(1, w - side)), rng.uniform(0, max(1, h - side))
            cand = (x, y, x + side * rng.uniform(0.5, 1), y + side)
            if all(_iou(cand, b) < 0.15 for b in boxes):
                xs.append(crop_index(image, cand))
                ys.append(NONE)
    if not xs:
        raise FileNotFoundError(f"no labelled images under {root}")
    return np.stack(xs), np.array(ys, dtype=np.int64)
