"""`scorekeeper eval`: the held-out synthetic deck and the real photographs.

Held-out deck: a visible card is read exactly when one predicted card sits on one of its
visible indices with its exact rank and suit. Real photographs carry rank-only, whole-card
labels: a labelled card counts when a predicted card of the right rank has its centre in
the box; a prediction inside no box is false.
"""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.vision.classes import RANK_NAMES, rank_of
from scorekeeper.vision.reader import MODELS, CardReader, VisionError, load_image

if TYPE_CHECKING:
    from scorekeeper.decks.profile import DeckProfile

REAL_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-photos-dev"


# index sizes (longest side, image pixels) the held-out recall is also broken down by: what
# a camera must resolve is the figure a club setting one up needs (README: hardware)
SIZE_BUCKETS = ((0, 15), (15, 20), (20, 30), (30, 10**6))


def _bucket(px: float) -> str:
    lo, hi = next(b for b in SIZE_BUCKETS if b[0] <= px < b[1])
    return f"≥ {lo} px" if hi == 10**6 else f"{lo}–{hi} px"


@dataclass
class Score:
    truth: int = 0
    predicted: int = 0
    correct: int = 0
    false: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_size: dict[str, list[int]] = field(default_factory=dict)  # bucket → [labelled, read]

    def as_dict(self) -> dict[str, Any]:
        p = self.correct / self.predicted if self.predicted else 0.0
        r = self.correct / self.truth if self.truth else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        return {"labelled": self.truth, "predicted": self.predicted, "correct": self.correct,
                "false": self.false, "precision": round(p, 4), "recall": round(r, 4),
                "f1": round(f1, 4), "false_rate": round(self.false / max(1, self.predicted), 4),
                "worst_confusions": [f"{a}→{b} ×{n}" for (a, b), n in
                                     self.confusions.most_common(10)],
                **({"recall_by_index_px": {k: {"labelled": n, "correct": c,
                                                "recall": round(c / n, 4)}
                                            for k, (n, c) in self.by_size.items()}}
                   if self.by_size else {})}


def _inside(pt: tuple[float, float], box: list[float] | tuple[float, ...]) -> bool:
    return box[0] <= pt[0] <= box[2] and box[1] <= pt[1] <= box[3]


def read_labels(path: Path) -> list[dict[str, Any]]:
    """A rendered scene's labels as `python -m scorekeeper.training.synth render` writes them:
    a list (`{"objects": [...]}` is read too). Here, not beside the renderer, so that
    `scorekeeper eval` needs none of the training code."""
    data = json.loads(path.read_text())
    objects: list[dict[str, Any]] = data["objects"] if isinstance(data, dict) else data
    return objects


def legacy_set(test: Path) -> Path | None:
    """The earlier generator's held-out scenes rendered beside `test` (no print, covered
    pips labelled: `make model` renders them as `<test>-legacy`), if they are there."""
    legacy = test.with_name(test.name + "-legacy")
    return legacy if (legacy / "cards").is_dir() else None


def eval_synthetic(reader: CardReader, root: Path, limit: int | None = None) -> dict[str, Any]:
    score = Score()
    for meta_path in sorted((root / "cards").glob("*.json"))[:limit]:
        objects = read_labels(meta_path)
        truth: dict[int, dict[str, Any]] = {}
        for o in objects:
            if o["kind"] == "index":
                t = truth.setdefault(o["card_id"], {"card": o["card"], "boxes": []})
                t["boxes"].append(o["box"])
        result = reader.read(load_image(root / "images" / f"{meta_path.stem}.jpg"))
        score.truth += len(truth)
        score.predicted += len(result.cards)
        size_of = {cid: _bucket(max(max(b[2] - b[0], b[3] - b[1]) for b in t["boxes"]))
                   for cid, t in truth.items()}
        for key in size_of.values():
            score.by_size.setdefault(key, [0, 0])[0] += 1
        claimed: set[int] = set()
        for card in sorted(result.cards, key=lambda c: -c.confidence):
            centres = [r.det.centre for r in card.indices]
            # index boxes overlap in a fanned hand: a card under several is matched to the
            # one it names, if any, so one card never takes another's right answer
            under = [cid for cid, t in truth.items() if cid not in claimed and any(
                _inside(c, b) for c in centres for b in t["boxes"])]
            hit = next((cid for cid in under if truth[cid]["card"] == card.card),
                       under[0] if under else None)
            if hit is None:
                score.false += 1
                continue
            claimed.add(hit)
            if card.card == truth[hit]["card"]:
                score.correct += 1
                score.by_size[size_of[hit]][1] += 1
            else:
                score.false += 1
                score.confusions[(truth[hit]["card"], card.card)] += 1
    return score.as_dict()


