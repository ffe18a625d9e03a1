"""`scorekeeper-lab eval`: the held-out synthetic deck and the real photographs.

Held-out deck: a visible card is read exactly when one predicted card sits on one of its
visible indices with its exact rank and suit. Real photographs carry rank-only, whole-card
labels: a labelled card counts when a predicted card of the right rank has its centre in
the box; a prediction inside no box is false. Photos labelled card by card in `deck add
--labels`' format (`eval --labelled`, e.g. models/eval/) are scored by exact card instead,
a card a line names without a box (`unboxed`, as a confirmed scan's hand-added card) found
by a prediction in no box.

Per scene, what the players would have to fix before the hand counts: each missed card, each
wrong one and each false card is one correction, and a scene with none needs no correction
(game tables, `synth games`, also say it per player's hand). Each missed card is traced to
where it was lost, from the detections its frame was read with: no detection on its index,
a detection the classifier turned down, a reading pairing took as another card's corner, or
one dropped otherwise.
"""

from __future__ import annotations

import csv
import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.vision.classes import INDEX, RANK_NAMES, rank_of
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.matching import Boxes, centre, match_reads
from scorekeeper.vision.pairing import PhysicalCard, box_iou, point_in_box
from scorekeeper.vision.reader import MODELS, CardReader, VisionError, load_image
from scorekeeper_lab import REPO
from scorekeeper_lab.evaluation.reliability import (
    SceneReads,
    format_figures,
    measure,
    offer_reads,
    read_card,
)
from scorekeeper_lab.evaluation.sure_score import margins_of
from scorekeeper_lab.evaluation.unread_marks import card_bodies, mark_places

if TYPE_CHECKING:
    from scorekeeper.decks.profile import DeckProfile

REAL_PHOTOS = REPO.parent / "shared" / "data" / "real-photos-dev"


# index sizes (longest side, image pixels) the held-out recall is also broken down by: what
# a camera must resolve is the figure a club setting one up needs (README: hardware)
SIZE_BUCKETS = ((0, 15), (15, 20), (20, 30), (30, 10**6))
# where a missed card was lost; a detection is on an index from this IoU with its label box
MISS_CAUSES = ("not detected", "turned down by the classifier",
               "paired into another card", "dropped after reading")
DETECTED_IOU = 0.3
# label kinds of an index that shows but is not asked for (`compose._labels`): a reading of
# its own card there is neither right nor false
UNASKED = ("partial", "covered", "readable")


def precision_recall_f1(correct: int, predicted: int, truth: int) -> tuple[float, float, float]:
    """Of `predicted` readings `correct` were right, of `truth` labelled cards."""
    p = correct / predicted if predicted else 0.0
    r = correct / truth if truth else 0.0
    return p, r, 2 * p * r / (p + r) if p + r else 0.0


def size_bucket(px: float) -> str:
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
    scenes: int = 0
    clean: int = 0  # scenes with every card read right and no false card
    missed: int = 0
    wrong: int = 0  # read as another card (counted in `false` too)
    stray: int = 0  # on no card, or a second reading of a card already read
    ignored: int = 0  # read right where no label asks (`match_reads`): not in `predicted`
    miss_causes: Counter[str] = field(default_factory=Counter)
    hands: int = 0  # players' hands, when the labels name each card's player
    clean_hands: int = 0

    def per_scene(self) -> dict[str, Any]:
        n = max(1, self.scenes)
        return {"scenes": self.scenes, "no_correction": self.clean,
                "no_correction_share": round(self.clean / n, 4),
                "corrections_per_scene": round((self.missed + self.stray + self.wrong) / n, 3),
                "missed": self.missed, "false": self.stray, "wrong": self.wrong,
                "missed_because": {k: self.miss_causes[k] for k in (*MISS_CAUSES, "unknown")
                                   if self.miss_causes[k]},
                **({"hands": self.hands, "hands_no_correction": self.clean_hands,
                    "hands_no_correction_share": round(self.clean_hands / self.hands, 4)}
                   if self.hands else {})}

    def as_dict(self) -> dict[str, Any]:
        p, r, f1 = precision_recall_f1(self.correct, self.predicted, self.truth)
        return {"labelled": self.truth, "predicted": self.predicted, "correct": self.correct,
                "false": self.false, "precision": round(p, 4), "recall": round(r, 4),
                "f1": round(f1, 4), "false_rate": round(self.false / max(1, self.predicted), 4),
                "ignored": self.ignored,
                "worst_confusions": [f"{a}→{b} ×{n}" for (a, b), n in
                                     self.confusions.most_common(10)],
                **({"recall_by_index_px": {k: {"labelled": n, "correct": c,
                                                "recall": round(c / n, 4)}
                                            for k, (n, c) in self.by_size.items()}}
                   if self.by_size else {}),
                **({"per_scene": self.per_scene()} if self.scenes else {})}


