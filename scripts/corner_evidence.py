"""How much a card's two corners, read together, could add to what either reads alone.

The reader counts a card from one index read at `min_prob` or more; two corners of one card
each read under it count for nothing, and two corners read as different cards count twice.
This caches what the reader sees on rendered scenes (every index detection, the classifier's
whole answer for it, the labels) so that rules for weighing corners together can be scored
offline, exactly as `scorekeeper eval` scores a scene:

    python scripts/corner_evidence.py cache data/model-work/val data/cache-val.pkl
    python scripts/corner_evidence.py score data/cache-val.pkl --min-prob 0.55 --pair-prob 0.3

`score` prints exact and false cards for the shipped rule (one index at `min_prob`) and for
the rule under test: readings from `--pair-prob` join the pairing, and a card they form
counts when its corners together are sure enough (`--rule`).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.vision.classes import CARD, CLASSIFIER_CLASSES, INDEX
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.evaluate import UNASKED, index_truth, match_reads, read_labels
from scorekeeper.vision.pairing import IndexReading, PhysicalCard, pair_indices
from scorekeeper.vision.reader import CardReader, load_image


def cache(root: Path, out: Path, models: Path | None, limit: int | None) -> None:
    reader = CardReader(models) if models else CardReader()
    assert reader.classifier is not None
    scenes: list[dict[str, Any]] = []
    metas = sorted((root / "cards").glob("*.json"))[:limit]
    for n, meta in enumerate(metas):
        image = load_image(root / "images" / f"{meta.stem}.jpg")
        dets, _ = reader.detect(image)
        index_dets = [d for d in dets if d.cls == INDEX]
        probs = (reader.classifier.probabilities([crop_index(image, d.box) for d in index_dets])
                 if index_dets else np.zeros((0, len(CLASSIFIER_CLASSES)), np.float32))
        scenes.append({"name": meta.stem, "objects": read_labels(meta), "index": index_dets,
                       "cards": [d for d in dets if d.cls == CARD],
                       "probs": probs.astype(np.float32)})
        if n % 50 == 0:
            print(f"{n}/{len(metas)}", file=sys.stderr)
    out.write_bytes(pickle.dumps({"min_prob": reader.min_prob, "scenes": scenes}))


def _readings(scene: dict[str, Any], floor: float) -> list[IndexReading]:
    out = []
    for det, p in zip(scene["index"], scene["probs"], strict=True):
        k = int(p.argmax())
        code = CLASSIFIER_CLASSES[k]
        if code != "none" and p[k] >= floor:
            out.append(IndexReading(det, code, float(p[k])))
    return out


def read_scene(scene: dict[str, Any], min_prob: float, pair_prob: float | None,
               rule: str, both: float) -> list[PhysicalCard]:
    """The cards of one cached scene under a rule (None: the shipped one)."""
    if pair_prob is None:
        return pair_indices(_readings(scene, min_prob), scene["cards"])
    cards = pair_indices(_readings(scene, pair_prob), scene["cards"])
    return [c for c in cards if _sure_enough([r.prob for r in c.indices], min_prob, rule, both)]


def _sure_enough(ps: list[float], min_prob: float, rule: str, both: float) -> bool:
    if max(ps) >= min_prob:
        return True
    if len(ps) != 2:
        return False
    if rule == "both":
        return min(ps) >= both
    return 1 - (1 - ps[0]) * (1 - ps[1]) >= min_prob  # noisy-or


def score(scenes: list[dict[str, Any]], read: Any) -> dict[str, int]:
    exact = false = truth_n = clean = 0
    for scene in scenes:
        objects = scene["objects"]
        truth = index_truth(objects)
        ignore = [(o["card"], [o["box"]]) for o in objects if o["kind"] in UNASKED]
        ids = list(truth)
        m = match_reads(read(scene), [(truth[c]["card"], truth[c]["boxes"]) for c in ids],
                        ignore=ignore)
        right = sum(card.card == truth[ids[k]]["card"] for k, card in m.hits.items())
        wrong = len(m.hits) - right + len(m.strays)
        exact += right
        false += wrong
        truth_n += len(truth)
        clean += right == len(truth) and wrong == 0
    return {"labelled": truth_n, "exact": exact, "false": false, "clean": clean,
            "scenes": len(scenes)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cache")
    c.add_argument("root", type=Path)
    c.add_argument("out", type=Path)
    c.add_argument("--models", type=Path)
    c.add_argument("--limit", type=int)
    s = sub.add_parser("score")
    s.add_argument("cache", type=Path)
    s.add_argument("--min-prob", type=float, nargs="+", default=[0.55])
    s.add_argument("--pair-prob", type=float, nargs="*", default=[])
    s.add_argument("--rule", choices=("both", "noisy-or"), default="both")
    s.add_argument("--both", type=float, default=0.3)
    args = ap.parse_args()
    if args.cmd == "cache":
        cache(args.root, args.out, args.models, args.limit)
        return
    data = pickle.loads(args.cache.read_bytes())
    for mp in args.min_prob:
        base = score(data["scenes"], lambda s, mp=mp: read_scene(s, mp, None, "", 0))
        print(f"min_prob {mp}: one index  {base}")
        for pp in args.pair_prob:
            r = score(data["scenes"], lambda s, mp=mp, pp=pp: read_scene(
                s, mp, pp, args.rule, max(pp, args.both)))
            print(f"min_prob {mp}: pair from {pp} ({args.rule})  {r}")


if __name__ == "__main__":
    main()
