"""A detector whose classes are the cards (`vision/classes.CARD_DETECTOR_CLASSES`): as the
frame's detector it names each index itself; as the hand detector it reads the corners of
a hand the first look missed or the classifiers turned down. One NMS over all its classes
keeps one name an index."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.classes import CARD_CODES, CARD_DETECTOR_CLASSES
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.detectors.yolo_decode import decode
from scorekeeper.vision.hand_look import NEVER, HandLook, HandLookConfig
from tests.test_fan_gaps import Box
from tests.test_hand_look import HAND, MISSED
from tests.test_hand_scale import ROOT, needs_model

CARD = len(CARD_CODES)  # the whole card's class in CARD_DETECTOR_CLASSES


def _raw(rows: list[tuple[float, float, float, float, int, float]], classes: int
         ) -> np.ndarray:
    """A YOLO head's output (1, 4 + classes, anchors) holding `rows` (cx, cy, w, h, class,
    score)."""
    out = np.zeros((1, 4 + classes, len(rows)), np.float32)
    for k, (cx, cy, w, h, cls, score) in enumerate(rows):
        out[0, :4, k] = (cx, cy, w, h)
        out[0, 4 + cls, k] = score
    return out


def test_one_nms_over_all_classes_keeps_one_name_an_index() -> None:
    # one index boxed twice, as 6S and as 8S (IoU 0.82), and a card box around it
    raw = _raw([(50, 50, 20, 30, 5, 0.9), (51, 50, 20, 30, 7, 0.7),
                (80, 100, 100, 150, CARD, 0.95)], len(CARD_DETECTOR_CLASSES))
    names = sorted(d.cls for d in decode(raw, 1.0, (0, 0), 0.25, 0.5, (480, 640),
                                         agnostic=True))
    assert names == [5, CARD]
    both = sorted(d.cls for d in decode(raw, 1.0, (0, 0), 0.25, 0.5, (480, 640)))
    assert both == [5, 7, CARD]  # class-aware: the index-and-card detector's behaviour


def _named(box: Box, card: str, conf: float = 0.8) -> tuple[Box, int, float]:
    return box, CARD_CODES.index(card), conf


class NamingCropDetector:
    """A card-naming hand detector stand-in: names `found` (frame pixels) in the crop of
    the hand's region (its corner at 45, 40, as test_hand_look's region test says)."""

    names = CARD_DETECTOR_CLASSES

    def __init__(self, found: list[tuple[Box, int, float]]) -> None:
        self.found = found

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        x1, y1 = 45, 40
        return [Detection((b[0] - x1, b[1] - y1, b[2] - x1, b[3] - y1), cls, conf)
                for b, cls, conf in self.found]


def _reader(answers: list[tuple[str, float]], found: list[tuple[Box, int, float]]):
    from tests.test_hand_scale import _reader as reader_of

    reader = reader_of(answers, HAND)
    reader.use_hand_detector(NamingCropDetector(found))
    return reader


# the first look's answers for HAND: the fourth corner (at x 200) turned down (at its
# neighbours' size already: not cropped again); then the classifiers' answer on the hand
# detector's box (`told`) and on the stripe's gap at MISSED (x 175), read as no card
def _turned_down(told: tuple[str, float]) -> list[tuple[str, float]]:
    return [("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("none", 0.8), ("QH", 0.9), told,
            ("none", 0.9)]


@needs_model
def test_a_turned_down_corner_is_read_where_the_classifiers_agree_with_its_name() -> None:
    reader = _reader(_turned_down(("JH", 0.35)), [_named(HAND[3], "JH")])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "JH", "QH"]
    (jack,) = [c for c in result.cards if c.card == "JH"]
    assert jack.confidence == pytest.approx(0.8 * 0.8)  # its box's and its name's, both 0.8


@needs_model
@pytest.mark.parametrize("told", [("JD", 0.9), ("none", 0.9)])
def test_a_name_the_classifiers_do_not_give_reads_nothing(told: tuple[str, float]) -> None:
    reader = _reader(_turned_down(told), [_named(HAND[3], "JH")])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "QH"]


@needs_model
def test_the_hand_detector_names_no_joker() -> None:
    # on game tables what it named a joker was court art; the first look still reads one
    answers = [("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("none", 0.8), ("QH", 0.9),
               ("none", 0.9)]  # the last: the stripe's gap
    reader = _reader(answers, [_named(HAND[3], "JK", 0.95)])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "QH"]
    assert len(reader.classifier.asked) == 6  # the joker's box was never asked about


@needs_model
def test_a_corner_the_first_look_missed_is_read_by_its_name() -> None:
    answers = [("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9), ("10H", 0.2)]
    reader = _reader(answers, [_named(MISSED, "10H")])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["10H", "7H", "8H", "9H", "JH", "QH"]


@needs_model
def test_a_name_on_a_read_corner_or_naming_a_card_read_already_reads_nothing() -> None:
    # the hand detector names the read 7H's corner 6H, and the missed corner 9H (read),
    # where the classifiers agree: 9H
    found = [_named(HAND[0], "6H"), _named(MISSED, "9H")]
    answers = [("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9), ("9H", 0.6)]
    reader = _reader(answers, found)
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "JH", "QH"]
    assert len(reader.classifier.asked) == 6  # the read corner's name was never asked about


@needs_model
def test_a_whole_card_box_from_the_hand_detector_is_no_index() -> None:
    result = _reader(_turned_down(("none", 0.9)), [(HAND[3], CARD, 0.9)]).read(
        np.zeros((480, 640, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "QH"]


class NamingFrameDetector:
    names = CARD_DETECTOR_CLASSES

    def __init__(self, found: list[tuple[Box, int, float]]) -> None:
        self.found = found

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        return [Detection(b, cls, conf) for b, cls, conf in self.found]


def _card_models(tmp_path: Path) -> Path:
    """The shipped model folder with model.json naming a card detector (its ONNX file the
    shipped one: the tests put a stand-in detector in its place)."""
    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    meta = json.loads((models / "model.json").read_text())
    meta["detector"]["names"] = list(CARD_DETECTOR_CLASSES)
    (models / "model.json").write_text(json.dumps(meta))
    return models


@needs_model
def test_a_card_detector_names_the_frames_cards_and_offers_the_unsure(tmp_path: Path) -> None:
    from scorekeeper.vision.reader import MAYBE_PROB, CardReader

    reader = CardReader(_card_models(tmp_path))
    assert not reader.two_stage and reader.classifier is None
    reader.refocus = False
    card = (100.0, 100.0, 200.0, 250.0)
    reader.detector = NamingFrameDetector([  # type: ignore[assignment]
        _named((105, 105, 125, 135), "QS", 0.9), _named((175, 215, 195, 245), "QS", 0.7),
        (card, CARD, 0.95), _named((400, 100, 420, 130), "4D", MAYBE_PROB + 0.05),
        _named((500, 100, 520, 130), "5D", MAYBE_PROB - 0.05)])
    result = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert [c.card for c in result.cards] == ["QS"]  # two corners of one card: one card
    assert [c.card for c in result.maybe] == ["4D"]


def test_a_detector_of_other_classes_is_refused(tmp_path: Path) -> None:
    from scorekeeper.vision.reader import CardReader, VisionError

    models = tmp_path / "models"
    models.mkdir()
    meta = json.loads((ROOT / "models" / "model.json").read_text())
    meta["detector"]["names"] = ["cat", "dog"]
    (models / "model.json").write_text(json.dumps(meta))
    with pytest.raises(VisionError, match="neither index and card"):
        CardReader(models)



@needs_model
def test_a_fixed_cameras_frame_gets_no_hand_look() -> None:
    # up to 170 ms a table frame: a photo (no camera) has the time, a live camera's frame not
    answers = [("7H", 0.9), ("8H", 0.9), ("9H", 0.9), ("JH", 0.9), ("QH", 0.9),
               ("none", 0.9)]  # the last: the stripe's gap at MISSED, where 10H lies
    reader = _reader(answers, [_named(MISSED, "10H")])
    result = reader.read(np.zeros((480, 640, 3), np.uint8), camera="table")
    assert sorted(c.card for c in result.cards) == ["7H", "8H", "9H", "JH", "QH"]
    answers[-1] = ("10H", 0.2)  # a photo: the hand detector's name, agreed
    photo = _reader([*answers, ("none", 0.9)], [_named(MISSED, "10H")])
    assert "10H" in {c.card for c in photo.read(np.zeros((480, 640, 3), np.uint8)).cards}


@pytest.mark.parametrize(("conf", "told", "alone", "agree", "reads"), [
    (0.8, ("JH", 0.35), NEVER, 0.0, True),  # the classifiers agree, at any probability
    (0.8, ("JH", 0.35), NEVER, 0.5, False),  # ... or from `agree`
    (0.8, ("JD", 0.9), NEVER, 0.0, False),  # they name another card
    (0.8, ("none", 0.9), NEVER, 0.0, False),  # they name no card
    (0.9, ("JD", 0.9), 0.85, 0.0, True),  # named sure enough to read alone
    (0.8, ("none", 0.9), 0.85, 0.0, False),  # not so sure
])
def test_which_names_of_the_hand_detector_read(
        conf: float, told: tuple[str, float], alone: float, agree: float, reads: bool) -> None:
    look = HandLook(NamingCropDetector([]), 44.0, alone, agree)
    box = Detection((0.0, 0.0, 10.0, 14.0), CARD_CODES.index("JH"), conf)
    assert look.agreed([box], [told]) == ([(box, ("JH", conf))] if reads else [])


@needs_model
def test_model_json_sets_how_the_hand_detectors_names_read(tmp_path: Path) -> None:
    hand = HandLookConfig.model_validate(
        {"onnx": "cards-named.onnx", "alone": 0.9, "agree": 0.4, "training": {"runs": []}})
    assert (hand.alone, hand.agree, hand.conf) == (0.9, 0.4, None)
    assert HandLookConfig.model_validate({"onnx": "x.onnx"}).alone == NEVER  # agreement only

    from scorekeeper.vision.reader import CardReader, VisionError

    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    meta = json.loads((models / "model.json").read_text())
    meta["detector"]["hand"]["alone"] = "very sure"
    (models / "model.json").write_text(json.dumps(meta))
    with pytest.raises(VisionError, match=r"detector\.hand"):
        CardReader(models)