def read_labels(path: Path) -> list[dict[str, Any]]:
    """A rendered scene's labels as `python -m scorekeeper_lab.training.synth render` writes them:
    a list (`{"objects": [...]}` is read too). Here, not beside the renderer, so that
    `scorekeeper-lab eval` needs none of the training code."""
    data = json.loads(path.read_text())
    objects: list[dict[str, Any]] = data["objects"] if isinstance(data, dict) else data
    return objects


def legacy_set(test: Path) -> Path | None:
    """The earlier generator's held-out scenes rendered beside `test` (no print, covered
    pips labelled: `make model` renders them as `<test>-legacy`), if they are there."""
    legacy = test.with_name(test.name + "-legacy")
    return legacy if (legacy / "cards").is_dir() else None




class DetectionTrace:
    """Keeps the detections a reader's `read` looked at, the hand detector's included (its
    trace hooks), so a missed card can be traced without detecting the frame twice (a
    reader without hooks is left alone)."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.last: list[Detection] | None = None
        self.hooked = hasattr(reader, "add_callback")
        if self.hooked:
            reader.add_callback("on_detect", self._detected)
            reader.add_callback("on_hand_look", self._hand_look)

    def _detected(self, dets: list[Detection]) -> None:
        self.last = list(dets)

    def _hand_look(self, dets: list[Detection]) -> None:
        if self.last is not None:
            self.last += dets

    def close(self) -> None:
        if self.hooked:
            self.reader.remove_callback("on_detect", self._detected)
            self.reader.remove_callback("on_hand_look", self._hand_look)

    def cause(self, image: Any, boxes: Boxes, cards: list[PhysicalCard],
              rivals: Iterable[Boxes] = ()) -> str:
        """Where a card whose index boxes are `boxes` was lost: its index not detected,
        the detection turned down, read and then taken as a corner of another card of
        `cards` (pairing), or read and dropped otherwise.

        `rivals`: the other labelled cards' index boxes. A detection is this card's only
        where no rival's index overlaps it more: in a tight fan the next card's index box
        overlaps a card's own by 0.3–0.5, and counted otherwise a card whose own index was never
        boxed was charged to pairing when its neighbour's detection was read as the
        neighbour (23 of the 25 rendered fan cards "read as the card it joined")."""
        classifier = getattr(self.reader, "classifier", None)
        if self.last is None or classifier is None:
            return "unknown"
        others = [list(r) for r in rivals]
        found = []
        for d in self.last:
            if d.cls != INDEX:
                continue
            own = max(box_iou(d.box, b) for b in boxes)
            if all(max((box_iou(d.box, b) for b in r), default=0.0) <= own for r in others):
                found.append((own, d))
        best = max(found, key=lambda f: f[0], default=None)
        if best is None or best[0] < DETECTED_IOU:
            return MISS_CAUSES[0]
        code, p = classifier.classify([crop_index(image, best[1].box)])[0]
        if code == "none" or p < self.reader.min_prob:
            return MISS_CAUSES[1]
        used = any(r.det is best[1] for c in cards for r in c.indices)
        return MISS_CAUSES[2] if used else MISS_CAUSES[3]


def rivals(truth: dict[int, dict[str, Any]], cid: int) -> list[Boxes]:
    """The index boxes of every labelled card but `cid` (`DetectionTrace.cause`)."""
    return [t["boxes"] for other, t in truth.items() if other != cid]


def eval_synthetic(reader: CardReader, root: Path, limit: int | None = None,
                   reads: list[SceneReads] | None = None) -> dict[str, Any]:
    """The held-out figures of the rendered scenes in `root`; `reads` gets each scene's
    read cards, right or wrong (`reliability.SceneReads`)."""
    score = Score()
    spy = DetectionTrace(reader)
    try:
        for meta_path in sorted((root / "cards").glob("*.json"))[:limit]:
            _score_scene(reader, root, meta_path, score, spy, reads)
    finally:
        spy.close()
    return score.as_dict()


def index_truth(objects: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """card_id → code, index boxes and player: the cards the held-out count asks for (every
    card with an index in view), as `eval` and the scripts behind its figures match them."""
    truth: dict[int, dict[str, Any]] = {}
    for o in objects:
        if o["kind"] == "index":
            t = truth.setdefault(o["card_id"], {"card": o["card"], "boxes": [],
                                                "player": o.get("player")})
            t["boxes"].append(o["box"])
    return truth


def _score_scene(reader: CardReader, root: Path, meta_path: Path, score: Score,
                 spy: DetectionTrace, reads: list[SceneReads] | None = None) -> None:
    objects = read_labels(meta_path)
    truth = index_truth(objects)
    ignore = [(o["card"], [o["box"]]) for o in objects if o["kind"] in UNASKED]
    image = load_image(root / "images" / f"{meta_path.stem}.jpg")
    result = reader.read(image)
    score.truth += len(truth)
    size_of = {cid: size_bucket(max(max(b[2] - b[0], b[3] - b[1]) for b in t["boxes"]))
               for cid, t in truth.items()}
    for key in size_of.values():
        score.by_size.setdefault(key, [0, 0])[0] += 1
    ids = list(truth)
    matched = match_reads(result.cards, [(truth[cid]["card"], truth[cid]["boxes"])
                                         for cid in ids], ignore=ignore)
    score.ignored += len(matched.ignored)
    score.predicted += len(result.cards) - len(matched.ignored)
    claimed = {ids[k] for k in matched.hits}
    wrong: set[int] = set()
    strays = [centre(card.box) for card, _ in matched.strays]
    score.false += len(strays)
    for k, card in matched.hits.items():
        hit = ids[k]
        if card.card == truth[hit]["card"]:
            score.correct += 1
            score.by_size[size_of[hit]][1] += 1
        else:
            score.false += 1
            wrong.add(hit)
            score.confusions[(truth[hit]["card"], card.card)] += 1
    missed = [cid for cid in truth if cid not in claimed]
    for cid in missed:
        score.miss_causes[spy.cause(image, truth[cid]["boxes"], result.cards,
                                    rivals(truth, cid))] += 1
    score.scenes += 1
    score.missed += len(missed)
    score.wrong += len(wrong)
    score.stray += len(strays)
    score.clean += not (missed or wrong or strays)
    if reads is not None:
        rights = {id(c) for k, c in matched.hits.items() if ids[k] not in wrong}
        margins = margins_of(reader, image, result.cards)
        unread = [(truth[cid]["card"], truth[cid]["boxes"]) for k, cid in enumerate(ids)
                  if cid in wrong or cid not in claimed]
        fix = {cid: cid in wrong or cid not in claimed for cid in truth}
        reads.append(SceneReads(
            f"{root.name}/{meta_path.stem}",
            [read_card(c, id(c) in rights, margins) for c in (*matched.hits.values(),
                                                      *(c for c, _ in matched.strays))],
            offer_reads(result.maybe, unread), len(missed) + len(wrong) + len(strays),
            mark_places(getattr(result, "unread", []), card_bodies(objects, fix))))
    players = {t["player"] for t in truth.values()} - {None}
    if not players:
        return
    # a false card is the correction of the hand whose index lies nearest
    fixes: Counter[Any] = Counter(truth[cid]["player"] for cid in (*missed, *wrong))
    for pt in strays:
        near = min(truth.values(), key=lambda t: min(
            math.dist(pt, centre(b)) for b in t["boxes"]))
        fixes[near["player"]] += 1
    score.hands += len(players)
    score.clean_hands += sum(fixes[p] == 0 for p in players)


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
            inside = [i for i, (_, b) in enumerate(boxes) if point_in_box(centre, b)]
            good = [i for i in inside if names[boxes[i][0]] == rank and i not in matched]
            if good:
                matched.add(good[0])
                score.correct += 1
            else:
                score.false += 1
                if inside:
                    score.confusions[(names[boxes[inside[0]][0]], rank)] += 1
    return score.as_dict()


@dataclass
class PhotoLabels:
    """One line of a labels file in `deck add --labels`' format: the photo's cards with
    their boxes (whole card, or a covered card's visible corner). `complete` is false when
    the line says `"unlabelled_cards": true`: the photo shows cards nobody boxed. `unboxed`:
    cards it shows whose place nobody marked (`"unboxed": ["7H"]`)."""
    image: str
    cards: list[tuple[str, tuple[float, float, float, float]]]
    complete: bool = True
    unboxed: list[str] = field(default_factory=list)


def read_labelled(path: Path) -> list[PhotoLabels]:
    """`path`'s photos (blank lines skipped); ValueError names a line that is not
    `{"image": ..., "cards": [{"card": ..., "box": [x1, y1, x2, y2]}]}` (with, optionally,
    `"unboxed": [...]` codes). Card codes are normalised as the rules spell them ("10H",
    never "TH")."""
    from scorekeeper.rules.cards import parse_card
    from scorekeeper.rules.errors import RulesError

    photos = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
            cards = [(str(parse_card(c["card"])), (float(c["box"][0]), float(c["box"][1]),
                                                    float(c["box"][2]), float(c["box"][3])))
                     for c in obj["cards"]]
            unboxed = obj.get("unboxed", [])
            if not isinstance(unboxed, list):
                raise TypeError(f'"unboxed" must be a list of cards, got {unboxed!r}')
            photos.append(PhotoLabels(str(obj["image"]), cards,
                                      not obj.get("unlabelled_cards", False),
                                      [str(parse_card(c)) for c in unboxed]))
        except (json.JSONDecodeError, KeyError, TypeError, IndexError, ValueError,
                RulesError) as exc:
            raise ValueError(f"{path.name} line {number}: not a labelled photo ({exc})") \
                from None
    return photos


def _photo_path(labels: Path, image: str, real: Path | None) -> Path:
    """A labels file names its photos relative to its own folder (as `deck add` reads
    them); a file kept apart from its photos (models/eval/) finds them in `real`'s
    images/ folder, or in `real` itself."""
    candidates = [labels.parent / image]
    if real is not None:
        candidates += [real / "images" / image, real / image]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        raise FileNotFoundError(f"{image}: not found (looked at "
                                f"{', '.join(str(c) for c in candidates)})")
    return found


def _lost_where(spy: DetectionTrace, image: Any, box: tuple[float, float, float, float],
                cards: list[PhysicalCard]) -> str:
    """Where a labelled card nobody read was lost, as `DetectionTrace.cause` tells it for
    index boxes, but for a whole-card box: the index detections whose centre lies in it."""
    classifier = getattr(spy.reader, "classifier", None)
    if spy.last is None or classifier is None:
        return "unknown"
    inside = [d for d in spy.last if d.cls == INDEX and point_in_box(d.centre, box)]
    if not inside:
        return MISS_CAUSES[0]
    read = classifier.classify([crop_index(image, d.box) for d in inside])
    kept = [d for d, (code, p) in zip(inside, read, strict=True)
            if code != "none" and p >= spy.reader.min_prob]
    if not kept:
        return MISS_CAUSES[1]
    used = any(r.det is d for c in cards for r in c.indices for d in kept)
    return MISS_CAUSES[2] if used else MISS_CAUSES[3]


def eval_labelled(reader: CardReader, labels: Path, real: Path | None = None,
                  skip: set[str] | None = None, reads: list[SceneReads] | None = None
                  ) -> dict[str, Any]:
    """Exact cards on photos labelled in `deck add --labels`' format (`skip`: photo file
    names left out, e.g. the ones a deck was enrolled from).

    A labelled card is read when a predicted card of its exact code (rank and suit) has an
    index centre in its box; each prediction is matched once, surest first, to the box it
    names when it lies in several. A prediction is false when it lies in a box but names
    another card, reads a card already read, or lies in no box at all, unless it names one
    of the photo's `unboxed` cards not read yet: that card is read (each counts among the
    labelled cards; one nobody read is missed, where is not known). Boxes may be missing
    where a photo shows cards nobody labelled (`"unlabelled_cards": true`): a prediction in
    no box there is left out of the count (`not_counted`), neither right nor false.
    `reads` gets each photo's read cards, right or wrong (`reliability.SceneReads`)."""
    score = Score()
    spy = DetectionTrace(reader)
    ignored = photos_ignoring = 0
    fixes: list[str] = []  # each photo needing a correction, and which
    try:
        for photo in read_labelled(labels):
            if skip and Path(photo.image).name in skip:
                continue
            image = load_image(_photo_path(labels, photo.image, real))
            result = reader.read(image)
            matched = match_reads(result.cards, [(code, [box]) for code, box in photo.cards],
                                  photo.unboxed)
            left = matched.left
            # where the photo shows cards nobody boxed, a read on no box is not counted
            strays = [card.card for card, nowhere in matched.strays
                      if photo.complete or not nowhere]
            ignored += len(matched.strays) - len(strays)
            wrong: list[str] = []
            for k, card in matched.hits.items():
                if card.card == photo.cards[k][0]:
                    score.correct += 1
                else:
                    wrong.append(f"{photo.cards[k][0]}→{card.card}")
                    score.confusions[(photo.cards[k][0], card.card)] += 1
            score.correct += len(matched.unboxed)
            score.false += len(wrong) + len(strays)
            score.predicted += len(matched.hits) + len(matched.unboxed) + len(strays)
            missed = [k for k in range(len(photo.cards)) if k not in matched.hits]
            for k in missed:
                score.miss_causes[_lost_where(spy, image, photo.cards[k][1],
                                              result.cards)] += 1
            score.miss_causes["unknown"] += len(left)
            lost = [photo.cards[k][0] for k in missed] + left
            score.truth += len(photo.cards) + len(photo.unboxed)
            score.scenes += 1
            score.missed += len(lost)
            score.wrong += len(wrong)
            score.stray += len(strays)
            score.clean += not (lost or wrong or strays)
            if reads is not None:
                reads.append(_photo_reads(photo, matched, result.cards, result.maybe,
                                          margins_of(reader, image, result.cards),
                                          getattr(result, "unread", [])))
            photos_ignoring += not photo.complete
            if lost or wrong or strays:
                fixes.append(Path(photo.image).name + ": " + "; ".join(
                    part for part in (
                        "missed " + " ".join(lost) if lost else "",
                        "read " + " ".join(wrong) if wrong else "",
                        "false " + " ".join(strays) if strays else "") if part))
    finally:
        spy.close()
    return {**score.as_dict(), "not_counted": ignored,
            "photos_with_unlabelled_cards": photos_ignoring, "photos_to_correct": fixes}


