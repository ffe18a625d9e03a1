"""Can a person read the held-out cards the reader misses? A blind audit by eye.

The held-out count charges the reader for every card with an index at least 60 % in view,
however small, blurred or washed out the scene made it. Whether a miss is the reader's
fault or beyond anyone is a question for a person, asked blind:

    .venv/bin/python -m scorekeeper_lab.analyses.legibility_audit sheets \
        data/model-work/test2 --out DIR \
        [--limit 300] [--misses 80] [--hits 40] [--seed 0]
    # look at DIR/sheet-*.png only, and write DIR/verdicts.txt: "CELL CODE" a line,
    # CODE as the cards are written (7H, 10S, QC) or "?" where the card cannot be read
    .venv/bin/python -m scorekeeper_lab.analyses.legibility_audit score DIR
    # fan scenes (`synth fans`): --fans asks for the cards under 40 % covered, as the
    # fan benchmark's clean-scene count does

`sheets` reads the scenes as `scorekeeper-lab eval` does, samples cards the reader missed or
misread and, mixed among them so the person cannot tell which is which, cards it read
right. Each numbered cell shows the card's labelled corner indices with the table around
them, at the scene's own pixels scaled up, each index marked by a frame drawn around
it, and nothing else: no label, no reading. The key
(DIR/key.jsonl) is written apart, for `score`, which counts what the person read against
the labels, for the misses and the hits apart, with 95 % Wilson intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper.vision.reader import MODELS, CardReader, load_image
from scorekeeper_lab.evaluation.evaluate import DetectionTrace, match_reads, read_labels, rivals
from scorekeeper_lab.evaluation.fan_eval import asked_truth

CELL = 220      # px a cell's crop is scaled into
CONTEXT = 0.75  # the box's longer side added on every side: the table around the index
PER_SHEET = 12
COLUMNS = 3


def _crop(image: np.ndarray, box: list[float]) -> np.ndarray:
    x1, y1, x2, y2 = box
    m = CONTEXT * max(x2 - x1, y2 - y1)
    h, w = image.shape[:2]
    left, top = max(0, int(x1 - m)), max(0, int(y1 - m))
    crop = image[top:min(h, int(y2 + m)), left:min(w, int(x2 + m))]
    scale = CELL / max(crop.shape[:2])
    size = (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale)))
    crop = cv2.resize(crop, size, interpolation=cv2.INTER_CUBIC)
    pad = 3  # the mark lies outside the box: it shows which index is asked, hiding none of it
    cv2.rectangle(crop, (round((x1 - left) * scale) - pad, round((y1 - top) * scale) - pad),
                  (round((x2 - left) * scale) + pad, round((y2 - top) * scale) + pad),
                  (255, 200, 0), 2)
    return crop


def _cell(image: np.ndarray, boxes: list[list[float]], number: int) -> np.ndarray:
    cell = np.full((CELL + 30, 2 * CELL + 10, 3), 255, np.uint8)
    for k, box in enumerate(boxes[:2]):
        crop = _crop(image, box)
        x = k * (CELL + 10)
        cell[:crop.shape[0], x:x + crop.shape[1]] = crop
    cv2.putText(cell, str(number), (4, CELL + 24), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 2)
    return cell


def sheets(args: argparse.Namespace) -> None:
    reader = CardReader(args.models)
    spy = DetectionTrace(reader)
    misses: list[dict[str, Any]] = []
    hits: list[dict[str, Any]] = []
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        cards = asked_truth(read_labels(meta), args.fans)
        ids = list(cards)
        image = load_image(args.scenes / "images" / f"{meta.stem}.jpg")
        result = reader.read(image)
        matched = match_reads(result.cards, [(cards[c]["card"], cards[c]["boxes"]) for c in ids])
        for k, cid in enumerate(ids):
            if not cards[cid]["asked"]:
                continue
            read = matched.hits.get(k)
            right = read is not None and read.card == cards[cid]["card"]
            lost = ("read right" if right else "misread" if read is not None
                    else spy.cause(image, cards[cid]["boxes"], result.cards, rivals(cards, cid)))
            entry = {"scene": meta.stem, "card_id": cid, "card": cards[cid]["card"],
                     "boxes": cards[cid]["boxes"], "read": read.card if read else None,
                     "lost": lost}
            (hits if right else misses).append(entry)
    spy.close()
    rng = random.Random(args.seed)
    sample = [dict(e, reader_right=False)
              for e in rng.sample(misses, min(args.misses, len(misses)))]
    sample += [dict(e, reader_right=True) for e in rng.sample(hits, min(args.hits, len(hits)))]
    rng.shuffle(sample)
    args.out.mkdir(parents=True, exist_ok=True)
    population = {"scenes": str(args.scenes), "limit": args.limit, "fans": args.fans,
                  "missed": len(misses), "read right": len(hits)}
    (args.out / "population.json").write_text(json.dumps(population, indent=1) + "\n")
    with open(args.out / "key.jsonl", "w") as key:
        for number, entry in enumerate(sample, 1):
            key.write(json.dumps({"cell": number, **entry}) + "\n")
    for start in range(0, len(sample), PER_SHEET):
        cells = []
        for number, entry in enumerate(sample[start:start + PER_SHEET], start + 1):
            image = load_image(args.scenes / "images" / f"{entry['scene']}.jpg")
            cells.append(_cell(image, entry["boxes"], number))
        while len(cells) % COLUMNS:
            cells.append(np.full_like(cells[0], 255))
        rows = [np.hstack(cells[i:i + COLUMNS]) for i in range(0, len(cells), COLUMNS)]
        cv2.imwrite(str(args.out / f"sheet-{start // PER_SHEET:02d}.png"), np.vstack(rows))
    print(f"{len(misses)} cards missed or misread, {len(hits)} read right; "
          f"{len(sample)} cells in {math.ceil(len(sample) / PER_SHEET)} sheets under {args.out}")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def tally(key: list[dict[str, Any]], verdicts: dict[int, str],
          by: str = "reader") -> dict[str, dict[str, int]]:
    """What the person read (right, wrong, or '?'), for the reader's misses and hits apart
    (`by="reader"`) or by where the reader lost each card (`by="lost"`)."""
    out: dict[str, dict[str, int]] = {} if by == "lost" else {"missed": {}, "read right": {}}
    for entry in key:
        said = verdicts.get(entry["cell"])
        if said is None:
            continue
        name = (entry["lost"] if by == "lost"
                else "read right" if entry["reader_right"] else "missed")
        group = out.setdefault(name, {})
        kind = "cannot read" if said == "?" else "right" if said == entry["card"] else "wrong"
        group[kind] = group.get(kind, 0) + 1
    return out


def legible_share(groups: dict[str, dict[str, int]], population: dict[str, int]
                  ) -> tuple[float, float, float]:
    """Of the cards a person reads right, the share the reader reads right: each group's
    sampled rate scaled to its population, with the bounds its Wilson intervals give."""
    def scaled(name: str, bound: int) -> float:
        counts = groups[name]
        n = sum(counts.values())
        k = counts.get("right", 0)
        rate = k / n if bound == 0 else wilson(k, n)[0 if bound < 0 else 1]
        return rate * population[name]
    point = scaled("read right", 0) / (scaled("read right", 0) + scaled("missed", 0))
    low = scaled("read right", -1) / (scaled("read right", -1) + scaled("missed", 1))
    high = scaled("read right", 1) / (scaled("read right", 1) + scaled("missed", -1))
    return point, low, high


def score(args: argparse.Namespace) -> None:
    key = [json.loads(line) for line in (args.out / "key.jsonl").read_text().splitlines()]
    verdicts: dict[int, str] = {}
    for line in (args.out / "verdicts.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            cell, code = line.split()[:2]
            verdicts[int(cell)] = code.upper()
    missing = [e["cell"] for e in key if e["cell"] not in verdicts]
    if missing:
        raise SystemExit(f"no verdict for cells {missing}")
    population = json.loads((args.out / "population.json").read_text())
    groups = tally(key, verdicts)
    for by, title in (("reader", "the reader's cards"), ("lost", "where the reader lost it")):
        print(f"| {title} | cells | the person read right | wrong | cannot read |")
        print("|---|---|---|---|---|")
        for group, counts in sorted(tally(key, verdicts, by).items()):
            n = sum(counts.values())
            right = counts.get("right", 0)
            lo, hi = wilson(right, n)
            print(f"| {group} | {n} | {right} ({right / n:.0%}, 95 % {lo:.0%}–{hi:.0%}) | "
                  f"{counts.get('wrong', 0)} | {counts.get('cannot read', 0)} |")
        print()
    point, low, high = legible_share(groups, population)
    print(f"Of the {population['missed'] + population['read right']} cards the reader was "
          f"asked for ({population['read right']} read right), the cards a person reads "
          f"right: the reader reads {point:.1%} of them (from the intervals: "
          f"{low:.1%}–{high:.1%}).")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sheets")
    s.add_argument("scenes", type=Path)
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--models", type=Path, default=MODELS)
    s.add_argument("--limit", type=int, default=300)
    s.add_argument("--misses", type=int, default=80)
    s.add_argument("--hits", type=int, default=40)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--fans", action="store_true",
                   help="fan scenes (synth fans): the cards under 40 %% covered")
    c = sub.add_parser("score")
    c.add_argument("out", type=Path)
    args = ap.parse_args()
    sheets(args) if args.command == "sheets" else score(args)


if __name__ == "__main__":
    main()
