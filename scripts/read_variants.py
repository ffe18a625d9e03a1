"""Score ways of reading the detector's indices, on its own detections cached once.

    .venv/bin/python scripts/read_variants.py [--models models] [--work data/model-work]
        [--cache /tmp/read-variants.pkl] [NAME ...]

The reader's detections (second look included) of the held-out, validation and real-photo
images are cached; then each named variant re-reads the cached indices and is scored by
`scorekeeper eval`'s own functions. Variants: several crops per index averaged (margins,
scales, shifts, fewer turns), and "fused-AGREE": a card's two corners paired by geometry
when their answers agree (Σ p·q ≥ AGREE over the cards) and read together (the product of
their answers), the classifier threshold applied to the fused answer. Measured for 0.6.0
on the 0.5.0 model; none is kept (models/README.md, "Tried and dropped").
"""

from __future__ import annotations

import argparse
import hashlib
import math
import pickle
from pathlib import Path

import numpy as np

from scorekeeper.vision import evaluate
from scorekeeper.vision.classes import CARD, CARD_CODES, INDEX, JOKER, rank_of
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import PAIR_MAX, PAIR_MIN, IndexReading, PhysicalCard, pair_indices
from scorekeeper.vision.reader import MODELS, CardReader, ReadResult, load_image

Crop = tuple[tuple[float, float, float], float, tuple[int, ...]]  # (dx, dy, scale), margin, turns
TURNS = (0, 1, 2, 3)
CROPS: dict[str, list[Crop]] = {
    "shipped": [((0, 0, 1), 0.15, TURNS)],
    "turns-0-180": [((0, 0, 1), 0.15, (0, 2))],
    "margins-.10-.15-.25": [((0, 0, 1), m, TURNS) for m in (0.10, 0.15, 0.25)],
    "margins-.15-.30": [((0, 0, 1), m, TURNS) for m in (0.15, 0.30)],
    "scales-.9-1-1.15": [((0, 0, s), 0.15, TURNS) for s in (0.9, 1.0, 1.15)],
    "shifts-8%": [((dx, dy, 1), 0.15, TURNS) for dx, dy in
                  ((0, 0), (0.08, 0), (-0.08, 0), (0, 0.08), (0, -0.08))],
}
FUSED = {"fused-0.1": 0.1, "fused-0.2": 0.2, "fused-0.3": 0.3}


def _key(image: np.ndarray) -> str:
    return hashlib.md5(image.tobytes()).hexdigest()


def _moved(box: tuple[float, float, float, float], dx: float, dy: float, s: float
           ) -> tuple[float, float, float, float]:
    w, h = box[2] - box[0], box[3] - box[1]
    cx, cy = (box[0] + box[2]) / 2 + dx * w, (box[1] + box[3]) / 2 + dy * h
    return (cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2)


def fused_pairs(answers: list[tuple[Detection, np.ndarray]], cards: list[Detection],
                agree: float, min_prob: float) -> list[PhysicalCard]:
    """The shipped pairing's two steps, but corners that may be one card are read together.

    A whole card takes its best corner and a partner of the same rank or an agreeing answer;
    two free corners pair when a card's diagonal apart and agreeing. The threshold applies
    to the fused answer, so an unsure corner can be settled by its partner.
    """
    free = sorted(answers, key=lambda dp: -float(dp[1].max()) * dp[0].conf)
    groups: list[tuple[list[tuple[Detection, np.ndarray]], tuple | None]] = []
    for card in sorted(cards, key=lambda d: -d.conf):
        inside = [a for a in free if _in(a[0].centre, card.box)]
        if not inside:
            continue
        best = inside[0]
        partner = [a for a in inside[1:] if rank_of(_code(a)) == rank_of(_code(best))
                   or float(a[1] @ best[1]) >= agree][:1]
        # a joker read inside a card that shows its own corner is court-card art
        art = [a for a in inside[1:] if _code(a) == JOKER != _code(best)
               and all(a is not b for b in partner)]
        free = [a for a in free if all(a is not b for b in (best, *partner, *art))]
        groups.append(([best, *partner], card.box))
    used: set[int] = set()
    for i, (a, pa) in enumerate(free):
        if i in used:
            continue
        used.add(i)
        best_j, gap = None, math.inf
        for j in range(i + 1, len(free)):
            b, pb = free[j]
            scale, dist = (a.size + b.size) / 2, math.dist(a.centre, b.centre)
            off = abs(dist - (PAIR_MIN + PAIR_MAX) / 2 * scale)
            if (j not in used and float(pa @ pb) >= agree
                    and PAIR_MIN * scale <= dist <= PAIR_MAX * scale and off < gap):
                best_j, gap = j, off
        if best_j is not None:
            used.add(best_j)
        groups.append(([(a, pa)] if best_j is None else [(a, pa), free[best_j]], None))
    out = []
    for group, box in groups:
        joint = np.prod([p for _, p in group], axis=0)
        k = int(joint.argmax())
        if joint[k] / max(float(joint.sum()), 1e-12) < min_prob:
            continue
        dets = [d for d, _ in group]
        box = box or (min(d.box[0] for d in dets), min(d.box[1] for d in dets),
                      max(d.box[2] for d in dets), max(d.box[3] for d in dets))
        out.append(PhysicalCard(CARD_CODES[k], float(joint[k] / joint.sum()), box,
                                tuple(IndexReading(d, CARD_CODES[k], float(p[k]))
                                      for d, p in group)))
    return out


