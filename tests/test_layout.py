"""Read cards → melds and leftovers per variant, from card positions alone."""

from __future__ import annotations

from scorekeeper.rules.settings import (
    ChicagoSettings,
    Rummy500Settings,
    RummySettings,
)
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.layout import cluster, read_layout
from scorekeeper.vision.pairing import IndexReading, PhysicalCard


def card(code: str, x: float, y: float) -> PhysicalCard:
    """A 60 × 84 px card with its top-left corner at (x, y)."""
    box = (x, y, x + 60, y + 84)
    return PhysicalCard(code, 0.9, box, (IndexReading(Detection(box, 0, 0.9), code, 0.9),))


def row(codes: str, x: float, y: float, step: float = 22) -> list[PhysicalCard]:
    """A meld laid as an overlapping row."""
    return [card(c, x + i * step, y) for i, c in enumerate(codes.split())]


def test_rows_cluster_apart() -> None:
    cards = row("7H 8H 9H", 0, 0) + row("KS KD KC", 400, 0) + [card("4C", 0, 300)]
    groups = cluster(cards)
    assert sorted(len(g) for g in groups) == [1, 3, 3]


def test_rummy_reads_melds_and_the_loose_cards() -> None:
    cards = row("7H 8H 9H", 0, 0) + row("KS KD KC", 400, 0) + [card("4C", 0, 300)]
    layout = read_layout(cards, RummySettings())
    assert sorted(map(sorted, layout.melds)) == [["7H", "8H", "9H"], ["KC", "KD", "KS"]]
    assert layout.hand == ["4C"]


def test_two_melds_side_by_side_are_split_and_a_stray_card_is_leftover() -> None:
    cards = row("7H 8H 9H 5S 5D 5C QD", 0, 0)
    layout = read_layout(cards, RummySettings())
    assert sorted(map(sorted, layout.melds)) == [["5C", "5D", "5S"], ["7H", "8H", "9H"]]
    assert layout.hand == ["QD"]


def test_hand_zone_cards_are_leftover_even_when_they_meld() -> None:
    cards = row("7H 8H 9H", 0, 0) + row("KS KD KC", 400, 0)
    zones = ["melds"] * 3 + ["hand"] * 3
    layout = read_layout(cards, Rummy500Settings(), zones)
    assert layout.melds == [["7H", "8H", "9H"]]
    assert sorted(layout.hand) == ["KC", "KD", "KS"]


def test_chicago_reads_the_whole_hand_and_solves_it() -> None:
    hand = ["7H", "7S", "2C", "4H", "5D", "9C", "KC"]
    cards = [card(c, i * 70, 0) for i, c in enumerate(hand)]
    layout = read_layout(cards, ChicagoSettings())
    assert len(layout.hand) == 7
    assert layout.melds == [["7H", "7S", "2C"]]


def test_a_card_the_decks_cannot_hold_is_flagged() -> None:
    cards = [card("7H", 0, 0), card("7H", 300, 0)]
    assert read_layout(cards, RummySettings()).impossible == ["7H"]
    assert read_layout(cards, ChicagoSettings()).impossible == []


def index_only(code: str, x: float, y: float, w: float = 17, h: float = 41) -> PhysicalCard:
    """An under-card of a meld: only its corner index shows."""
    box = (x, y, x + w, y + h)
    return PhysicalCard(code, 0.9, box, (IndexReading(Detection(box, 0, 0.9), code, 0.9),))


def test_a_jokers_small_index_does_not_cut_it_off_its_meld() -> None:
    # measured on a rendered table: 9C and 10C under-cards, the joker's star index is
    # smaller than a rank index, QC lies on top (its whole card seen, 145 × 201 px)
    qc_index = IndexReading(Detection((368, 180, 385, 221), 0, 0.9), "QC", 0.9)
    cards = [index_only("9C", 268, 178), index_only("10C", 302, 180),
             index_only("JK", 339, 181, w=24, h=22),
             PhysicalCard("QC", 0.9, (364, 168, 509, 370), (qc_index,))]
    assert [[c.card for c in g] for g in cluster(cards)] == [["9C", "10C", "JK", "QC"]]
    layout = read_layout(cards, Rummy500Settings())
    assert layout.melds == [["9C", "10C", "JK", "QC"]]


def test_melds_a_card_width_apart_stay_apart() -> None:
    qh = IndexReading(Detection((10, 10, 27, 51), 0, 0.9), "QH", 0.9)
    left = [index_only("7H", 0, 0), index_only("8H", 38, 0),
            PhysicalCard("9H", 0.9, (76, 0, 221, 201), (qh,))]
    right = [index_only("KS", 370, 0), index_only("KD", 408, 0), index_only("KC", 446, 0)]
    assert sorted(len(g) for g in cluster(left + right)) == [3, 3]
