"""Corner pairing: by geometry, never by class alone."""

from __future__ import annotations

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