def _code(answer: tuple[Detection, np.ndarray]) -> str:
    return CARD_CODES[int(answer[1].argmax())]


def _in(pt: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= pt[0] <= box[2] and box[1] <= pt[1] <= box[3]


class CachedReader:
    """Answers `read` from the cache, with one variant's answers for its indices."""

    def __init__(self, dets: dict, probs: dict, min_prob: float, agree: float | None) -> None:
        self.dets, self.probs, self.min_prob, self.agree = dets, probs, min_prob, agree

    def read(self, image: np.ndarray, camera: str | None = None) -> ReadResult:
        key = _key(image)
        cards = [d for d in self.dets[key] if d.cls == CARD]
        found = [d for d in self.dets[key] if d.cls == INDEX]
        answers = [(d, p[:len(CARD_CODES)]) for d, p in zip(found, self.probs[key], strict=True)
                   if p.argmax() < len(CARD_CODES)]
        if self.agree is not None:
            return ReadResult(fused_pairs(answers, cards, self.agree, self.min_prob), 0.0)
        readings = [IndexReading(d, CARD_CODES[int(p.argmax())], float(p.max()))
                    for d, p in answers if p.max() >= self.min_prob]
        return ReadResult(pair_indices(readings, cards), 0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=[*CROPS, *FUSED],
                    choices=[*CROPS, *FUSED])
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--work", type=Path, default=MODELS.parent / "data" / "model-work")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/read-variants.pkl"))
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None, "a two-stage model (index detector + classifier)"
    sets = {"held-out": args.work / "test", "validation": args.work / "val"}
    paths = [p for root in sets.values() for p in sorted((root / "images").glob("*.jpg"))]
    paths += sorted((evaluate.REAL_PHOTOS / "images").glob("*"))
    if args.cache.exists():
        dets = pickle.loads(args.cache.read_bytes())
    else:
        dets = {_key(image): reader.detect(image)[0] for image in map(load_image, paths)}
        args.cache.write_bytes(pickle.dumps(dets))
    for name in args.names:
        probs = {}
        for image in map(load_image, paths):
            found = [d for d in dets[_key(image)] if d.cls == INDEX]
            total = np.zeros((len(found), 54))
            for (dx, dy, s), margin, turns in CROPS.get(name, CROPS["shipped"]):
                if not found:
                    break
                total += reader.classifier.probabilities(
                    [crop_index(image, _moved(d.box, dx, dy, s), margin) for d in found], turns)
            probs[_key(image)] = total / len(CROPS.get(name, CROPS["shipped"]))
        cached = CachedReader(dets, probs, reader.min_prob, FUSED.get(name))
        held = evaluate.eval_synthetic(cached, sets["held-out"])
        val = evaluate.eval_synthetic(cached, sets["validation"])
        real = evaluate.eval_real(cached)
        print(f"{name}: held-out {held['correct']}/{held['labelled']} P {held['precision']:.3f}"
              f" F1 {held['f1']:.4f} | validation R {val['recall']:.3f} P {val['precision']:.3f}"
              f" F1 {val['f1']:.4f} | real P {real['precision']:.3f} R {real['recall']:.3f}"
              f" F1 {real['f1']:.4f}", flush=True)


if __name__ == "__main__":
    main()
