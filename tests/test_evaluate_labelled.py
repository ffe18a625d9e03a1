"""`scorekeeper-lab eval --labelled`: exact cards on photos labelled in `deck add --labels`'
format, scored with a stand-in reader (and once with the shipped model). The photos are
tests/fixtures/real (Apache-2.0, see its README)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scorekeeper_lab.evaluation.evaluate import eval_labelled, format_labelled, read_labelled

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, PhysicalCard
from scorekeeper.vision.reader import ReadResult

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "tests" / "fixtures" / "real"
KH = [92, 183, 223, 348]  # IMG_2385's king of hearts, whole card (labels.csv)
QS = [250, 20, 370, 150]  # a second, made-up card in the same photo

Box = tuple[float, float, float, float]


def _card(code: str, *indices: Box, confidence: float = 0.9) -> PhysicalCard:
    readings = tuple(IndexReading(Detection(b, 0, confidence), code, confidence)
                     for b in indices)
    return PhysicalCard(code, confidence, readings[0].det.box, readings)


class StandInReader:
    def __init__(self, cards: list[PhysicalCard]) -> None:
        self.cards = cards

    def read(self, image: np.ndarray) -> ReadResult:
        return ReadResult(self.cards, 1.0)


def _labels(tmp_path: Path, *lines: dict[str, object], name: str = "cards.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _photo(**extra: object) -> dict[str, object]:
    return {"image": "IMG_2385.JPG", "cards": [{"card": "KH", "box": KH},
                                               {"card": "QS", "box": QS}], **extra}


READINGS = [
    _card("KH", (95, 186, 115, 216), (200, 315, 220, 345)),  # both corners in the KH box
    _card("KH", (150, 250, 165, 270), confidence=0.5),       # a pip read as a second KH
    _card("QC", (255, 25, 275, 55)),                          # on the QS: wrong suit
    _card("2D", (20, 400, 40, 430)),                          # in no box
]


def test_exact_cards_wrong_suits_second_readings_and_cards_in_no_box(tmp_path: Path) -> None:
    labels = _labels(tmp_path, _photo())
    s = eval_labelled(StandInReader(READINGS), labels, REAL)  # type: ignore[arg-type]
    assert (s["labelled"], s["predicted"], s["correct"], s["false"]) == (2, 4, 1, 3)
    assert (s["precision"], s["recall"]) == (0.25, 0.5)
    assert s["worst_confusions"] == ["QS→QC ×1"]
    assert s["photos_to_correct"] == ["IMG_2385.JPG: read QS→QC; false 2D KH"]  # surest first
    assert s["per_scene"]["no_correction"] == 0
    report = format_labelled(s)
    assert report.startswith("labelled photos (exact card): precision 0.250  recall 0.500")
    assert "not counted" not in report


def test_a_photo_with_unlabelled_cards_leaves_predictions_in_no_box_uncounted(
        tmp_path: Path) -> None:
    labels = _labels(tmp_path, _photo(unlabelled_cards=True))
    s = eval_labelled(StandInReader(READINGS), labels, REAL)  # type: ignore[arg-type]
    # the 2D is not counted; the second KH still is (it lies in a labelled box)
    assert (s["predicted"], s["correct"], s["false"], s["not_counted"]) == (3, 1, 2, 1)
    assert "not counted: 1 predictions in no box of the 1 photos" in format_labelled(s)


def test_a_reading_in_two_boxes_goes_to_the_card_it_names(tmp_path: Path) -> None:
    # a fan: the QS's box overlaps the KH's, and the QS reading lies in both
    labels = _labels(tmp_path, {"image": "IMG_2385.JPG", "cards": [
        {"card": "KH", "box": KH}, {"card": "QS", "box": [150, 183, 300, 348]}]})
    reader = StandInReader([_card("QS", (160, 190, 180, 220))])
    s = eval_labelled(reader, labels, REAL)  # type: ignore[arg-type]
    assert (s["correct"], s["false"], s["worst_confusions"]) == (1, 0, [])
    assert s["photos_to_correct"] == ["IMG_2385.JPG: missed KH"]


def test_skipped_photos_are_left_out_and_photos_are_found_beside_the_file_first(
        tmp_path: Path) -> None:
    labels = _labels(tmp_path, _photo(), {"image": "IMG_2389.JPG", "cards": [
        {"card": "AS", "box": [118, 205, 246, 384]}]})
    (tmp_path / "IMG_2389.JPG").write_bytes((REAL / "IMG_2389.JPG").read_bytes())
    reader = StandInReader([_card("AS", (120, 210, 140, 240))])
    nowhere = tmp_path / "nowhere"
    s = eval_labelled(reader, labels, nowhere, skip={"IMG_2385.JPG"})  # type: ignore[arg-type]
    assert (s["labelled"], s["correct"], s["per_scene"]["scenes"]) == (1, 1, 1)
    with pytest.raises(FileNotFoundError, match=r"IMG_2385\.JPG: not found"):
        eval_labelled(reader, labels, nowhere)  # type: ignore[arg-type]


def test_labels_are_read_as_deck_add_writes_them_and_a_bad_line_is_named(
        tmp_path: Path) -> None:
    path = tmp_path / "cards.jsonl"
    path.write_text(json.dumps({"image": "a.jpg", "cards": [{"card": "TH", "box": KH}]})
                    + "\n\n" + json.dumps({"image": "b.jpg", "cards": [{"card": "XX"}]}))
    with pytest.raises(ValueError, match=r"cards\.jsonl line 3"):
        read_labelled(path)
    path.write_text(json.dumps({"image": "a.jpg", "cards": [{"card": "TH", "box": KH}]}))
    [photo] = read_labelled(path)
    assert (photo.cards[0][0], photo.complete) == ("10H", True)


@pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                    reason="no trained model in models/")
def test_the_eval_command_reads_labelled_photos_with_the_shipped_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper_lab.cli import main

    labels = _labels(tmp_path, _photo(), {"image": "IMG_2389.JPG", "cards": [
        {"card": "AS", "box": [118, 205, 246, 384]}]})
    skip = _labels(tmp_path, _photo(), name="enrolled.jsonl")
    assert main(["eval", "--labelled", str(labels), "--real", str(REAL),
                 "--skip", str(skip)]) == 0
    out = capsys.readouterr().out
    assert "1 photos skipped" in out
    assert "labelled photos (exact card): precision" in out
    assert "(1/1 read" in out  # the ace of spades, read exactly
    assert main(["eval", "--labelled", str(labels), "--real", str(tmp_path)]) == 2
    assert "IMG_2385.JPG: not found" in capsys.readouterr().err