def eval_real(reader: CardReader, root: Path = REAL_PHOTOS) -> dict[str, Any]:
    labels: dict[str, list[tuple[str, list[float]]]] = defaultdict(list)
    with open(root / "labels.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            box = [float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")]
            labels[row["filename"]].append((row["class"], box))
    score = Score()
    names = {v: k for k, v in RANK_NAMES.items()}
    for filename, boxes in sorted(labels.items()):
        result = reader.read(load_image(root / "images" / filename))
        score.truth += len(boxes)
        score.predicted += len(result.cards)
        matched: set[int] = set()
        for card in sorted(result.cards, key=lambda c: -c.confidence):
            centre = ((card.box[0] + card.box[2]) / 2, (card.box[1] + card.box[3]) / 2)
            rank = rank_of(card.card)
            inside = [i for i, (_, b) in enumerate(boxes) if _inside(centre, b)]
            good = [i for i in inside if names[boxes[i][0]] == rank and i not in matched]
            if good:
                matched.add(good[0])
                score.correct += 1
            else:
                score.false += 1
                if inside:
                    score.confusions[(names[boxes[inside[0]][0]], rank)] += 1
    return score.as_dict()


def format_report(name: str, s: dict[str, Any]) -> str:
    lines = [f"{name}: precision {s['precision']:.3f}  recall {s['recall']:.3f}  "
             f"F1 {s['f1']:.3f}  ({s['correct']}/{s['labelled']} read, "
             f"{s['false']} false of {s['predicted']} predicted)"]
    if s["worst_confusions"]:
        lines.append("  worst confusions: " + ", ".join(s["worst_confusions"]))
    if s.get("recall_by_index_px"):
        order = [_bucket(lo) for lo, _ in SIZE_BUCKETS]
        parts = [f"{k} {v['correct']}/{v['labelled']} ({v['recall']:.1%})"
                 for k, v in sorted(s["recall_by_index_px"].items(),
                                    key=lambda kv: order.index(kv[0]))]
        lines.append("  read by the card's largest visible index: " + ", ".join(parts))
    return "\n".join(lines)


def run(runtime: str | None, synthetic: Path | None, real: Path | None, limit: int | None,
        out: Any, models: Path | None = None, err: Any = None,
        deck: DeckProfile | None = None) -> int:
    """Score the model (with `deck`'s classifier, when given) on both sets."""
    try:
        reader = CardReader(models or MODELS, runtime=runtime, deck=deck)
    except VisionError as exc:
        (err or out).write(f"error: {exc}\n")
        return 2
    for warning in reader.warnings:
        (err or out).write(f"warning: {warning}\n")
    if reader.deck is not None:
        out.write(f"reading with deck {reader.deck!r}'s classifier\n")
    synthetic = synthetic or MODELS.parent / "data" / "model-work" / "test"
    real = real or REAL_PHOTOS
    if (synthetic / "cards").exists():
        out.write(format_report("held-out deck", eval_synthetic(reader, synthetic, limit)) + "\n")
        # kept so figures stay comparable across the labelling change
        if (legacy := legacy_set(synthetic)) is not None:
            out.write(format_report("held-out deck, earlier labelling",
                                    eval_synthetic(reader, legacy, limit)) + "\n")
    else:
        out.write(f"held-out deck: {synthetic} not rendered (run `make model`); skipped\n")
    if (real / "labels.csv").exists():
        out.write(format_report("real photos (rank)", eval_real(reader, real)) + "\n")
    else:
        out.write(f"real photos: {real} missing; skipped\n")
    return 0
