"""What the places a stripe of indices skips lie on, by how far apart the stripe's ends are.

    .venv/bin/python scripts/fan_gap_spans.py data/work/fans-val --fans
    .venv/bin/python scripts/fan_gap_spans.py data/games-train

`fan_gaps.stripe_gaps` reads the place between two indices that lie two stripe steps apart.
This finds those places with the ends up to 8 index lengths apart (the rule without its
`MAX_SPAN`) and counts what each lies on (a labelled card's index within half an index
length: its band in a fan scene, "index" on a table), or nothing, for spans up to 1.5, 2,
2.5, 3, 4 and 8 index lengths. `MAX_SPAN` was chosen so (docs/model-experiments.md, 0.25.0).
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

from scorekeeper.vision import fan_gaps
from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.evaluate import _centre, index_truth, read_labels
from scorekeeper.vision.fan_eval import fan_truth
from scorekeeper.vision.reader import MODELS, CardReader, load_image

LIMITS = (1.5, 2.0, 2.5, 3.0, 4.0, 8.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", type=Path)
    ap.add_argument("--fans", action="store_true", help="fan scenes: count by band")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--models", type=Path, default=MODELS)
    args = ap.parse_args()
    reader = CardReader(args.models)
    fan_gaps.MAX_SPAN = LIMITS[-1]
    rows: list[tuple[float, str]] = []
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        objects = read_labels(meta)
        truth = fan_truth(objects) if args.fans else index_truth(objects)
        image = load_image(args.scenes / "images" / f"{meta.stem}.jpg")
        dets = [d for d in reader.detect(image)[0] if d.cls == INDEX]
        for box, a, b in fan_gaps.stripe_gaps(dets):
            size = (a.size + b.size) / 2
            middle = _centre(box)
            on = next((t.get("band", "index") for t in truth.values()
                       if any(math.dist(middle, _centre(x)) < size / 2 for x in t["boxes"])),
                      "nothing")
            rows.append((math.dist(a.centre, b.centre) / size, on))
    for limit in LIMITS:
        kinds = Counter(on for span, on in rows if span <= limit)
        print(f"ends up to {limit} index lengths apart: " + ", ".join(
            f"{k} {v}" for k, v in sorted(kinds.items())))


if __name__ == "__main__":
    main()
