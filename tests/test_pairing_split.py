"""One card, one reading: a close-up card the detector boxed as two halves is one card
(issue 30: a lone 2♥ turned 30° on a dark cloth read as two 2♥)."""

from __future__ import annotations

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, pair_indices


def _index(box: tuple[float, float, float, float], card: str = "2H") -> IndexReading:
    return IndexReading(Detection(box, 0, 0.88), card, 0.97)


# what the shipped detector finds on a rendered lone 2♥ (aisleriot orell, 0.7 of the frame's
# height, turned −30° on a dark cloth, 1280 × 960): both corners, and two card boxes, each
# holding one of them
CORNERS = [(1001, 598, 1172, 814), (112, 148, 280, 360)]
HALVES = [Detection((355, 169, 1213, 960), 1, 0.59), Detection((59, 0, 970, 841), 1, 0.54)]


def test_a_card_boxed_as_two_halves_is_one_card() -> None:
    cards = pair_indices([_index(b) for b in CORNERS], HALVES)
    assert [c.card for c in cards] == ["2H"]
    assert len(cards[0].indices) == 2
    assert cards[0].box == (59, 0, 1213, 960)


def test_two_readings_of_two_codes_stay_two() -> None:
    cards = pair_indices([_index(CORNERS[0]), _index(CORNERS[1], "2D")], HALVES)
    assert sorted(c.card for c in cards) == ["2D", "2H"]


def test_twin_cards_each_in_its_own_box_stay_two() -> None:
    # two 2♥ of two decks lying apart, each box around its own middle, one corner of each
    # in view (the other under a third card): the point between the corners is in neither
    a = _index((160, 240, 180, 270))
    b = _index((330, 10, 350, 40))
    boxes = [Detection((0, 0, 200, 280), 1, 0.9), Detection((320, 0, 520, 280), 1, 0.9)]
    assert len(pair_indices([a, b], boxes)) == 2


def test_twin_cards_too_far_apart_for_one_card_stay_two() -> None:
    # both boxes hold the midpoint (they overlap), but the corners are ten index lengths
    # apart: no card's corners lie so far
    a = _index((0, 0, 20, 40))
    b = _index((380, 380, 400, 420))
    boxes = [Detection((0, 0, 300, 300), 1, 0.9), Detection((100, 100, 400, 420), 1, 0.9)]
    assert len(pair_indices([a, b], boxes)) == 2


def test_a_card_whose_corner_a_fanned_neighbours_box_took_is_one_card() -> None:
    # real-photos-dev IMG_2593 (a fan of four), as the detector boxes it: the 10♥'s box
    # holds both its corners, but the Q♠'s box, which the 10♥'s near corner overlaps by
    # half, takes that corner first (it reads surer than the Q♠'s own)
    ten = [IndexReading(Detection((209, 265, 236, 292), 0, 0.86), "10H", 0.98),
           IndexReading(Detection((323, 275, 353, 303), 0, 0.88), "10H", 0.98)]
    queen = [IndexReading(Detection((124, 332, 150, 361), 0, 0.84), "QS", 0.99),
             IndexReading(Detection((234, 347, 263, 377), 0, 0.8), "QS", 0.99)]
    boxes = [Detection((122, 278, 266, 433), 1, 0.94), Detection((206, 211, 355, 360), 1, 0.93)]
    cards = pair_indices(ten + queen, boxes)
    assert sorted(c.card for c in cards) == ["10H", "QS"]
    assert all(len(c.indices) == 2 for c in cards)
