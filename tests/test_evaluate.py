"""`scorekeeper-lab eval` scoring on the held-out deck, with a stand-in reader (no model needed)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from scorekeeper_lab.evaluation.evaluate import eval_synthetic, format_report

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, PhysicalCard
from scorekeeper.vision.reader import ReadResult

Box = tuple[float, float, float, float]


def _card(code: str, box: Box, confidence: float = 0.9) -> PhysicalCard:
    reading = IndexReading(Detection(box, 0, confidence), code, confidence)
    return PhysicalCard(code, confidence, box, (reading,))


class StandInReader:
    def __init__(self, cards: list[PhysicalCard]) -> None:
        self.cards = cards

    def read(self, image: np.ndarray) -> ReadResult:
        return ReadResult(self.cards, 1.0)


def _scene(root: Path, objects: list[dict]) -> None:
    (root / "images").mkdir(parents=True)
    (root / "cards").mkdir()
    cv2.imwrite(str(root / "images" / "000000.jpg"), np.zeros((200, 200, 3), np.uint8))
    (root / "cards" / "000000.json").write_text(json.dumps({"objects": objects}))


def test_exact_reads_false_cards_and_the_size_breakdown(tmp_path: Path) -> None:
    _scene(tmp_path, [
        # a small card showing two corners, a large one, and a second large one never read
        {"kind": "index", "card": "7H", "card_id": 1, "box": [10, 10, 20, 22]},
        {"kind": "index", "card": "7H", "card_id": 1, "box": [60, 60, 70, 72]},
        {"kind": "index", "card": "QS", "card_id": 2, "box": [100, 100, 120, 140]},
        {"kind": "index", "card": "QS", "card_id": 3, "box": [150, 10, 170, 50]},
        {"kind": "card", "card": "QS", "card_id": 2, "box": [95, 95, 180, 190]},
    ])
    reader = StandInReader([
        _card("7H", (60, 60, 70, 72)),      # read from its second corner: exact
        _card("QC", (102, 102, 118, 138)),  # on the QS, wrong suit: a confusion
        _card("2D", (180, 180, 190, 190)),  # on nothing: false
    ])
    s = eval_synthetic(reader, tmp_path)  # type: ignore[arg-type]
    assert (s["labelled"], s["predicted"], s["correct"], s["false"]) == (3, 3, 1, 2)
    assert s["worst_confusions"] == ["QS→QC ×1"]
    assert s["recall_by_index_px"] == {
        "0–15 px": {"labelled": 1, "correct": 1, "recall": 1.0},
        "≥ 30 px": {"labelled": 2, "correct": 0, "recall": 0.0},
    }
    report = format_report("held-out", s)
    assert "0–15 px 1/1 (100.0%), ≥ 30 px 0/2 (0.0%)" in report


def test_one_card_is_counted_once_however_many_readings_land_on_it(tmp_path: Path) -> None:
    _scene(tmp_path, [{"kind": "index", "card": "AS", "card_id": 1, "box": [10, 10, 30, 35]}])
    reader = StandInReader([_card("AS", (12, 12, 28, 33), 0.9),
                            _card("AS", (11, 11, 29, 34), 0.5)])
    s = eval_synthetic(reader, tmp_path)  # type: ignore[arg-type]
    assert (s["correct"], s["false"], s["recall_by_index_px"]["20–30 px"]["correct"]) == (1, 1, 1)


def test_a_reading_under_two_overlapping_indices_goes_to_the_card_it_names(tmp_path: Path) -> None:
    # a fanned hand: the 5H's index box overlaps the 4C's; a right 5H reading whose centre
    # lies in both must not be charged to the 4C as a confusion
    _scene(tmp_path, [
        {"kind": "index", "card": "4C", "card_id": 1, "box": [10, 10, 40, 50]},
        {"kind": "index", "card": "5H", "card_id": 2, "box": [25, 10, 55, 50]},
    ])
    reader = StandInReader([_card("5H", (28, 12, 44, 48))])  # centre (36, 30): in both
    s = eval_synthetic(reader, tmp_path)  # type: ignore[arg-type]
    assert (s["correct"], s["false"], s["worst_confusions"]) == (1, 0, [])


def test_a_right_reading_of_an_index_no_label_asks_for_is_neither_right_nor_false(
        tmp_path: Path) -> None:
    # a 9S whose index shows too little to be labelled ("partial"), a 5D whose suit pip is
    # covered ("covered"), and a labelled 3C under whose box the covered 5D's index lies
    _scene(tmp_path, [
        {"kind": "index", "card": "3C", "card_id": 1, "box": [100, 100, 140, 150]},
        {"kind": "partial", "card": "9S", "card_id": 2, "box": [10, 10, 22, 20]},
        {"kind": "covered", "card": "5D", "card_id": 3, "box": [104, 104, 118, 120]},
        {"kind": "covered", "card": "KH", "card_id": 4, "box": [160, 10, 180, 40]},
    ])
    reader = StandInReader([
        _card("9S", (11, 11, 21, 19)),      # what shows there: not counted
        _card("5D", (105, 105, 117, 119)),  # the covered 5D, inside the 3C's box: not
        # counted, and it does not take the 3C
        _card("3C", (101, 101, 139, 149)),  # exact
        _card("KD", (162, 12, 178, 38)),    # a covered KH read as another card: false
        _card("9S", (12, 12, 20, 18), 0.5),  # the 9S again: neither (as any reading there)
    ])
    s = eval_synthetic(reader, tmp_path)  # type: ignore[arg-type]
    assert (s["labelled"], s["correct"], s["false"], s["ignored"]) == (1, 1, 1, 3)
    assert s["predicted"] == 2  # the 3C and the KD
    assert s["worst_confusions"] == []
    assert "not counted: 3 cards read right" in format_report("held-out", s)


def test_eval_on_a_folder_without_a_model_is_a_clear_error(tmp_path: Path, capsys) -> None:
    from scorekeeper_lab.cli import main

    assert main(["eval", "--models", str(tmp_path)]) == 2
    assert f"no trained model: {tmp_path / 'model.json'} is missing" in capsys.readouterr().err
