"""The real-print fans by the photo each card was cut from: how far the proxy is its cards.

    .venv/bin/python scripts/real_fan_sources.py data/fans-real-test \\
        --real models/eval/real-photos-dev-cards.jsonl --real-images PHOTOS/images \\
        --skip data/real-deck/enrol-20.jsonl [--models models] [--worst 8]

`synth fans --real` fans a few dozen cards cut from real photos over and over (each appears
in dozens of scenes), so the proxy's 1930 cards under 40 % covered are far fewer pieces of
print. For each scene the fan's placements are drawn again from the scene's seed (as
`render_fans` drew them, checked card for card against the labels), so each card of the
benchmark is known by its cut: this prints, per cut, the cards of the first two bands read,
missed (and why) and false, worst first, the share of all misses the worst few hold, and
recall by how much each cut was enlarged into its scene (its fan's card width over the
short side of its box in the photo).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path

import numpy as np

from scorekeeper.training.synth.fans import fan_places, scene_decks
from scorekeeper.training.synth.realcards import faces_with_origins, real_deck, skip_names
from scorekeeper.vision.evaluate import _Detections, _rivals, match_reads, read_labels
from scorekeeper.vision.fan_eval import BAND_NAMES, fan_truth
from scorekeeper.vision.reader import CardReader, load_image

ROOT = Path(__file__).resolve().parents[1]
ENLARGED = (0.0, 0.8, 1.0, 1.3, 1.7, float("inf"))


def outcomes(fans: Path, args: argparse.Namespace) -> list[dict]:
    """One row per labelled card of the first two bands: its cut, scale and outcome."""
    meta = json.loads((fans / "dataset.json").read_text())
    skip = skip_names(args.skip) if args.skip else None
    faces, origins, _ = faces_with_origins(args.real, args.real_images, skip)
    deck = real_deck(args.real.stem, faces)
    origin = {id(f.image): o for f, o in zip(faces, origins, strict=True)}
    reader = CardReader(args.models)
    spy = _Detections(reader)
    rows = []
    try:
        for path in sorted((fans / "cards").glob("*.json")):
            i = int(path.stem)
            rng = np.random.default_rng([meta["seed"], i])
            dealt = scene_decks(rng, [deck], bool(meta.get("one_of_each")))
            places = fan_places(rng, dealt, tuple(meta["size"]))
            truth = fan_truth(read_labels(path))
            image = load_image(fans / "images" / f"{path.stem}.jpg")
            result = reader.read(image)
            ids = list(truth)
            matched = match_reads(result.cards, [(truth[c]["card"], truth[c]["boxes"])
                                                 for c in ids])
            for k, cid in enumerate(ids):
                t, place = truth[cid], places[cid]
                if place.face is None or place.face.card != t["card"]:
                    raise SystemExit(f"scene {i}: card {cid} is not the cut drawn again "
                                     "(other cuts or seed than these scenes were made with)")
                if t["band"] not in BAND_NAMES[:2]:
                    continue
                o = origin[id(place.face.image)]
                card = matched.hits.get(k)
                rows.append({"cut": f"{t['card']} from {Path(o.photo).name}",
                             "band": t["band"], "enlarged": place.width / o.side,
                             "outcome": "read" if card is not None and card.card == t["card"]
                             else "false" if card is not None
                             else spy.cause(image, t["boxes"], result.cards,
                                            _rivals(truth, cid))})
    finally:
        spy.close()
    return rows


def report(rows: list[dict], worst: int) -> None:
    by_cut: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        by_cut[r["cut"]][r["outcome"]] += 1
    lost = sum(n - c["read"] for c in by_cut.values() for n in [sum(c.values())])
    order = sorted(by_cut.items(), key=lambda kv: kv[1]["read"] / sum(kv[1].values()))
    print(f"{len(rows)} cards under 40 % covered, cut from {len(by_cut)} cards of the photos; "
          f"{lost} not read exactly")
    held = 0
    for cut, c in order[:worst]:
        n = sum(c.values())
        held += n - c["read"]
        rest = ", ".join(f"{k} {v}" for k, v in c.most_common() if k != "read")
        print(f"  {cut}: {c['read']}/{n} read ({rest})")
    print(f"the {worst} worst cuts hold {held} of the {lost} ({held / max(1, lost):.0%})")
    for lo, hi in pairwise(ENLARGED):
        sel = [r for r in rows if lo <= r["enlarged"] < hi]
        if sel:
            read = sum(r["outcome"] == "read" for r in sel)
            print(f"  enlarged {lo:g}–{hi:g}×: {read}/{len(sel)} read ({read / len(sel):.1%})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fans", type=Path)
    ap.add_argument("--real", type=Path, required=True)
    ap.add_argument("--real-images", type=Path, default=None)
    ap.add_argument("--skip", type=Path, default=None)
    ap.add_argument("--models", type=Path, default=ROOT / "models")
    ap.add_argument("--worst", type=int, default=8)
    args = ap.parse_args()
    report(outcomes(args.fans, args), args.worst)


if __name__ == "__main__":
    main()
