"""The confident errors of validation sets, drawn to be looked at: which wrong cards a sure
line has to hide, and whether a reader rule makes them.

    .venv/bin/python -m scorekeeper_lab.analyses.sure_errors --cache data/val-reads.json \
        --val data/val-cal --fans data/fans-val --labelled data/real-halves/val.jsonl \
        --real ../shared/data/real-photos-dev --min-raw 0.8 --out data/sure-errors

Reads the cache `scorekeeper-lab calibrate --cache` wrote, lists each scene holding a wrong
card read at `--min-raw` or more, reads only those scenes again and writes, per wrong card,
the crop around it: every labelled card's boxes in green with its code, the wrong card's
box in red, each of its index readings in orange with code, probability and look. A line
per card says what was read, what lies under it and with which evidence (corners read,
whether they agree, look, raw figure).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper.vision.matching import match_reads
from scorekeeper.vision.pairing import PhysicalCard
from scorekeeper.vision.reader import load_image

PAD = 0.6  # of the card box's long side, around the crop


def confident_scenes(cache: Path, min_raw: float) -> dict[str, int]:
    """Scene name → its wrong cards read at `min_raw` or more."""
    out: dict[str, int] = {}
    for s in json.loads(cache.read_text(encoding="utf-8")):
        n = sum(1 for c in s["cards"] if not c["right"] and c["raw"] >= min_raw)
        if n:
            out[s["name"]] = n
    return out


def _truth(root: Path, stem: str, fans: bool) -> list[tuple[str, list[list[float]]]]:
    """The cards a fan's or a rendered scene's figure matches reads against."""
    from scorekeeper_lab.evaluation.evaluate import index_truth, read_labels
    from scorekeeper_lab.evaluation.fan_eval import fan_truth

    objects = read_labels(root / "cards" / f"{stem}.json")
    truth = fan_truth(objects) if fans else index_truth(objects)
    return [(t["card"], t["boxes"]) for t in truth.values()]


def describe(card: PhysicalCard) -> str:
    codes = [r.card for r in card.indices]
    agree = "agree" if len(set(codes)) == 1 else "differ"
    return (f"read {card.card} raw {card.confidence:.4f} look {card.path}; "
            f"{len(codes)} corner(s) {agree}: " + ", ".join(
                f"{r.card} {r.prob:.3f}×{r.det.conf:.2f} {r.path} "
                f"{r.det.size:.0f}px" for r in card.indices))


def draw(image: np.ndarray, card: PhysicalCard, truth: list[tuple[str, Any]]) -> np.ndarray:
    """The crop around `card` with the labels and its readings drawn."""
    out = image.copy()
    for code, boxes in truth:
        for b in boxes:
            x1, y1, x2, y2 = (round(v) for v in b)
            cv2.rectangle(out, (x1, y1), (x2, y2), (60, 200, 60), 1)
            cv2.putText(out, code, (x1, max(10, y1 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                        (60, 200, 60), 1, cv2.LINE_AA)
    x1, y1, x2, y2 = (round(v) for v in card.box)
    cv2.rectangle(out, (x1, y1), (x2, y2), (0, 0, 255), 2)
    for r in card.indices:
        a1, b1, a2, b2 = (round(v) for v in r.det.box)
        cv2.rectangle(out, (a1, b1), (a2, b2), (0, 140, 255), 2)
        cv2.putText(out, f"{r.card} {r.prob:.2f} {r.path}", (a1, b2 + 12),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 140, 255), 1, cv2.LINE_AA)
    side = max(x2 - x1, y2 - y1)
    h, w = out.shape[:2]
    pad = round(PAD * side)
    crop = out[max(0, y1 - pad):min(h, y2 + pad), max(0, x1 - pad):min(w, x2 + pad)]
    scale = max(1.0, 400 / max(crop.shape[:2]))
    return cv2.resize(crop, None, fx=scale, fy=scale)


def main(argv: list[str] | None = None) -> int:
    from scorekeeper_lab.evaluation.evaluate import open_reader, read_labelled

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--val", type=Path, nargs="*", default=[],
                        help="rendered scene folders the cache read")
    parser.add_argument("--fans", type=Path, nargs="*", default=[],
                        help="fan folders the cache read")
    parser.add_argument("--labelled", type=Path, default=None)
    parser.add_argument("--real", type=Path, default=None)
    parser.add_argument("--min-raw", type=float, default=0.8)
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    wanted = confident_scenes(args.cache, args.min_raw)
    print(f"{len(wanted)} scenes with a wrong card read at raw ≥ {args.min_raw}")
    jobs: list[tuple[str, Path, list[tuple[str, Any]]]] = []
    for root, fans in [(r, False) for r in args.val] + [(r, True) for r in args.fans]:
        for name in wanted:
            set_name, _, stem = name.partition("/")
            if set_name == root.name and (root / "images" / f"{stem}.jpg").exists():
                jobs.append((name, root / "images" / f"{stem}.jpg", _truth(root, stem, fans)))
    if args.labelled is not None:
        for photo in read_labelled(args.labelled):
            name = Path(photo.image).name
            if name in wanted and args.real is not None:
                jobs.append((name, args.real / "images" / photo.image,
                             [(c, [b]) for c, b in photo.cards]))
    reader = open_reader(None, args.models, sys.stdout)
    if reader is None:
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name, path, truth in jobs:
        image = load_image(path)
        result = reader.read(image)
        matched = match_reads(result.cards, truth)
        wrong = [(c, truth[k][0]) for k, c in matched.hits.items() if c.card != truth[k][0]]
        wrong += [(c, "none") for c, _ in matched.strays]
        for n, (card, under) in enumerate(wrong):
            if card.confidence < args.min_raw:
                continue
            file = args.out / f"{name.replace('/', '_')}_{n}.png"
            cv2.imwrite(str(file), draw(image, card, truth))
            print(f"{name}: {describe(card)}; under it {under} -> {file.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
