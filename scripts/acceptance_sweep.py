"""Which index readings to keep: rules beyond the classifier's threshold, on one set of looks.

    .venv/bin/python scripts/acceptance_sweep.py [--models models]
        [--test data/model-work/test] [--cache data/acceptance-looks.pkl]

The detector and the classifier run once per scene (their answers are cached in `--cache`);
each rule then decides which readings go to the pairing, and the cards are scored as
`scorekeeper eval` scores them: exact cards of the labelled ones, false cards of the
predicted ones. A rule sees the classifier's surest answer `p`, its runner-up `p2`, the
detector's confidence `conf` and the index's long side `px`. The reader's own rule is
`p >= 0.5`. Choose rules on scenes of the training designs (`--test` a validation
folder); the held-out scenes are for the one rule chosen.
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable
from pathlib import Path

import numpy as np

from scorekeeper.training.adapt_check import match_cards
from scorekeeper.vision.classes import CARD, CLASSIFIER_CLASSES, INDEX
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.evaluate import UNASKED, read_labels
from scorekeeper.vision.pairing import IndexReading, pair_indices
from scorekeeper.vision.reader import MODELS, CardReader, load_image

Rule = Callable[[float, float, float, float], bool]  # p, p2, conf, px → keep
RULES: dict[str, Rule] = {
    **{f"p >= {t}": (lambda p, p2, c, px, t=t: p >= t) for t in (0.4, 0.45, 0.5, 0.55)},
    **{f"p * conf >= {t}": (lambda p, p2, c, px, t=t: p * c >= t)
       for t in (0.25, 0.3, 0.35, 0.4)},
    **{f"p - p2 >= {t}": (lambda p, p2, c, px, t=t: p - p2 >= t) for t in (0.2, 0.3, 0.4)},
    **{f"p >= ({a} if conf >= 0.5 else {b})":
       (lambda p, p2, c, px, a=a, b=b: p >= (a if c >= 0.5 else b))
       for a, b in ((0.4, 0.5), (0.45, 0.5), (0.45, 0.55), (0.45, 0.6))},
    **{f"p >= ({a} if px < 20 else 0.5)": (lambda p, p2, c, px, a=a: p >= (a if px < 20 else 0.5))
       for a in (0.4, 0.6)},
}


def looks(models: Path, test: Path) -> list[tuple]:
    """Per scene: its index and card detections, the classifier's answers, the labels."""
    reader = CardReader(models)
    assert reader.classifier is not None, "a two-stage model (index detector + classifier)"
    scenes = []
    for meta in sorted((test / "cards").glob("*.json")):
        truth: dict[int, tuple[str, list]] = {}
        labels = read_labels(meta)
        for o in labels:
            if o["kind"] == "index":
                truth.setdefault(o["card_id"], (o["card"], []))[1].append(o["box"])
        ignore = [(o["card"], [o["box"]]) for o in labels if o["kind"] in UNASKED]
        image = load_image(test / "images" / f"{meta.stem}.jpg")
        dets, _ = reader.detect(image)
        index = [d for d in dets if d.cls == INDEX]
        probs = (reader.classifier.probabilities([crop_index(image, d.box) for d in index])
                 if index else np.zeros((0, len(CLASSIFIER_CLASSES))))
        scenes.append((index, [d for d in dets if d.cls == CARD], probs, list(truth.values()),
                       ignore))
    return scenes


def score(scenes: list[tuple], keep: Rule) -> tuple[int, int, int, int]:
    """Exact cards, false cards, predicted cards, labelled cards."""
    exact = false = predicted = labelled = 0
    for index, cards, probs, truth, ignore in scenes:
        readings = []
        for det, row in zip(index, probs, strict=True):
            k = int(row.argmax())
            p, p2 = float(row[k]), float(np.sort(row)[-2])
            if CLASSIFIER_CLASSES[k] != "none" and keep(p, p2, det.conf, det.size):
                readings.append(IndexReading(det, CLASSIFIER_CLASSES[k], p))
        found = pair_indices(readings, cards)
        right, wrong = match_cards(found, [(code, boxes, True) for code, boxes in truth],
                                   ignore=ignore)
        exact += right
        false += wrong
        predicted += right + wrong  # as `scorekeeper eval`: a card read where no label asks
        # (`evaluate.UNASKED`) is neither right nor false
        labelled += len(truth)
    return exact, false, predicted, labelled


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--test", type=Path, default=MODELS.parent / "data" / "model-work" / "test")
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args()
    if args.cache is not None and args.cache.exists():
        scenes = pickle.loads(args.cache.read_bytes())
    else:
        scenes = looks(args.models, args.test)
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(scenes))
    print("| rule | exact | false (of predicted) | both targets |")
    print("|---|---|---|---|")
    for name, keep in RULES.items():
        exact, false, predicted, labelled = score(scenes, keep)
        both = exact >= 0.9 * labelled and false <= 0.02 * predicted
        print(f"| `{name}` | {exact} ({exact / labelled:.1%}) | {false} "
              f"({false / max(1, predicted):.1%}) | {'yes' if both else 'no'} |")


if __name__ == "__main__":
    main()