def _photo_reads(photo: PhotoLabels, matched: Any, read: list[PhysicalCard],
                 maybe: list[PhysicalCard], margins: dict[int, float] | None = None,
                 marks: Iterable[Any] = ()) -> SceneReads:
    """A labelled photo's read cards as `eval_labelled` counts them: right where one names
    its box's card or finds an unboxed card, wrong where it names another or is a stray (a
    stray in no box of a photo with unlabelled cards is left out, as there); where its
    unread `marks` land (`unread_marks`)."""
    cards = [read_card(c, c.card == photo.cards[k][0], margins)
             for k, c in matched.hits.items()]
    strays = [c for c, nowhere in matched.strays if photo.complete or not nowhere]
    cards += [read_card(c, False, margins) for c in strays]
    placed = {id(c) for c in (*matched.hits.values(), *(c for c, _ in matched.strays),
                              *matched.ignored)}
    # found an unboxed card
    cards += [read_card(c, True, margins) for c in read if id(c) not in placed]
    wrong = sum(c.card != photo.cards[k][0] for k, c in matched.hits.items())
    missed = len(photo.cards) - len(matched.hits) + len(matched.left)
    unread = [(code, [box]) for k, (code, box) in enumerate(photo.cards)
              if k not in matched.hits or matched.hits[k].card != code]
    fix = [(box, k not in matched.hits or matched.hits[k].card != code)
           for k, (code, box) in enumerate(photo.cards)]
    return SceneReads(Path(photo.image).name, cards, offer_reads(maybe, unread),
                      missed + wrong + len(strays), mark_places(marks, fix))


