"""Which same-code detections the pairing takes for one printed index, and what they were.

    .venv/bin/python scripts/same_index_pairs.py SCENES [--limit N] [--models models]

Before corners are paired, two detections that read the same card and lie one on the
other are taken for one index detected twice, and one is dropped (`pairing._same_index`).
Two identical cards of two decks fanned side by side in one hand can lie so too. For
every pair of same-code index detections of one frame that overlap at all, this prints
how much they overlap (IoU, and the share of the smaller box inside the larger), whether
the rule takes them for one index, and what they were: the same labelled index (both
detections' best labelled box is the same), two cards (their best boxes are two different
cards' corners), or unknown (a detection on no labelled corner).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.evaluate import DETECTED_IOU, read_labels
from scorekeeper.vision.fan_eval import CORNER_KINDS
from scorekeeper.vision.pairing import IndexReading, _same_index, box_iou
from scorekeeper.vision.reader import MODELS, CardReader, load_image


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The share of the smaller box that lies inside the other."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / small if small > 0 else 0.0


def _owner(r: IndexReading, corners: list[tuple[int, list[float]]]) -> tuple[int, int] | None:
    """(card_id, corner number) of the labelled corner `r` lies on, if any."""
    ious = [box_iou(r.det.box, box) for _, box in corners]
    best = max(range(len(corners)), key=ious.__getitem__, default=None)
    if best is None or ious[best] < DETECTED_IOU:
        return None
    return corners[best][0], best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", type=Path)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--models", type=Path, default=MODELS)
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None
    rows: Counter[tuple[str, bool, str, str]] = Counter()
    for meta in sorted((args.scenes / "cards").glob("*.json"))[:args.limit]:
        corners = [(o["card_id"], o["box"]) for o in read_labels(meta)
                   if o["kind"] in CORNER_KINDS and o.get("card") is not None]
        image = load_image(args.scenes / "images" / f"{meta.stem}.jpg")
        dets = [d for d in reader.detect(image)[0] if d.cls == INDEX]
        crops = [crop_index(image, d.box) for d in dets]
        labels, _ = reader._second_look(crops, reader.classifier.classify(crops))
        reads = [IndexReading(d, code, p) for d, (code, p) in zip(dets, labels, strict=True)
                 if code != "none" and p >= reader.min_prob]

        for i, a in enumerate(reads):
            for b in reads[i + 1:]:
                overlap = _inside(a.det.box, b.det.box)
                if a.card != b.card or overlap == 0:
                    continue
                oa, ob = _owner(a, corners), _owner(b, corners)
                what = ("unknown" if oa is None or ob is None else
                        "two cards" if oa[0] != ob[0] else
                        "the same index" if oa[1] == ob[1] else "two corners of one card")
                iou = box_iou(a.det.box, b.det.box)
                rows[(what, _same_index(a, b), f"IoU {min(int(iou * 10), 9) / 10:.1f}",
                      f"inside {min(int(overlap * 10), 9) / 10:.1f}")] += 1
    print("| what they were | taken for one index | IoU from | smaller box inside from | pairs |")
    print("|---|---|---|---|---|")
    for (what, same, iou, inside), n in sorted(rows.items()):
        print(f"| {what} | {'yes' if same else 'no'} | {iou[4:]} | {inside[7:]} | {n} |")


if __name__ == "__main__":
    main()
