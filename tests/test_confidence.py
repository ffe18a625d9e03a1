"""The shown confidence (`vision/confidence.py`): each look's calibrated probability and
the sure line, from model.json's optional `calibration`; without it, today's rule."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from scorekeeper.vision.confidence import (
    DEFAULT_SURE,
    Calibration,
    CalibrationSpec,
    PathMap,
    evidence,
)
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.manifest import load_manifest
from scorekeeper.vision.pairing import IndexReading, PhysicalCard, pair_indices
from scorekeeper.vision.reader import cards_json

ROOT = Path(__file__).resolve().parents[1]
SPEC = {"paths": {"first": {"x": [0.0, 0.5, 0.9], "y": [0.1, 0.6, 0.99]},
                  "second": {"x": [0.0, 1.0], "y": [0.0, 0.5]}},
        "sure": 0.95, "fitted_on": "val", "sure_rule": "test"}


def _card(code: str = "7H", conf: float = 0.7, path: str = "first") -> PhysicalCard:
    box = (0.0, 0.0, 10.0, 20.0)
    return PhysicalCard(code, conf, box, (IndexReading(Detection(box, 0, 1.0), code, conf),),
                        path)


def _manifest(tmp_path: Path, calibration: object | None) -> Path:
    models = tmp_path / "models"
    models.mkdir()
    meta: dict[str, object] = {"runtime": "onnx",
                               "detector": {"names": ["index", "card"], "imgsz": 416}}
    if calibration is not None:
        meta["calibration"] = calibration
    (models / "model.json").write_text(json.dumps(meta))
    return models


def test_without_a_calibration_the_raw_figure_shows_and_the_line_is_0_8(tmp_path: Path) -> None:
    manifest = load_manifest(_manifest(tmp_path, None))
    assert manifest.calibration is None
    cal = Calibration(manifest.calibration)
    assert cal.line == DEFAULT_SURE == 0.8
    for raw in (0.0, 0.55, 0.799, 0.8, 1.0):
        card = cal.card(_card(conf=raw))
        assert card.probability == raw and card.sure is (raw >= 0.8)


def test_the_manifest_section_maps_each_look(tmp_path: Path) -> None:
    cal = Calibration(load_manifest(_manifest(tmp_path, SPEC)).calibration)
    assert cal.line == 0.95
    assert cal.probability("first", 0.7) == pytest.approx(0.795)
    assert cal.probability("second", 0.7) == pytest.approx(0.35)
    assert cal.probability("gap", 0.7) == pytest.approx(0.795)  # no map: the first look's
    assert cal.probability("first", 2.0) == pytest.approx(0.99)  # held flat beyond the ends
    sure = cal.card(_card(conf=0.95))
    assert sure.probability == pytest.approx(0.99) and sure.sure
    assert sure.confidence == 0.95  # the raw figure is kept for ordering


def test_an_offer_is_never_sure() -> None:
    card = Calibration().card(_card(conf=0.99), offer=True)
    assert card.path == "offer" and card.sure is False


@pytest.mark.parametrize("bad", [{"x": [0.0, 1.0], "y": [0.9, 0.1]},
                                 {"x": [1.0, 0.0], "y": [0.1, 0.9]},
                                 {"x": [0.0, 1.0], "y": [0.1]},
                                 {"x": [0.0, 1.0], "y": [0.1, 1.2]}])
def test_a_map_that_falls_or_leaves_0_1_is_refused(bad: dict[str, list[float]]) -> None:
    with pytest.raises(ValidationError):
        PathMap.model_validate(bad)


def test_cards_json_shows_the_probability_and_sure() -> None:
    cal = Calibration(CalibrationSpec.model_validate(SPEC))
    out = cards_json([cal.card(_card(conf=0.9)), cal.card(_card("2C", conf=0.5))])
    assert out[0]["confidence"] == pytest.approx(0.99) and out[0]["sure"] is True
    assert out[1]["confidence"] == pytest.approx(0.6) and out[1]["sure"] is False
    # a card no reader judged: its raw figure, and unsure however high (no line of its own)
    assert cards_json([_card(conf=0.99)])[0] == {"card": "7H", "confidence": 0.99,
                                                 "sure": False, "box": [0.0, 0.0, 10.0, 20.0]}


def test_pairing_gives_a_card_the_look_of_its_surest_reading() -> None:
    first = IndexReading(Detection((100, 100, 110, 120), 0, 0.9), "9C", 0.6, "first")
    second = IndexReading(Detection((130, 160, 140, 180), 0, 0.9), "9C", 0.95, "second")
    cards = pair_indices([first, second], [])
    assert len(cards) == 1 and cards[0].path == "second"


needs_model = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                 reason="no trained model")


@needs_model
def test_the_reader_names_each_look() -> None:
    from scorekeeper.vision.reader import CardReader
    from tests.test_reader_maybe import BOXES, FixedDetector
    from tests.test_reader_second import Answers

    reader = CardReader()
    reader.refocus = False
    reader.hand_look = None
    reader.calibration = Calibration(CalibrationSpec.model_validate(SPEC))
    reader.detector = FixedDetector(BOXES[:3])  # type: ignore[assignment]
    reader.classifier = Answers([("7H", 0.9), ("QS", 0.4), ("2C", 0.95)])  # type: ignore[assignment]
    reader.second = Answers([("9D", 0.95)])  # type: ignore[assignment]
    reader.second_min_prob = 0.7
    result = reader.read(np.zeros((960, 1280, 3), np.uint8))
    paths = {c.card: c.path for c in result.cards}
    assert paths == {"7H": "first", "9D": "second", "2C": "first"}
    assert result.sure_line == 0.95
    nine = next(c for c in result.cards if c.card == "9D")
    assert nine.probability == pytest.approx(Calibration(
        CalibrationSpec.model_validate(SPEC)).probability("second", nine.confidence))


@needs_model
def test_read_json_gives_each_card_sure(tmp_path: Path) -> None:
    from scorekeeper.vision.read_cmd import read_images

    samples = sorted((ROOT / "scorekeeper" / "camera" / "samples").glob("*.jpg"))
    if not samples:
        pytest.skip("no sample photos")
    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    meta = json.loads((models / "model.json").read_text())
    meta["calibration"] = {"paths": {"first": {"x": [0.0, 1.0], "y": [0.0, 0.5]}}, "sure": 0.4}
    (models / "model.json").write_text(json.dumps(meta))
    image = tmp_path / "sample.jpg"
    shutil.copy(samples[0], image)
    out = io.StringIO()
    assert read_images([image], as_json=True, annotate=None, runtime=None, out=out,
                       err=io.StringIO(), models=models) == 0
    line = json.loads(out.getvalue())
    assert line["cards"], "the sample shows cards"
    for card in line["cards"]:
        assert card["confidence"] <= 0.5  # the map halves every raw figure
        assert card["sure"] is (card["confidence"] >= 0.4)
    assert all(c["sure"] is False for c in line["maybe"])


def _two_corners(code: str, other: str, conf: float) -> PhysicalCard:
    a = IndexReading(Detection((0, 0, 10, 20), 0, 1.0), code, conf)
    b = IndexReading(Detection((50, 80, 60, 100), 0, 1.0), other, conf)
    return PhysicalCard(code, conf, (0.0, 0.0, 60.0, 100.0), (a, b))


@pytest.mark.parametrize(("card", "group"), [
    (_card(), "single"),  # one corner
    (_two_corners("7H", "7H", 0.9), "pair"),  # two corners that name it
    (_two_corners("7H", "7D", 0.9), "single"),  # one rank, two suits: no agreement
    (PhysicalCard("7H", 0.9, (0.0, 0.0, 1.0, 1.0), ()), "single"),  # no corner kept
])
def test_a_cards_evidence(card: PhysicalCard, group: str) -> None:
    assert evidence(card) == group


@pytest.mark.parametrize(("lines", "card", "sure"), [
    ({}, _two_corners("7H", "7H", 0.9), True),  # no group line: the pooled 0.95 (p 0.99)
    ({"pair": 0.995}, _two_corners("7H", "7H", 0.9), False),  # its own, higher line
    ({"pair": 0.5}, _two_corners("7H", "7H", 0.5), True),  # p 0.6 ≥ its own 0.5
    ({"pair": 0.5}, _card(conf=0.5), False),  # a single corner keeps the pooled line
    ({"single": 0.6}, _card(conf=0.5), True),  # …unless its group has a line
    ({"single": 0.6}, _two_corners("7H", "7D", 0.5), True),  # two that differ are single
])
def test_each_evidence_group_is_sure_from_its_own_line(
        lines: dict[str, float], card: PhysicalCard, sure: bool) -> None:
    cal = Calibration(CalibrationSpec.model_validate({**SPEC, "lines": lines}))
    assert cal.card(card).sure is sure
    assert cal.card(card, offer=True).sure is False  # an offer never, whatever its group


@pytest.mark.parametrize("lines", [{"both": 0.9}, {"pair": 1.2}, {"pair": -0.1}])
def test_an_unknown_group_or_a_line_out_of_range_is_refused(lines: dict[str, float]) -> None:
    with pytest.raises(ValidationError):
        CalibrationSpec.model_validate({**SPEC, "lines": lines})


@pytest.mark.parametrize(("section", "card", "sure"), [
    # no `groups`: as before, by evidence; a look's own name has no line, the pooled 0.95
    ({}, _card(conf=0.95, path="gap"), True),
    ({"lines": {"single": 0.995}}, _card(conf=0.95, path="first"), False),
    # by path: each look from its own line
    ({"groups": "path", "lines": {"first": 0.9}}, _card(conf=0.95, path="first"), True),
    ({"groups": "path", "lines": {"first": 0.995}}, _card(conf=0.95, path="first"), False),
    # …and a look without one is never sure, however high (nothing bounds it)
    ({"groups": "path", "lines": {"first": 0.9}}, _card(conf=0.99, path="gap"), False),
    ({"groups": "path", "lines": {"gap": 1.01}}, _card(conf=0.99, path="gap"), False),
    # two corners that agree change nothing by path
    ({"groups": "path", "lines": {"first": 0.995}}, _two_corners("7H", "7H", 0.95), False),
])
def test_lines_group_by_evidence_unless_the_manifest_says_path(
        section: dict[str, object], card: PhysicalCard, sure: bool) -> None:
    spec = CalibrationSpec.model_validate({**SPEC, **section})
    assert spec.groups == section.get("groups", "evidence")
    cal = Calibration(spec)
    assert cal.card(card).sure is sure
    assert cal.card(card, offer=True).sure is False


@pytest.mark.parametrize("section", [
    {"groups": "path", "lines": {"pair": 0.9}},  # an evidence group under paths
    {"groups": "path", "lines": {"offer": 0.9}},  # an offer is never sure: no line
    {"lines": {"first": 0.9}},  # a path under the default, evidence
    {"groups": "corner", "lines": {}},  # an unknown grouping
])
def test_a_line_for_a_group_of_another_grouping_is_refused(section: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        CalibrationSpec.model_validate({**SPEC, **section})
