"""Corner pairing: by geometry, never by class alone."""

from __future__ import annotations

import pytest

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, pair_indices


def idx(card: str, x: float, y: float, size: float = 20, conf: float = 0.9) -> IndexReading:
    box = (x - size / 4, y - size / 2, x + size / 4, y + size / 2)
    return IndexReading(Detection(box, 0, conf), card, 0.95)


def test_two_corners_of_one_card_become_one_card() -> None:
    # a card ~63 × 88 px with 20 px indices: corners ~(10, 14) and (53, 74) apart ≈ 74 px
    cards = pair_indices([idx("7H", 10, 14), idx("7H", 53, 74)], [])
    assert [c.card for c in cards] == ["7H"]
    assert len(cards[0].indices) == 2
    assert cards[0].confidence > 0.95 * 0.9  # two agreeing corners are surer than one


def test_two_identical_cards_side_by_side_stay_two() -> None:
    # a meld row: the second 7H overlaps the first, its index 25 px to the right
    cards = pair_indices([idx("7H", 10, 14), idx("7H", 35, 14)], [])
    assert [c.card for c in cards] == ["7H", "7H"]


def test_two_identical_cards_far_apart_stay_two() -> None:
    cards = pair_indices([idx("7H", 10, 14), idx("7H", 400, 300)], [])
    assert len(cards) == 2


def test_four_corners_of_two_identical_cards_make_two_cards() -> None:
    a = [idx("QD", 10, 14), idx("QD", 53, 74)]
    b = [idx("QD", 210, 14), idx("QD", 253, 74)]
    cards = pair_indices(a + b, [])
    assert len(cards) == 2 and all(len(c.indices) == 2 for c in cards)


def test_different_readings_are_never_paired() -> None:
    cards = pair_indices([idx("6H", 10, 14), idx("9H", 53, 74)], [])
    assert sorted(c.card for c in cards) == ["6H", "9H"]


def test_a_whole_card_detection_claims_its_own_corners() -> None:
    card = Detection((0, 0, 63, 88), 1, 0.9)
    cards = pair_indices([idx("KS", 10, 14), idx("KS", 53, 74), idx("2C", 200, 14)], [card])
    assert sorted((c.card, len(c.indices)) for c in cards) == [("2C", 1), ("KS", 2)]
    ks = next(c for c in cards if c.card == "KS")
    assert ks.box == (0, 0, 63, 88)


def test_a_whole_card_claims_a_corner_whose_suit_was_misread() -> None:
    card = Detection((0, 0, 63, 88), 1, 0.9)
    sure = IndexReading(Detection((5, 4, 15, 24), 0, 0.9), "KS", 0.95)
    glare = IndexReading(Detection((48, 64, 58, 84), 0, 0.9), "KC", 0.6)
    cards = pair_indices([sure, glare], [card])
    assert [(c.card, len(c.indices)) for c in cards] == [("KS", 2)]


def test_a_whole_card_never_claims_a_corner_of_another_rank() -> None:
    card = Detection((0, 0, 63, 88), 1, 0.9)
    cards = pair_indices([idx("9H", 10, 14), idx("6H", 53, 74)], [card])
    assert sorted(c.card for c in cards) == ["6H", "9H"]


def test_a_joker_read_in_a_court_cards_art_is_not_a_card() -> None:
    card = Detection((0, 0, 63, 88), 1, 0.9)
    art = IndexReading(Detection((25, 30, 40, 55), 0, 0.4), "JK", 0.7)
    cards = pair_indices([idx("QD", 10, 14), art], [card])
    assert [c.card for c in cards] == ["QD"]


def test_a_real_joker_with_its_own_card_box_stays() -> None:
    queen, joker = Detection((0, 0, 63, 88), 1, 0.9), Detection((100, 0, 163, 88), 1, 0.9)
    cards = pair_indices([idx("QD", 10, 14), idx("JK", 110, 14)], [queen, joker])
    assert sorted(c.card for c in cards) == ["JK", "QD"]


def test_two_identical_cards_each_in_its_own_box_stay_two() -> None:
    a, b = Detection((0, 0, 63, 88), 1, 0.9), Detection((70, 0, 133, 88), 1, 0.9)
    cards = pair_indices([idx("7S", 10, 14), idx("7S", 80, 14)], [a, b])
    assert [c.card for c in cards] == ["7S", "7S"]


