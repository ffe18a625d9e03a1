"""How much a card's face could add where its corner index is lost.

The reader reads rank and suit from corner indices only. A held-out card it misses or
misreads often lies with its face in view: its pips (the count and suit of a number card)
are printed several times larger than the index and drawn to one convention in every
design. Before any face reader is built, this counts, for every labelled card of rendered
scenes that the reader misses or misreads (matched as `scorekeeper eval` matches them),
how much of its face shows and how large the card is, against the cards it reads right:

    .venv/bin/python scripts/face_evidence.py data/model-work/test2 [--models models] [--limit N]

A card's face is the scene's `card` label (its visible share of the face); a card with no
such label shows too little of its face to be labelled.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from scorekeeper.vision.evaluate import index_truth, match_reads, read_labels
from scorekeeper.vision.reader import MODELS, CardReader, load_image

SHOWN = ((0.9, "face ≥ 90 % in view"), (0.5, "face 50–90 %"), (0.0, "face < 50 %"))
SIZE = ((80, "card ≥ 80 px tall"), (50, "50–80 px"), (0, "< 50 px"))
NUMBERS = set("2345678910")


def _band(value: float, bands: tuple[tuple[float, str], ...]) -> str:
    return next(name for low, name in bands if value >= low)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    reader = CardReader(args.models)
    tally: Counter[tuple[str, str, str, bool]] = Counter()
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        objects = read_labels(meta)
        truth = index_truth(objects)
        faces: dict[int, dict[str, Any]] = {o["card_id"]: o for o in objects
                                            if o["kind"] == "card"}
        ids = list(truth)
        result = reader.read(load_image(args.scenes / "images" / f"{meta.stem}.jpg"))
        matched = match_reads(result.cards, [(truth[c]["card"], truth[c]["boxes"]) for c in ids])
        right = {ids[k] for k, card in matched.hits.items() if card.card == truth[ids[k]]["card"]}
        for cid in ids:
            face = faces.get(cid)
            shown = face["visible"] if face else 0.0
            box = face["box"] if face else (0, 0, 0, 0)
            tall = max(box[3] - box[1], box[2] - box[0])
            kind = "number" if truth[cid]["card"][:-1] in NUMBERS else "court/ace/joker"
            tally[(_band(shown, SHOWN), _band(tall, SIZE), kind, cid in right)] += 1
    lost = sum(n for k, n in tally.items() if not k[3])
    print(f"labelled cards {sum(tally.values())}, not read right {lost}")
    print(f"{'face':<22}{'card':<20}{'kind':<17}{'not read right':>15}{'read right':>12}")
    for shown in (s for _, s in SHOWN):
        for size in (s for _, s in SIZE):
            for kind in ("number", "court/ace/joker"):
                miss, hit = tally[(shown, size, kind, False)], tally[(shown, size, kind, True)]
                if miss or hit:
                    print(f"{shown:<22}{size:<20}{kind:<17}{miss:>15}{hit:>12}")


if __name__ == "__main__":
    main()
