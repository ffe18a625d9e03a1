"""The training labels since 0.15.0: a covered corner labelled by what a person still reads
of it (`Style.readable`), cut as its card, and tight fans drawn without disturbing the
scenes of the earlier generator (the tests of `test_synth_labels.py` hold those)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.evaluation.evaluate import UNASKED  # noqa: E402
from scorekeeper_lab.training.crops import CLASS_OF, crops_from_dataset  # noqa: E402
from scorekeeper_lab.training.synth.compose import (  # noqa: E402
    READABLE,
    PlacedCard,
    Style,
    _labels,
    compose_scene,
    readable_kind,
)
from scorekeeper_lab.training.synth.dataset import yolo_lines  # noqa: E402
from scorekeeper_lab.training.synth.fallback import fallback_deck  # noqa: E402
from scorekeeper_lab.training.synth.layout import _Pool, fan  # noqa: E402

from scorekeeper.vision.classes import NONE  # noqa: E402

SIZE = (120, 120)


def _card(card: str, covered: tuple[slice, slice]) -> tuple[np.ndarray, PlacedCard]:
    """Card 0 fills the table; its top-left index is x 10–30, y 10–40 (rank y 10–28, pip
    y 28–40); the turned one is hidden; `covered` (rows, columns) lies under card 1."""
    owner = np.zeros(SIZE, np.int32)
    owner[60:, :] = 1
    owner[covered] = 1
    quad = np.array([[10, 10], [30, 10], [30, 40], [10, 40]], float)
    turned = np.array([[80, 70], [100, 70], [100, 100], [80, 100]], float)
    outline = np.array([[0, 0], [119, 0], [119, 119], [0, 119]], float)
    return owner, PlacedCard(0, card, "d", 120 * 120, [quad, turned], outline)


def _kinds(owner: np.ndarray, pc: PlacedCard, style: Style) -> list[str]:
    return [lab["kind"] for lab in _labels(owner, [pc], np.eye(3), SIZE, style)
            if lab["kind"] != "card"]


def test_the_rule_reads_half_a_rank_and_a_third_of_a_pip() -> None:
    assert readable_kind(0.5, 0.5, 0.5) == "readable"  # the 3 of diamonds of issue 30
    assert readable_kind(0.6, 1.0, 0.0) == "covered"  # the whole rank, no suit
    assert readable_kind(0.4, 0.1, 1.0) == "covered"  # the suit, no rank
    assert readable_kind(0.5, 0.4, 0.3) == "partial"  # between: taught nothing
    assert readable_kind(0.1, 0.0, 0.0) == "partial"  # a sliver


def test_a_corner_half_covered_from_the_side_is_readable() -> None:
    # the right half of the index under the next card of a tight fan: the earlier rule
    # labels it `partial` (half shows), the readable one its card
    owner, pc = _card("3D", (slice(None), slice(20, 60)))
    assert _kinds(owner, pc, Style()) == ["partial"]
    labels = _labels(owner, [pc], np.eye(3), SIZE, READABLE)
    lab = next(x for x in labels if x["kind"] != "card")
    assert lab["kind"] == "readable" and lab["card"] == "3D"
    assert lab["rank"] == pytest.approx(0.5, abs=0.05) and lab["pip"] == pytest.approx(
        0.5, abs=0.05)
    assert yolo_lines(labels, SIZE, "detector") == []  # the detector is taught as before
    assert "readable" in UNASKED  # and the evaluation asks nothing of it


def test_the_detector_can_be_taught_readable_corners_by_todays_rule() -> None:
    # `yolo_lines(readable=True)` (analyses.train_detector): a readable corner is an index
    # box, judged again by today's rule on the shares it records, as the crops are
    box = [10.0, 20.0, 30.0, 60.0]
    seen = {"card": "3D", "box": box, "kind": "readable", "visible": 0.6, "rank": 0.7,
            "pip": 0.6}
    old = {**seen, "pip": 0.4}  # readable when rendered under the earlier third-of-a-pip rule
    assert yolo_lines([seen, old], SIZE, "detector") == []
    lines = yolo_lines([seen, old], SIZE, "detector", readable=True)
    assert len(lines) == 1 and lines[0].split()[0] == "0"
    covered = {**seen, "kind": "covered"}
    assert yolo_lines([covered], SIZE, "detector", readable=True) == []
    # a card-naming detector is taught the same corner as its card
    from scorekeeper.vision.classes import CARD_DETECTOR_CLASSES

    (named,) = yolo_lines([seen, old], SIZE, "cards", readable=True)
    assert CARD_DETECTOR_CLASSES[int(named.split()[0])] == "3D"


def test_a_whole_index_and_a_hidden_pip_keep_their_labels() -> None:
    owner, pc = _card("7H", (slice(0, 0), slice(None)))
    assert _kinds(owner, pc, READABLE) == ["index"]
    owner, pc = _card("7H", (slice(28, 41), slice(None)))  # the pip under the next card
    assert _kinds(owner, pc, READABLE) == ["covered"]


def test_readable_corners_are_cut_as_their_card(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "cards").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "000000.jpg"), np.full((120, 120, 3), 200, np.uint8))
    owner, pc = _card("3D", (slice(None), slice(20, 60)))
    labels = _labels(owner, [pc], np.eye(3), SIZE, READABLE)
    (tmp_path / "cards" / "000000.json").write_text(json.dumps(labels))
    _, y = crops_from_dataset(tmp_path, random.Random(0), per_index=2, negatives=0.0)
    assert (y == CLASS_OF["3D"]).sum() == 2
    assert (y[y != CLASS_OF["3D"]] == NONE).all()
    # a fan's corners are few: they may be cut more often than whole indices
    _, y = crops_from_dataset(tmp_path, random.Random(0), per_index=2, negatives=0.0,
                              readable=3)
    assert (y == CLASS_OF["3D"]).sum() == 6


def test_a_tight_fan_turns_each_card_less() -> None:
    pool_rng = np.random.default_rng(0)
    pool = _Pool(pool_rng, [fallback_deck()])
    for seed in range(6):
        for tight, lo, hi in ((1.0, 2, 6), (0.0, 6, 14)):
            fan_ = fan(np.random.default_rng(seed), pool, np.array([200.0, 200.0]), 60.0, tight)
            steps = np.diff([p.angle for p in fan_])
            # each card turned by the fan's step, give or take the hand's tremor (0.8°)
            assert lo - 3 < float(np.mean(steps)) < hi + 3
            assert float(np.mean(steps)) < 7 if tight else float(np.mean(steps)) > 5


def test_readable_scenes_label_more_covered_corners() -> None:
    decks = [fallback_deck()]
    readable = 0
    for i in range(12):
        scene = compose_scene(np.random.default_rng([9, i]), decks, (320, 320), READABLE)
        readable += sum(lab["kind"] == "readable" for lab in scene.labels)
        for lab in scene.labels:
            if lab["kind"] == "readable":
                assert lab["rank"] >= 0.5 and lab["pip"] >= 0.35
    assert readable > 0


def test_crops_cut_a_readable_corner_by_todays_rule(tmp_path: Path) -> None:
    # a corner rendered when a third of a pip was enough: now it is left untaught
    (tmp_path / "images").mkdir()
    (tmp_path / "cards").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "000000.jpg"), np.full((120, 120, 3), 200, np.uint8))
    old = {"card": "3C", "box": [10, 10, 30, 40], "kind": "readable", "visible": 0.6,
           "rank": 0.9, "pip": 0.4, "card_id": 0, "deck": "d"}
    (tmp_path / "cards" / "000000.json").write_text(json.dumps([old]))
    _, y = crops_from_dataset(tmp_path, random.Random(0), per_index=2, negatives=0.0)
    assert (y == CLASS_OF["3C"]).sum() == 0
    old["pip"] = 0.6
    (tmp_path / "cards" / "000000.json").write_text(json.dumps([old]))
    _, y = crops_from_dataset(tmp_path, random.Random(0), per_index=2, negatives=0.0)
    assert (y == CLASS_OF["3C"]).sum() == 2