def test_one_index_detected_twice_is_one_card() -> None:
    # the detector boxed one printed index twice (two sizes, overlapping): one card
    a, b = idx("AS", 100, 100, size=40), idx("AS", 103, 110, size=44, conf=0.5)
    assert [c.card for c in pair_indices([a, b], [])] == ["AS"]


def test_identical_indices_side_by_side_are_not_merged() -> None:
    # a meld row of two 7H from two decks: boxes touch, neither centre lies in the other
    cards = pair_indices([idx("7H", 10, 14), idx("7H", 22, 14)], [])
    assert len(cards) == 2


def test_one_index_boxed_twice_nested_is_one_card() -> None:
    # a box round the rank alone inside one round the whole index: the same printed index
    whole = IndexReading(Detection((100, 100, 124, 140), 0, 0.9), "9C", 0.95)
    rank = IndexReading(Detection((102, 101, 122, 124), 0, 0.6), "9C", 0.7)
    assert len(pair_indices([whole, rank], [])) == 1


def test_one_index_boxed_as_two_halves_is_one_card() -> None:
    # a held-out game table's JH index, detected as its left and right halves (each the
    # other's centre inside, the narrower box 0.54 inside the other): one card, not two
    left = IndexReading(Detection((1052, 721, 1068, 757), 0, 0.67), "JH", 0.985)
    right = IndexReading(Detection((1059, 721, 1076, 756), 0, 0.43), "JH", 0.887)
    assert len(pair_indices([left, right], [])) == 1


def test_a_card_box_that_missed_its_far_corner_still_gets_it() -> None:
    # a close-up: the card box holds the top-left index only; the bottom-right one lies a
    # card's diagonal away, outside the box, and is the same card, not a second one
    box = Detection((0, 0, 90, 100), 1, 0.8)
    cards = pair_indices([idx("AS", 15, 20, size=40), idx("AS", 120, 165, size=40)], [box])
    assert [c.card for c in cards] == ["AS"]
    assert len(cards[0].indices) == 2
    assert cards[0].box[2] >= 130 and cards[0].box[3] >= 180


def test_a_far_corner_inside_another_cards_box_stays_that_cards() -> None:
    a, b = Detection((0, 0, 63, 88), 1, 0.9), Detection((100, 60, 163, 148), 1, 0.9)
    cards = pair_indices([idx("7S", 10, 14), idx("7S", 110, 74)], [a, b])
    assert [c.card for c in cards] == ["7S", "7S"]


# --- two physical cards of one code (two decks) never merge; one card's corners do ---
# A card of 63 × 88 px with 20 px indices: its top-left index centred at (10, 14) from its
# corner, its bottom-right one at (53, 74), 73.8 px apart down-right (the slope a portrait
# card's diagonal has; which way either index faces is not used, so a design that prints
# its bottom-right index upright pairs the same).


def wide(card: str, x: float, y: float, size: float = 20) -> IndexReading:
    """The index of a card lying on its side: its box wider than tall."""
    box = (x - size / 2, y - size / 4, x + size / 2, y + size / 4)
    return IndexReading(Detection(box, 0, 0.9), card, 0.95)


def corners(card: str, x: float, y: float) -> list[IndexReading]:
    """Both indices of an upright card whose top-left corner lies at (x, y)."""
    return [idx(card, x + 10, y + 14), idx(card, x + 53, y + 74)]


def whole(x: float, y: float) -> Detection:
    return Detection((x, y, x + 63, y + 88), 1, 0.9)


def read(readings: list[IndexReading], boxes: list[Detection]) -> list[tuple[str, int]]:
    return sorted((c.card, len(c.indices)) for c in pair_indices(readings, boxes))