def format_report(name: str, s: dict[str, Any]) -> str:
    lines = [f"{name}: precision {s['precision']:.3f}  recall {s['recall']:.3f}  "
             f"F1 {s['f1']:.3f}  ({s['correct']}/{s['labelled']} read, "
             f"{s['false']} false of {s['predicted']} predicted)"]
    if s.get("ignored"):
        lines.append(f"  not counted: {s['ignored']} cards read right from an index that shows "
                     "too little, or no suit pip, to be labelled")
    if s["worst_confusions"]:
        lines.append("  worst confusions: " + ", ".join(s["worst_confusions"]))
    if s.get("recall_by_index_px"):
        order = [size_bucket(lo) for lo, _ in SIZE_BUCKETS]
        parts = [f"{k} {v['correct']}/{v['labelled']} ({v['recall']:.1%})"
                 for k, v in sorted(s["recall_by_index_px"].items(),
                                    key=lambda kv: order.index(kv[0]))]
        lines.append("  read by the card's largest visible index: " + ", ".join(parts))
    if ps := s.get("per_scene"):
        n = max(1, ps["scenes"])
        lines.append(f"  scenes needing no correction: {ps['no_correction']}/{ps['scenes']} "
                     f"({ps['no_correction_share']:.1%}); corrections a scene "
                     f"{ps['corrections_per_scene']:.2f} (missed {ps['missed'] / n:.2f}, "
                     f"false {ps['false'] / n:.2f}, wrong {ps['wrong'] / n:.2f})")
        if ps["missed"]:
            lines.append(f"  missed cards {ps['missed']}: " + ", ".join(
                f"{k} {v}" for k, v in ps["missed_because"].items()))
        if ps.get("hands"):
            lines.append(f"  hands (a player's cards) needing no correction: "
                         f"{ps['hands_no_correction']}/{ps['hands']} "
                         f"({ps['hands_no_correction_share']:.1%})")
    return "\n".join(lines)


