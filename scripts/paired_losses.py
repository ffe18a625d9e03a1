"""What "paired into another card" is, card by card, on fan scenes.

    .venv/bin/python scripts/paired_losses.py data/fans-test [--limit 200] [--models models]

`scorekeeper eval --fans` says a missed card was "paired into another card" when the
detection on its corner was read and then taken into a card that matched another. That
can be two different things. The corner's crop may be read as a neighbour (its name,
not the card's), so the corner joins that neighbour. Or the corner may be read right and
still end up in the card of a twin beside it (two decks in one hand). This prints each
such card of the cards under 40 % covered, and the count of each kind.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.evaluate import _Detections, _rivals, match_reads, read_labels
from scorekeeper.vision.fan_eval import BAND_NAMES, fan_truth
from scorekeeper.vision.pairing import box_iou
from scorekeeper.vision.reader import MODELS, CardReader, load_image

PAIRED = "paired into another card"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", type=Path)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--models", type=Path, default=MODELS)
    args = ap.parse_args()
    reader = CardReader(args.models)
    spy = _Detections(reader)
    kinds: Counter[str] = Counter()
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        truth = fan_truth(read_labels(meta))
        image = load_image(args.scenes / "images" / f"{meta.stem}.jpg")
        result = reader.read(image)
        ids = list(truth)
        matched = match_reads(result.cards, [(truth[c]["card"], truth[c]["boxes"]) for c in ids])
        owner = {id(card): ids[k] for k, card in matched.hits.items()}
        for k, cid in enumerate(ids):
            t = truth[cid]
            if (t["band"] not in BAND_NAMES[:2] or matched.hits.get(k) is not None
                    or spy.cause(image, t["boxes"], result.cards, _rivals(truth, cid)) != PAIRED):
                continue
            assert spy.last is not None
            det = max((d for d in spy.last if d.cls == INDEX),
                      key=lambda d: max(box_iou(d.box, b) for b in t["boxes"]))
            card = next(c for c in result.cards if any(r.det is det for r in c.indices))
            read = next(r for r in card.indices if r.det is det)
            joined = owner.get(id(card))
            joined_code = truth[joined]["card"] if joined is not None else None
            kind = ("read right, joined its twin" if read.card == t["card"] == joined_code
                    else "read right, joined another card" if read.card == t["card"]
                    else "read as the card it joined" if read.card == joined_code
                    else "misread, joined another card")
            kinds[kind] += 1
            print(f"{meta.stem} {t['card']}: read {read.card} ({read.prob:.2f}), in a card of "
                  f"{len(card.indices)} corner(s) matched to {joined_code}: {kind}")
    spy.close()
    print(dict(kinds))


if __name__ == "__main__":
    main()