TWINS_OR_CORNERS = [
    ("one card's two corners", corners("7H", 0, 0), [], [("7H", 2)]),
    # turned 90° clockwise: top-left corner at the top right, wide index boxes
    ("one landscape card's two corners", [wide("7H", 74, 10), wide("7H", 14, 53)], [],
     [("7H", 2)]),
    ("twins, the second up-right a diagonal away", [idx("7H", 10, 14), idx("7H", 53, -46)],
     [], [("7H", 1), ("7H", 1)]),
    ("twins, one above the other", [idx("7H", 10, 14), idx("7H", 10, 88)], [],
     [("7H", 1), ("7H", 1)]),
    ("twins side by side a diagonal's length apart", [idx("7H", 10, 14), idx("7H", 84, 14)],
     [], [("7H", 1), ("7H", 1)]),
    ("twins lying on their side, down-right", [wide("7H", 10, 14), wide("7H", 53, 74)], [],
     [("7H", 1), ("7H", 1)]),
    # a whole card elsewhere in the frame tells how far apart this camera's corners lie
    ("twins on the diagonal, farther apart than this frame's corners",
     [idx("7H", 10, 14), idx("7H", 70, 98), *corners("KS", 300, 0)], [whole(300, 0)],
     [("7H", 1), ("7H", 1), ("KS", 2)]),
    # a card box holding one corner: a twin on the line of its diagonal but on the side
    # away from the box is not the corner it misses
    ("a card box's corner and a twin up-left of it, away from the box",
     [idx("9S", 110, 14), idx("9S", 67, -46)], [whole(100, 0)], [("9S", 1), ("9S", 1)]),
    ("one card's corners, as far apart as this frame's",
     [*corners("7H", 0, 0), *corners("KS", 300, 0)], [whole(300, 0)],
     [("7H", 2), ("KS", 2)]),
]


@pytest.mark.parametrize(("readings", "boxes", "expected"),
                         [case[1:] for case in TWINS_OR_CORNERS],
                         ids=[case[0] for case in TWINS_OR_CORNERS])
def test_twins_stay_two_cards_and_one_cards_corners_one(
        readings: list[IndexReading], boxes: list[Detection],
        expected: list[tuple[str, int]]) -> None:
    assert read(readings, boxes) == expected


def det(box: tuple[float, float, float, float], conf: float, card: str, prob: float
        ) -> IndexReading:
    return IndexReading(Detection(box, 0, conf), card, prob)


# Same rank, another suit, inside one whole-card box: the box's own corners are the pair
# that straddles its centre; a neighbour's index it takes in stays its own card. The boxes
# and confidences are the detector's on two benchmark tables (data/games-test 000116, 000107).
SAME_RANK_IN_ONE_BOX = [
    ("a set: the 6D's index beside the top 6H's corner",
     [det((643, 802, 681, 869), 0.86, "6H", 0.83), det((435, 605, 473, 676), 0.84, "6S", 0.918),
      det((531, 620, 570, 690), 0.83, "6H", 0.966), det((485, 613, 521, 682), 0.82, "6D", 0.883)],
     [Detection((500, 617, 713, 874), 1, 0.88)],
     [("6D", 1), ("6H", 2), ("6S", 1)]),
    ("a fan: the 10D's corner a diagonal from the 10S's far one, beside its near one",
     [det((406, 777, 452, 852), 0.88, "10S", 0.949), det((257, 596, 292, 665), 0.81, "10D", 0.962),
      det((310, 593, 358, 667), 0.79, "10S", 0.899)],
     [Detection((265, 591, 496, 857), 1, 0.9)],
     [("10D", 1), ("10S", 2)]),
    ("a glare-flipped suit at the box's far corner is still its corner",
     [det((5, 4, 15, 24), 0.9, "KS", 0.95), det((48, 64, 58, 84), 0.9, "KC", 0.6)],
     [whole(0, 0)], [("KS", 2)]),
]


@pytest.mark.parametrize(("readings", "boxes", "expected"),
                         [case[1:] for case in SAME_RANK_IN_ONE_BOX],
                         ids=[case[0] for case in SAME_RANK_IN_ONE_BOX])
def test_a_card_box_pairs_its_own_corners_not_a_same_rank_neighbour(
        readings: list[IndexReading], boxes: list[Detection],
        expected: list[tuple[str, int]]) -> None:
    assert read(readings, boxes) == expected


def meld_row(codes: str, x: float, y: float, step: float = 25
             ) -> tuple[list[IndexReading], Detection]:
    """An overlapping row: each card's top-left index, the top card's both, its box."""
    names = codes.split()
    top = x + step * (len(names) - 1)
    return [idx(c, x + step * i + 10, y + 14) for i, c in enumerate(names[:-1])] + corners(
        names[-1], top, y), whole(top, y)