def format_labelled(s: dict[str, Any]) -> str:
    """`format_report`'s lines for labelled photos, and what was left out of the count."""
    text = format_report("labelled photos (exact card)", s)
    if s["photos_with_unlabelled_cards"]:
        text += (f"\n  not counted: {s['not_counted']} predictions in no box of the "
                 f"{s['photos_with_unlabelled_cards']} photos marked unlabelled_cards")
    for line in s["photos_to_correct"]:
        text += f"\n  {line}"
    return text


def _run_labelled(reader: CardReader, labelled: Path, real: Path | None,
                  skip: list[Path], out: Any, err: Any) -> int:
    try:
        names = {Path(p.image).name for f in skip for p in read_labelled(f)}
        reads: list[SceneReads] = []
        s = eval_labelled(reader, labelled, real, names, reads)
    except (OSError, ValueError, VisionError) as exc:
        err.write(f"error: {exc}\n")
        return 2
    if names:
        out.write(f"{len(names)} photos skipped (named in {', '.join(map(str, skip))})\n")
    out.write(format_labelled(s) + "\n")
    out.write(format_figures("labelled photos", measure(reads, reader.calibration)) + "\n")
    return 0


def open_reader(runtime: str | None, models: Path | None, out: Any, err: Any = None,
                deck: DeckProfile | None = None) -> CardReader | None:
    """The reader an evaluation scores (with `deck`'s classifier, when given), its warnings
    written; None, the error written, when the model cannot be loaded."""
    try:
        reader = CardReader(models or MODELS, runtime=runtime, deck=deck)
    except VisionError as exc:
        (err or out).write(f"error: {exc}\n")
        return None
    for warning in reader.warnings:
        (err or out).write(f"warning: {warning}\n")
    if reader.deck is not None:
        out.write(f"reading with deck {reader.deck!r}'s classifier\n")
    return reader


def run(runtime: str | None, synthetic: Path | None, real: Path | None, limit: int | None,
        out: Any, models: Path | None = None, err: Any = None,
        deck: DeckProfile | None = None, labelled: Path | None = None,
        skip: list[Path] | None = None) -> int:
    """Score the model (with `deck`'s classifier, when given) on both sets, or, given
    `labelled`, only on those labelled photos (exact cards; `skip`: labels files whose
    photos are left out, such as a deck's enrolment). The fan benchmark is fan_eval.py's."""
    reader = open_reader(runtime, models, out, err, deck)
    if reader is None:
        return 2
    if labelled is not None:
        return _run_labelled(reader, labelled, real or REAL_PHOTOS, skip or [], out,
                             err or out)
    synthetic = synthetic or MODELS.parent / "data" / "model-work" / "test"
    real = real or REAL_PHOTOS
    reads: list[SceneReads] = []
    if (synthetic / "cards").exists():
        out.write(format_report("held-out deck", eval_synthetic(reader, synthetic, limit,
                                                                reads)) + "\n")
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
    if reads:  # rank-only labels say nothing of an exact card's chance: held-out scenes only
        out.write(format_figures("held-out deck", measure(reads, reader.calibration)) + "\n")
    return 0
