"""Split the labelled real photos into nested enrolment sets and one test part.

    .venv/bin/python -m scorekeeper_lab.analyses.real_deck_split \
        --labels models/eval/real-photos-dev-cards.jsonl \
        --real ../shared/data/real-photos-dev --out data/real-deck [--sizes 5 10 20] [--seed 0]

Writes `enrol-5.jsonl`, `enrol-10.jsonl`, ... in `deck add --labels`' format (image paths
relative to --out, so `deck add` finds the photos), each set inside the next, so every
size is measured on the same test part: the photos of the largest set are what `eval
--skip` leaves out. Photos with a near-duplicate in the set (the same cards in the same
place: consecutive phone shots, or one webcam frame saved at two sizes) are never enrolled,
so the test part holds nothing the deck was enrolled from. One photo in five is a webcam
frame (the set's share is 45 of 296), the rest phone shots, drawn at random by --seed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np

THUMB_DIFF = 3.0  # mean grey difference (0-255) of 32×32 thumbnails: the same frame


def _grey(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return image


def _number(name: str) -> int | None:
    found = re.search(r"(\d+)\D*$", name)
    return int(found.group(1)) if found else None


def near_duplicates(photos: list[dict[str, object]], images: Path) -> set[str]:
    """Photos with a twin: the same cards and consecutive file numbers, or thumbnails
    all but equal."""
    cards = {str(p["image"]): sorted(str(c["card"])
                                     for c in p["cards"])  # type: ignore[attr-defined]
             for p in photos}
    thumbs = {name: cv2.resize(_grey(images / name), (32, 32),
                               interpolation=cv2.INTER_AREA).astype(np.float32)
              for name in cards}
    names = sorted(cards)
    twins: set[str] = set()
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            na, nb = _number(a), _number(b)
            same_shot = (cards[a] == cards[b] and na is not None and nb is not None
                         and a[:4] == b[:4] and abs(na - nb) == 1)
            if same_shot or float(np.abs(thumbs[a] - thumbs[b]).mean()) < THUMB_DIFF:
                twins |= {a, b}
    return twins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--real", type=Path, required=True, help="the real-photos-dev folder")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 20])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    photos = [json.loads(line) for line in args.labels.read_text().splitlines() if line.strip()]
    images = args.real / "images"
    twins = near_duplicates(photos, images)
    rng = random.Random(args.seed)
    eligible = [p for p in photos if p["image"] not in twins]
    webcam = [p for p in eligible if str(p["image"]).startswith("cam_")]
    phone = [p for p in eligible if not str(p["image"]).startswith("cam_")]
    rng.shuffle(webcam)
    rng.shuffle(phone)
    order: list[dict[str, Any]] = []
    while len(order) < max(args.sizes):
        order.append(webcam.pop() if len(order) % 5 == 0 else phone.pop())
    args.out.mkdir(parents=True, exist_ok=True)
    rel = os.path.relpath(images, args.out)
    for size in sorted(args.sizes):
        chosen = order[:size]
        path = args.out / f"enrol-{size}.jsonl"
        path.write_text("".join(json.dumps({**p, "image": f"{rel}/{p['image']}"}) + "\n"
                                for p in chosen))
        codes = {c["card"] for p in chosen for c in p["cards"]}
        print(f"{path}: {size} photos, {sum(len(p['cards']) for p in chosen)} cards, "
              f"{len(codes)} of the deck's 24: {' '.join(p['image'] for p in chosen)}")
    print(f"never enrolled (near-duplicates): {' '.join(sorted(twins))}")
    print(f"test part: {len(photos) - max(args.sizes)} photos (eval --skip "
          f"{args.out / f'enrol-{max(args.sizes)}.jsonl'})")


if __name__ == "__main__":
    main()
