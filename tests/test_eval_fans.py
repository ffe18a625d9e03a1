"""The fan benchmark's score (`scorekeeper-lab eval --fans`): bands by covered share, recall and
false cards per band, and the scenes it is scored on."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from scorekeeper_lab.evaluation.fan_eval import (
    BAND_NAMES,
    band_of,
    eval_fans,
    fan_truth,
    format_fans,
)

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, PhysicalCard


def test_bands_split_at_a_fifth_of_the_index() -> None:
    assert [band_of(c) for c in (0.0, 0.19, 0.2, 0.39, 0.4, 0.59, 0.6, 0.95, 1.0)] == [
        "0–20 %", "0–20 %", "20–40 %", "20–40 %", "40–60 %", "40–60 %", "60 %+", "60 %+",
        "60 %+"]


def test_a_card_is_banded_by_its_best_corner() -> None:
    objects = [
        {"kind": "partial", "card": "3D", "card_id": 0, "box": [0, 0, 5, 5], "visible": 0.3},
        {"kind": "readable", "card": "3D", "card_id": 0, "box": [50, 50, 60, 60],
         "visible": 0.55},
        {"kind": "index", "card": "4S", "card_id": 1, "box": [20, 0, 30, 10], "visible": 1.0},
        {"kind": "card", "card": "4S", "card_id": 1, "box": [20, 0, 90, 90], "visible": 1.0},
        {"kind": "negative", "card": None, "box": [1, 1, 2, 2]},
    ]
    truth = fan_truth(objects)
    assert truth[0]["band"] == "40–60 %" and len(truth[0]["boxes"]) == 2
    assert truth[1]["band"] == "0–20 %" and truth[1]["boxes"] == [[20, 0, 30, 10]]


class _Reader:
    """Reads the cards it is told, each from one index centred on `at`."""

    def __init__(self, reads: list[tuple[str, tuple[float, float]]]) -> None:
        self.reads = reads

    def read(self, image: object) -> SimpleNamespace:
        cards = []
        for code, (x, y) in self.reads:
            det = Detection((x - 2, y - 2, x + 2, y + 2), 0, 0.9)
            cards.append(PhysicalCard(code, 0.9, det.box, (IndexReading(det, code, 0.9),)))
        return SimpleNamespace(cards=cards)


def _scene(root: Path, labels: list[dict] | None = None) -> None:
    """One 100 × 100 scene labelled `labels` (default: four cards, one in each band)."""
    pytest.importorskip("cv2")
    import cv2
    import numpy as np

    (root / "images").mkdir(parents=True)
    (root / "cards").mkdir()
    cv2.imwrite(str(root / "images" / "000000.jpg"), np.zeros((100, 100, 3), np.uint8))
    labels = labels or [
        {"kind": "index", "card": "AS", "card_id": 0, "box": [0, 0, 10, 10], "visible": 0.9},
        {"kind": "readable", "card": "3D", "card_id": 1, "box": [20, 0, 30, 10],
         "visible": 0.7},
        {"kind": "partial", "card": "9C", "card_id": 2, "box": [40, 0, 50, 10],
         "visible": 0.5},
        {"kind": "covered", "card": "KH", "card_id": 3, "box": [60, 0, 70, 10],
         "visible": 0.2},
    ]
    (root / "cards" / "000000.json").write_text(json.dumps(labels))


def test_recall_and_false_cards_per_band(tmp_path: Path) -> None:
    _scene(tmp_path)
    # the A♠ right, the 3♦ read as a 3♥ (false in its band), the 9♣ missed, the K♥ right,
    # and a card read where no card lies
    reader = _Reader([("AS", (5, 5)), ("3H", (25, 5)), ("KH", (65, 5)), ("2C", (90, 90))])
    s = eval_fans(reader, tmp_path)
    bands = s["bands"]
    assert list(bands) == list(BAND_NAMES)
    assert [(b["labelled"], b["correct"], b["false"]) for b in bands.values()] == [
        (1, 1, 0), (1, 0, 1), (1, 0, 0), (1, 1, 0)]
    assert bands["40–60 %"]["recall"] == 0.0 and bands["60 %+"]["recall"] == 1.0
    assert s["stray"] == 1 and s["scenes"] == 1 and s["clean"] == 0
    text = format_fans(s)
    assert s["codes"] == 4 and "4 cards of 4 distinct faces" in text
    assert "20–40 % covered: 0/1 read (0.0%), 1 false" in text
    assert "false cards on no card: 1" in text
    # under 40 %: the A♠ right of two, the 3♥ and the stray false: P 1/3, R 1/2
    assert s["under_40"] == {"labelled": 2, "exact": 1, "false": 2, "f1": 0.4}
    assert "cards under 40 % covered: 1/2 read, 2 false (on them and on no card), F1 0.400" \
        in text


def test_a_scene_is_clean_when_its_visible_cards_read_and_nothing_is_false(
        tmp_path: Path) -> None:
    _scene(tmp_path)
    # the two cards under 40 % covered read; missing the mostly hidden ones is forgiven
    s = eval_fans(_Reader([("AS", (5, 5)), ("3D", (25, 5))]), tmp_path)
    assert s["clean"] == 1 and s["bands"]["40–60 %"]["correct"] == 0


def test_a_deck_photo_boxes_each_card_at_its_best_readable_corner() -> None:
    from scorekeeper_lab.training.synth.fans import deck_labels

    objects = [
        {"kind": "readable", "card": "3D", "card_id": 0, "box": [0, 0, 5, 5], "visible": 0.5},
        {"kind": "index", "card": "3D", "card_id": 0, "box": [50, 50, 60, 60], "visible": 1.0},
        {"kind": "covered", "card": "4S", "card_id": 1, "box": [20, 0, 30, 10],
         "visible": 0.7},
        {"kind": "card", "card": "3D", "card_id": 0, "box": [0, 0, 90, 90], "visible": 1.0},
        {"kind": "negative", "card": None, "box": [1, 1, 2, 2]},
    ]
    assert deck_labels("images/0.jpg", objects) == {
        "image": "images/0.jpg", "cards": [{"card": "3D", "box": [50.0, 50.0, 60.0, 60.0]}],
        "unboxed": ["4S"]}


def test_photos_of_a_whole_deck_in_fans_are_labels_deck_add_takes(tmp_path: Path) -> None:
    from scorekeeper_lab.training.synth.fallback import fallback_deck
    from scorekeeper_lab.training.synth.fans import render_deck_photos

    from scorekeeper.decks.labels import read_labels

    out = tmp_path / "deck"
    assert render_deck_photos(out, 1, fallback_deck(), seed=3, size=(800, 600)) == 1
    (photo,) = read_labels(out / "labels.jsonl")
    boxed = [c for c, _ in photo.cards]
    assert len(set(boxed)) == len(boxed) >= 40  # each card once, most boxed
    assert set(boxed).isdisjoint(photo.unboxed)
    assert len(boxed) + len(photo.unboxed) <= 52 and "JK" not in boxed
    truth = fan_truth(json.loads((out / "cards" / "000000.json").read_text()))
    assert {t["card"] for t in truth.values()} == set(boxed) | set(photo.unboxed)


def test_the_fan_f1_is_rounded_once() -> None:
    from scorekeeper_lab.evaluation.fan_eval import under_40

    bands = {name: {"labelled": n, "correct": c, "false": f} for name, n, c, f in (
        ("0–20 %", 757, 740, 0), ("20–40 %", 158, 99, 3), ("40–60 %", 99, 5, 2),
        ("60 %+", 15, 0, 0))}
    # P 839/843, R 839/915: F1 0.95449, which a 4-place rounding first would print as 0.955
    assert under_40(bands, 1) == {"labelled": 915, "exact": 839, "false": 4, "f1": 0.954}


def test_asked_truth_marks_the_cards_each_figure_asks_for() -> None:
    from scorekeeper_lab.evaluation.fan_eval import asked_truth

    objects = [
        {"kind": "index", "card": "7H", "card_id": 1, "box": [0, 0, 10, 20], "visible": 1.0},
        {"kind": "partial", "card": "QS", "card_id": 2, "box": [20, 0, 25, 20],
         "visible": 0.5},
        {"kind": "card", "card": "7H", "card_id": 1, "box": [0, 0, 60, 90], "visible": 1.0},
    ]
    fans = asked_truth(objects, fans=True)
    assert {c: (t["card"], t["asked"]) for c, t in fans.items()} == {
        1: ("7H", True), 2: ("QS", False)}  # the QS is half covered: shown, not asked
    scenes = asked_truth(objects, fans=False)
    assert {c: (t["card"], t["asked"], len(t["boxes"])) for c, t in scenes.items()} == {
        1: ("7H", True, 1)}  # the held-out count asks for cards with an index in view


class _Traced:
    """The reader's trace hooks (`CardReader.add_callback`), as evaluation uses them."""

    def __init__(self) -> None:
        self.callbacks: dict[str, list] = {"on_detect": [], "on_hand_look": []}

    def add_callback(self, event: str, callback) -> None:
        self.callbacks[event].append(callback)

    def remove_callback(self, event: str, callback) -> None:
        self.callbacks[event].remove(callback)

    def trace(self, event: str, dets: list[Detection]) -> None:
        for callback in self.callbacks[event]:
            callback(dets)


