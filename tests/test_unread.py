"""Cards seen but not read (`ReadResult.unread`): a whole-card box no read or offered card
explains is marked, so the review asks for it instead of missing it silently."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.classes import CARD, INDEX
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, PhysicalCard
from scorekeeper.vision.unread import RULE, Unread, UnreadRule, unread_cards, unread_indices

ROOT = Path(__file__).resolve().parents[1]
needs_model = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                 reason="no trained model")

BODY = (100.0, 100.0, 300.0, 380.0)  # a portrait card's whole-card box
OWN_INDEX = (105.0, 105.0, 130.0, 150.0)  # its top-left index


def body(box: tuple[float, float, float, float] = BODY, conf: float = 0.9) -> Detection:
    return Detection(box, CARD, conf)


def read_card(code: str, index: tuple[float, float, float, float],
              box: tuple[float, float, float, float] | None = None) -> PhysicalCard:
    reading = IndexReading(Detection(index, INDEX, 0.9), code, 0.95)
    return PhysicalCard(code, 0.9, box or index, (reading,))


def test_a_card_body_with_no_read_index_is_marked() -> None:
    assert unread_cards([body()], []) == [Unread(BODY, 0.9)]
    # a card read elsewhere in the frame explains nothing here
    far = read_card("7H", (600.0, 100.0, 625.0, 145.0), (595.0, 95.0, 800.0, 380.0))
    assert unread_cards([body()], [far]) == [Unread(BODY, 0.9)]


def test_a_card_body_holding_a_read_index_is_not_marked() -> None:
    assert unread_cards([body()], [read_card("KC", OWN_INDEX, BODY)]) == []
    # an offer ("maybe") points at it already: no second question
    offer = read_card("KC", OWN_INDEX)
    assert unread_cards([body()], [offer]) == []


def test_a_card_body_overlapping_a_read_cards_box_is_that_card() -> None:
    # read from an index the body box cut off (its box the union of index and body)
    index = (95.0, 90.0, 120.0, 135.0)  # mostly outside the body
    card = read_card("9S", index, (95.0, 90.0, 300.0, 380.0))
    assert unread_cards([body()], [card]) == []


def test_a_doubtful_box_is_no_card() -> None:
    assert unread_cards([body(conf=RULE.conf - 0.01)], []) == []
    assert unread_cards([body(conf=0.3)], [], UnreadRule(conf=0.2)) == [Unread(BODY, 0.3)]


def test_an_overlapping_fan_marks_no_card_it_read() -> None:
    # three cards fanned left to right, each 60 px right of the one under it; the middle
    # card's index is lost (glare), its neighbours' read; each body box is its visible part
    bodies = [body((100.0, 100.0, 300.0, 380.0)), body((160.0, 100.0, 360.0, 380.0)),
              body((220.0, 100.0, 420.0, 380.0))]
    left = read_card("5D", (105.0, 105.0, 130.0, 150.0), bodies[0].box)
    right = read_card("5S", (225.0, 105.0, 250.0, 150.0), bodies[2].box)
    # the read cards' bodies hold their own indices; the middle one holds its right
    # neighbour's index and overlaps both: one card's neighbours, no card of its own
    assert unread_cards(bodies, [left, right]) == []
    # spread wider (a neighbour's index half out of it, the boxes overlapping less than
    # one card's two boxes do), the middle card is asked for, and only it
    wide = [body((100.0, 100.0, 300.0, 380.0)), body((260.0, 100.0, 460.0, 380.0)),
            body((420.0, 100.0, 620.0, 380.0))]
    left = read_card("5D", (105.0, 105.0, 130.0, 150.0), wide[0].box)
    right = read_card("5S", (455.0, 105.0, 480.0, 150.0), wide[2].box)
    assert unread_cards(wide, [left, right]) == [Unread(wide[1].box, 0.9)]
    # with no overlap rule, the first fan's middle card is still explained by the index in it
    assert unread_cards(bodies, [read_card("5D", (105.0, 105.0, 130.0, 150.0), bodies[0].box),
                                 read_card("5S", (225.0, 105.0, 250.0, 150.0), bodies[2].box)],
                        UnreadRule(iou=1.01)) == []


def test_one_card_boxed_twice_is_marked_once() -> None:
    twice = [body(), body((105.0, 102.0, 305.0, 378.0), 0.8)]
    assert unread_cards(twice, []) == [Unread(BODY, 0.9)]


CORNERS = UnreadRule(index_conf=0.4)  # a rule that marks index boxes from 0.4
LOST = (300.0, 105.0, 325.0, 150.0)  # a corner in a fan whose card nothing names


def index(box: tuple[float, float, float, float], conf: float = 0.6) -> Detection:
    return Detection(box, INDEX, conf)


def test_a_corner_nothing_was_read_from_is_marked() -> None:
    read = [read_card("KC", OWN_INDEX)]
    assert unread_indices([index(OWN_INDEX), index(LOST)], read, rule=CORNERS) == [
        Unread(LOST, 0.6, "index")]
    assert unread_indices([index(LOST, 0.39)], read, rule=CORNERS) == []  # too doubtful
    assert unread_indices([index(LOST)], read, rule=UnreadRule(index_conf=1.01)) == []


def test_a_corner_looked_at_twice_or_inside_a_read_card_is_explained() -> None:
    # a second, shifted box on the corner KC was read from
    again = (108.0, 110.0, 133.0, 152.0)
    assert unread_indices([index(again)], [read_card("KC", OWN_INDEX)], rule=CORNERS) == []
    # a card read from two corners spans its body: a box inside it (a pip) is that card
    other = (270.0, 330.0, 295.0, 375.0)
    two = PhysicalCard("KC", 0.95, BODY, (
        IndexReading(Detection(OWN_INDEX, INDEX, 0.9), "KC", 0.95),
        IndexReading(Detection(other, INDEX, 0.9), "KC", 0.95)))
    assert unread_indices([index((180.0, 200.0, 205.0, 245.0))], [two], rule=CORNERS) == []
    # but a card read from one corner spans only that corner: a neighbour's corner is not it
    assert unread_indices([index(LOST)], [read_card("KC", OWN_INDEX)], rule=CORNERS) == [
        Unread(LOST, 0.6, "index")]


def test_a_corner_inside_a_marked_body_is_marked_once() -> None:
    marked = unread_cards([body()], [])
    assert unread_indices([index(OWN_INDEX)], [], marked, CORNERS) == []
    # one corner boxed twice: one mark
    twice = [index(LOST, 0.7), index((302.0, 107.0, 327.0, 151.0), 0.5)]
    assert unread_indices(twice, [], rule=CORNERS) == [Unread(LOST, 0.7, "index")]


class FixedDetector:
    names = ("index", "card")

    def __init__(self, dets: list[Detection]) -> None:
        self.dets = dets

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        return list(self.dets)


@needs_model
def test_the_reader_marks_a_card_it_sees_but_cannot_read() -> None:
    from scorekeeper.vision.confidence import Calibration
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    reader.refocus = False
    reader.calibration = Calibration()
    reader.hand_look = None
    lost = (500.0, 100.0, 700.0, 380.0)
    reader.detector = FixedDetector([  # type: ignore[assignment]
        Detection(OWN_INDEX, INDEX, 0.9), body(), body(lost, 0.8),
        Detection((505.0, 105.0, 530.0, 150.0), INDEX, 0.9)])
    assert reader.classifier is not None
    # the first card's index reads; the lost card's index is "none" (no offer)
    reader.classifier.classify = lambda crops: [("KC", 0.99), ("none", 0.9)][:len(crops)]  # type: ignore
    reader.second = None
    result = reader.read(np.zeros((600, 900, 3), np.uint8))
    assert [c.card for c in result.cards] == ["KC"]
    assert result.maybe == []
    assert result.unread == [Unread(lost, 0.8)]
    assert result.unread[0].to_json() == {"box": [500.0, 100.0, 700.0, 380.0], "confidence": 0.8,
                                          "kind": "card"}


@needs_model
def test_read_json_checks_the_cards_seen_but_not_read(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import json

    import cv2

    from scorekeeper.vision.read_cmd import read_images
    from scorekeeper.vision.reader import CardReader, ReadResult

    lost = (40.0, 30.0, 140.0, 170.0)
    monkeypatch.setattr(CardReader, "read", lambda self, image, camera=None: ReadResult(
        [], 2.0, unread=[Unread(lost, 0.8766)]))
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), np.full((240, 320, 3), 90, np.uint8))
    out = io.StringIO()
    assert read_images([image], as_json=True, annotate=tmp_path / "marked.png", runtime=None,
                       out=out, err=io.StringIO()) == 0
    line = json.loads(out.getvalue())
    assert line["unread"] == [{"box": list(lost), "confidence": 0.877, "kind": "card"}]
    assert line["check"] == {"unsure": [], "offers": [], "unread": [list(lost)]}
    drawn = cv2.imread(str(tmp_path / "marked.png"))
    magenta = (drawn[..., 2].astype(int) - drawn[..., 1].astype(int)) > 80
    assert magenta[28:173, 38:143].any() and not magenta[:, 200:].any()
    # the plain line says it too
    text = io.StringIO()
    read_images([image], as_json=False, annotate=None, runtime=None, out=text,
                err=io.StringIO())
    assert "(no cards) +1 seen, not read" in text.getvalue()


def test_the_eval_counts_a_mark_as_showing_the_error() -> None:
    from scorekeeper_lab.evaluation.reliability import ReadCard, SceneReads, measure
    from scorekeeper_lab.evaluation.unread_marks import mark_place

    from scorekeeper.vision.confidence import Calibration

    sure = ReadCard("first", 0.99, True)
    scenes = [SceneReads("missed, marked", [sure], errors=1, unread=["missed"]),
              SceneReads("missed, silent", [sure], errors=1),
              SceneReads("right, marked", [sure], unread=["read"]),
              SceneReads("right, quiet", [sure])]
    f = measure(scenes, Calibration())
    assert (f.with_error, f.silent, f.shown_by_mark) == (2, 1, 1)
    assert (f.quiet, f.quiet_but_mark) == (1, 1)
    assert f.marks == {"missed": 1, "read": 1}
    # where a mark lands: the labelled card it overlaps most, else a card to fix inside it
    labelled = [((0, 0, 100, 140), True), ((90, 0, 190, 140), False), ((300, 0, 320, 30), True)]
    assert mark_place((0, 0, 100, 140), labelled) == "missed"
    assert mark_place((95, 0, 190, 140), labelled) == "read"
    assert mark_place((280, 0, 400, 160), labelled) == "missed"  # a corner label inside
    assert mark_place((600, 600, 700, 700), labelled) == "elsewhere"