TWO_DECK_ROWS = [
    # the second deck's run laid below the first, shifted right: each of its top-left
    # indices lies down-right of its twin, a diagonal's slope but 1.6 corner spans away
    ("the same run twice", [("5H 6H 7H", 0, 0), ("5H 6H 7H", 60, 110)],
     [("5H", 1), ("5H", 1), ("6H", 1), ("6H", 1), ("7H", 2), ("7H", 2)]),
    # a set holding one card twice: the two 7H indices 2.5 index lengths apart, in a row
    ("a set with one card twice", [("7H 7S 7H 7D", 0, 0)],
     [("7D", 2), ("7H", 1), ("7H", 1), ("7S", 1)]),
]


@pytest.mark.parametrize(("rows", "expected"), [case[1:] for case in TWO_DECK_ROWS],
                         ids=[case[0] for case in TWO_DECK_ROWS])
def test_two_deck_meld_rows_keep_every_card(rows: list[tuple[str, float, float]],
                                            expected: list[tuple[str, int]]) -> None:
    readings: list[IndexReading] = []
    boxes: list[Detection] = []
    for codes, x, y in rows:
        more, box = meld_row(codes, x, y)
        readings += more
        boxes.append(box)
    assert read(readings, boxes) == expected


def test_a_card_box_takes_its_own_index_not_a_neighbour_its_edge_grazes() -> None:
    # a fan: the top card's box (x 60..123) just takes in the centre of the card under it's
    # index (x 55..65, which sticks out of the box), read surer than the top card's own
    card = Detection((60, 10, 123, 98), 1, 0.9)
    neighbour = IndexReading(Detection((55, 0, 65, 20), 0, 0.95), "10S", 0.99)
    own = IndexReading(Detection((72, 14, 82, 34), 0, 0.9), "KS", 0.95)
    cards = pair_indices([neighbour, own], [card])
    by_card = {c.card: c for c in cards}
    assert by_card["KS"].box == (60, 10, 123, 98)
    assert by_card["10S"].box == (55, 0, 65, 20)


# Hands laid apart (issue 53): each card's box takes in its neighbour's bottom-right corner,
# read surer than its own. The detector's boxes and confidences on a rendered hand
# (`synth fans --apart 0.05 --size 1024 --seed 83`, scene 000009): the 8S's box took the
# 6S's near corner, the 6S's box the JH's, the JH's box the 6S's far one, and 6S and JH
# were each read twice, one corner a card of its own.
LAID_APART = [
    det((531, 513, 574, 580), 0.88, "JH", 0.966),
    det((343, 558, 387, 625), 0.86, "6S", 0.981),
    det((336, 754, 378, 824), 0.85, "8S", 0.979),
    det((537, 710, 582, 779), 0.83, "6S", 0.975),
    det((149, 589, 192, 661), 0.82, "8S", 0.945),
    det((723, 661, 770, 733), 0.79, "JH", 0.965),
]
LAID_APART_BOXES = [Detection((143, 553, 382, 865), 1, 0.81),
                    Detection((337, 507, 580, 828), 1, 0.76),
                    Detection((521, 461, 784, 790), 1, 0.66),
                    Detection((730, 429, 960, 714), 1, 0.58)]


def test_cards_laid_apart_are_each_read_once_from_both_corners() -> None:
    assert read(LAID_APART, LAID_APART_BOXES) == [("6S", 2), ("8S", 2), ("JH", 2)]


def test_a_box_takes_its_own_two_corners_whichever_box_is_surer() -> None:
    # the same hand, its boxes' confidences the other way round
    boxes = [Detection(d.box, 1, 1 - d.conf) for d in LAID_APART_BOXES]
    assert read(LAID_APART, boxes) == [("6S", 2), ("8S", 2), ("JH", 2)]


def test_twins_laid_apart_stay_two_cards_each_from_its_corners() -> None:
    # two 7H laid side by side, each box taking in the other's near corner
    readings = [*corners("7H", 0, 0), *corners("7H", 45, 0)]
    assert read(readings, [whole(0, 0), whole(45, 0)]) == [("7H", 2), ("7H", 2)]


def test_a_box_with_no_pair_of_its_own_still_takes_its_best_corner() -> None:
    # the far corner is covered: the box takes its one index, a neighbour's stays its own
    readings = [idx("KS", 10, 14), idx("2C", 58, 20)]
    assert read(readings, [whole(0, 0)]) == [("2C", 1), ("KS", 1)]