class _Detecting(_Traced):
    """A reader with a detector and a classifier, as `eval` traces a miss by: one index
    detection, on the 8♠'s index, read as the 8♠."""

    min_prob = 0.5

    def __init__(self) -> None:
        super().__init__()
        self.det = Detection((20, 0, 30, 10), 0, 0.9)
        self.classifier = SimpleNamespace(classify=lambda crops: [("8S", 0.9)] * len(crops))

    def read(self, image: object) -> SimpleNamespace:
        self.trace("on_detect", [self.det])  # as a reader does: the trace keeps it
        return SimpleNamespace(cards=[PhysicalCard("8S", 0.9, self.det.box, (
            IndexReading(self.det, "8S", 0.9),))])


def test_a_card_whose_index_no_detection_boxes_is_not_detected_beside_its_neighbours(
        tmp_path: Path) -> None:
    # a tight fan: the 2♥'s index 4 px beside the 8♠'s, which the only detection boxes
    _scene(tmp_path, [
        {"kind": "index", "card": "2H", "card_id": 0, "box": [16, 0, 26, 10], "visible": 0.9},
        {"kind": "index", "card": "8S", "card_id": 1, "box": [20, 0, 30, 10], "visible": 1.0},
    ])
    s = eval_fans(_Detecting(), tmp_path)
    # the detection overlaps the 2♥'s index by IoU 0.43, the 8♠'s by 1: it is the 8♠'s
    assert s["bands"]["0–20 %"]["missed_because"] == {"not detected": 1}
    assert s["bands"]["0–20 %"]["correct"] == 1


