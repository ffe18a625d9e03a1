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
