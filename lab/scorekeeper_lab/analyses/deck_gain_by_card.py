"""Where a deck's adapted classifier gains: fan scenes read by the generic model and by the
deck, the cards under 40 % covered counted apart: those `deck adapt` trained on, those its
check held back (`split_groups` of the deck's rows and the run's seed), and those it never
had a crop of (a labels line's `unboxed`).

    SCOREKEEPER_DATA_DIR=DIR .venv/bin/python -m scorekeeper_lab.analyses.deck_gain_by_card \
        DIR NAME SCENES \
        [--seed 0]

docs/decks.md (what adapting a deck from one photo gains) was measured with it: the gain
is in the cards the deck trained on, which is why a check on held-back cards cannot see it.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from scorekeeper.decks.examples import load_crops
from scorekeeper.decks.profile import open_deck
from scorekeeper.vision.matching import match_reads
from scorekeeper.vision.reader import CardReader, load_image
from scorekeeper_lab.evaluation.evaluate import read_labels
from scorekeeper_lab.evaluation.fan_eval import BAND_NAMES, fan_truth
from scorekeeper_lab.training.adapt_check import split_groups


def exact_by_side(reader: CardReader, scenes: Path, trained: set[str], held: set[str]
                  ) -> tuple[Counter[str], Counter[str]]:
    """(read exactly, asked for) of the cards under 40 % covered, by "trained", "held" and
    "never" (no crop of it)."""
    got: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    for meta in sorted((scenes / "cards").glob("*.json")):
        truth = fan_truth(read_labels(meta))
        result = reader.read(load_image(scenes / "images" / f"{meta.stem}.jpg"))
        ids = list(truth)
        matched = match_reads(result.cards, [(truth[c]["card"], truth[c]["boxes"]) for c in ids])
        for k, cid in enumerate(ids):
            t = truth[cid]
            if t["band"] not in BAND_NAMES[:2]:
                continue
            side = ("trained" if t["card"] in trained else "held" if t["card"] in held
                    else "never")
            asked[side] += 1
            hit = matched.hits.get(k)
            got[side] += int(hit is not None and hit.card == t["card"])
    return got, asked


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data_dir", type=Path, help="the data folder holding decks/NAME")
    ap.add_argument("name")
    ap.add_argument("scenes", type=Path, help="fan scenes (`synth fans`)")
    ap.add_argument("--seed", type=int, default=0, help="the `deck adapt` run's seed")
    ap.add_argument("--models", type=Path, default=Path("models"))
    args = ap.parse_args()

    deck = open_deck(args.data_dir, args.name)
    _, rows = load_crops(deck)
    train, back = split_groups(rows, args.seed)
    trained = {rows[i]["card"] for i in train} - {"none"}
    held = {rows[i]["card"] for i in back} - {"none"}
    print(f"trained on {len(trained)} cards; held back {len(held)}:", " ".join(sorted(held)))
    for name, reader in (("generic", CardReader(args.models)),
                         ("deck", CardReader(args.models, deck=deck))):
        got, asked = exact_by_side(reader, args.scenes, trained, held)
        print(f"{name}: " + ", ".join(f"{side} {got[side]}/{asked[side]}"
                                      for side in ("trained", "held", "never")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
