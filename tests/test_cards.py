import pytest

from scorekeeper.rules.cards import JOKER, Card, CardError, parse_card
from scorekeeper.rules.deck import DeckSpec
from tests.conftest import cards


@pytest.mark.parametrize(("code", "expected"), [
    ("10H", "10H"), ("th", "10H"), ("T♥", "10H"), ("as", "AS"), ("Q♠", "QS"), ("jk", "JK"),
    (" 7c ", "7C"), ("k♦", "KD"), ("2♣", "2C"), ("Joker", "JK"),
])
def test_codes_parse_to_canonical(code: str, expected: str) -> None:
    assert str(parse_card(code)) == expected


@pytest.mark.parametrize("code", ["1H", "11S", "ZZ", "H", "10", "", "7X", "JKK", 7, None])
def test_unknown_codes_are_refused_by_name(code: object) -> None:
    with pytest.raises(CardError, match=r"unknown card|strings"):
        parse_card(code)


def test_identical_cards_compare_equal() -> None:
    assert parse_card("7H") == Card(7, "H")
    assert parse_card("JK") == JOKER


@pytest.mark.parametrize(("spec", "hand", "ok"), [
    (DeckSpec(2, 0), "7H 7H", True),
    (DeckSpec(2, 0), "7H 7H 7H", False),
    (DeckSpec(1, 0), "7H 7H", False),
    (DeckSpec(1, 2), "JK JK", True),
    (DeckSpec(1, 2), "JK JK JK", False),
    (DeckSpec(2, 0), "JK", False),
    (DeckSpec(2, 4), "JK JK JK JK 7H 7H", True),
])
def test_deck_refuses_cards_that_cannot_exist(spec: DeckSpec, hand: str, ok: bool) -> None:
    if ok:
        spec.check(cards(hand))
    else:
        with pytest.raises(CardError, match=r"7H|JK"):
            spec.check(cards(hand))
