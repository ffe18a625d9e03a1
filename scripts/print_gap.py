"""What a whole index of one scene set lacks against another: the classifier, contrast, blur.

    .venv/bin/python scripts/print_gap.py data/fans-real-test data/fans-test \\
        [--models models] [--visible 0.95] [--scenes 200] [--sheet misses.png]

For every whole index (labelled `index`, at least `--visible` of it in view) of each scene
folder: the classifier's reading of its labelled box (a perfect detector's crop), split into
right and sure (≥ the model's `min_prob`), right but unsure, wrong, and `none`; and two
measures of the picture, so a gap in reading can be told from a gap in light or focus:
contrast (5th to 95th percentile of grey over the box) and edge sharpness (95th-percentile
Sobel gradient over that contrast, the box resized to 32 × 48). `--sheet` draws the first
64 crops not read right and sure, of the first folder, with their label and reading.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.vision.classifier import IndexClassifier, crop_index
from scorekeeper.vision.reader import SURE, card_threshold

ROOT = Path(__file__).resolve().parents[1]
OUTCOMES = ("right, sure", "right, unsure", "wrong, unsure", "wrong, sure", "none")


def picture(grey: np.ndarray, box: tuple[float, ...]) -> tuple[float, float] | None:
    """(contrast, sharpness) of a box, or None for one too small or blank to measure."""
    x1, y1, x2, y2 = (round(v) for v in box)
    c = grey[max(0, y1):y2, max(0, x1):x2]
    if min(c.shape) < 12:
        return None
    c = cv2.resize(c, (32, 48), interpolation=cv2.INTER_AREA)
    lo, hi = np.percentile(c, [5, 95])
    if hi - lo < 20:
        return None
    g = np.hypot(cv2.Sobel(c, cv2.CV_32F, 1, 0), cv2.Sobel(c, cv2.CV_32F, 0, 1))
    return float(hi - lo), float(np.percentile(g, 95) / (hi - lo))


def measure(folder: Path, cls: IndexClassifier, min_prob: float, visible: float,
            scenes: int
            ) -> tuple[Counter[str], list[tuple[float, float]], list[tuple[np.ndarray, str]]]:
    outcomes: Counter[str] = Counter()
    pictures: list[tuple[float, float]] = []
    misses: list[tuple[np.ndarray, str]] = []
    for path in sorted((folder / "cards").glob("*.json"))[:scenes]:
        labels = [o for o in json.loads(path.read_text())
                  if o["kind"] == "index" and o.get("visible", 1.0) >= visible]
        if not labels:
            continue
        image = cv2.imread(str(folder / "images" / f"{path.stem}.jpg"))
        if image is None:
            raise SystemExit(f"{folder}: no image for {path.name}")
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        crops = [crop_index(image, tuple(o["box"])) for o in labels]
        for o, crop, (code, p) in zip(labels, crops, cls.classify(crops), strict=True):
            if code == o["card"]:
                outcome = "right, sure" if p >= min_prob else "right, unsure"
            elif code == "none":
                outcome = "none"
            else:
                outcome = "wrong, sure" if p >= min_prob else "wrong, unsure"
            outcomes[outcome] += 1
            if outcome != "right, sure":
                misses.append((crop, f"{o['card']}>{code} {p:.2f}"))
            shown = picture(grey, tuple(o["box"]))
            if shown:
                pictures.append(shown)
    return outcomes, pictures, misses


def sheet(misses: list[tuple[np.ndarray, str]], out: Path) -> None:
    tiles = []
    for crop, text in misses[:64]:
        tile = cv2.resize(crop, (96, 96), interpolation=cv2.INTER_NEAREST)
        tile = cv2.copyMakeBorder(tile, 0, 16, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(tile, text, (1, 108), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 200), 1)
        tiles.append(tile)
    if not tiles:
        return
    while len(tiles) % 8:
        tiles.append(np.full_like(tiles[0], 255))
    cv2.imwrite(str(out), np.vstack([np.hstack(tiles[i:i + 8]) for i in range(0, len(tiles), 8)]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--models", type=Path, default=ROOT / "models")
    ap.add_argument("--visible", type=float, default=0.95)
    ap.add_argument("--scenes", type=int, default=200)
    ap.add_argument("--sheet", type=Path, default=None)
    args = ap.parse_args()
    meta = json.loads((args.models / "model.json").read_text())
    config = meta["classifier"]
    # as the reader builds it (`CardReader`): its turns, its upright-first look
    cls = IndexClassifier(args.models / config["onnx"], config.get("turns", False),
                          config.get("sure", SURE))
    print("| scenes | whole indices | " + " | ".join(OUTCOMES)
          + " | contrast p10 / p50 | sharpness p10 / p50 |")
    print("|---" * (4 + len(OUTCOMES)) + "|")
    for n, folder in enumerate(args.folders):
        outcomes, pictures, misses = measure(folder, cls, card_threshold(meta), args.visible,
                                             args.scenes)
        total = sum(outcomes.values())
        shares = " | ".join(f"{100 * outcomes[o] / max(total, 1):.1f} %" for o in OUTCOMES)
        c, s = (np.percentile([p[i] for p in pictures], [10, 50]) for i in (0, 1))
        print(f"| {folder} | {total} | {shares} | {c[0]:.0f} / {c[1]:.0f} | "
              f"{s[0]:.2f} / {s[1]:.2f} |")
        if n == 0 and args.sheet:
            sheet(misses, args.sheet)


if __name__ == "__main__":
    main()