class _HandDetecting(_Detecting):
    """A reader whose frame look finds nothing and whose hand detector boxes the 2♥'s index,
    which the classifier turns down."""

    def __init__(self) -> None:
        super().__init__()
        self.classifier = SimpleNamespace(classify=lambda crops: [("none", 0.9)] * len(crops))

    def read(self, image: object) -> SimpleNamespace:
        self.trace("on_detect", [])
        self.trace("on_hand_look", [Detection((16, 0, 26, 10), 0, 0.6)])
        return SimpleNamespace(cards=[])


def test_a_box_the_hand_detector_added_counts_as_detected(tmp_path: Path) -> None:
    _scene(tmp_path, [
        {"kind": "index", "card": "2H", "card_id": 0, "box": [16, 0, 26, 10], "visible": 0.9},
    ])
    reader = _HandDetecting()
    s = eval_fans(reader, tmp_path)
    assert s["bands"]["0–20 %"]["missed_because"] == {"turned down by the classifier": 1}
    assert reader.callbacks == {"on_detect": [], "on_hand_look": []}  # the trace is taken off


class _Offering(_Reader):
    """Reads nothing; offers as a "maybe" the cards it is told."""

    def read(self, image: object) -> SimpleNamespace:
        offers = super().read(image).cards
        return SimpleNamespace(cards=[], maybe=offers)


def test_an_offer_is_right_on_an_unread_card_under_40_percent_covered(tmp_path: Path) -> None:
    _scene(tmp_path)
    # right: the A♠ (0–20 %) on it; others: the 3♦ (20–40 %) offered as a 3♥, the 9♣
    # (40–60 %, not asked) right, a card on no card
    reader = _Offering([("AS", (5, 5)), ("3H", (25, 5)), ("9C", (45, 5)), ("2C", (90, 90))])
    s = eval_fans(reader, tmp_path)
    assert s["offered"] == {"right": 1, "other": 3}
    assert 'offered as a "maybe": 1 of the cards' in format_fans(s)
    assert eval_fans(_Reader([("AS", (5, 5))]), tmp_path)["offered"] == {"right": 0, "other": 0}
