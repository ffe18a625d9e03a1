"""Specified tables (synth.tables): geometry and truth, on the built-in deck (no art needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from scorekeeper_lab.training.synth import tables  # noqa: E402
from scorekeeper_lab.training.synth.deckset import Deck  # noqa: E402
from scorekeeper_lab.training.synth.fallback import fallback_deck  # noqa: E402

LAYOUTS = Path(__file__).resolve().parent / "fixtures" / "layouts"
SIZE = (640, 480)
SPEC = [
    {"kind": "meld", "cards": ["5H", "6H", "7H", "8H"], "at": [0.3, 0.3], "angle": 0},
    {"kind": "fan", "cards": ["2C", "9D", "QS", "JK"], "at": [0.5, 0.72], "angle": 0},
    {"kind": "single", "cards": ["5H"], "at": [0.78, 0.3], "angle": 10},
]


def test_truth_lists_every_card_by_group_with_what_of_it_shows() -> None:
    image, truth = tables.render_table(SPEC, fallback_deck(), SIZE, seed=3)
    assert image.shape == (480, 640, 3) and image.dtype == np.uint8
    assert truth["groups"] == [{"kind": g["kind"], "cards": g["cards"]} for g in SPEC]
    assert [(c["card"], c["group"]) for c in truth["cards"]] == [
        ("5H", 0), ("6H", 0), ("7H", 0), ("8H", 0),
        ("2C", 1), ("9D", 1), ("QS", 1), ("JK", 1), ("5H", 2)]
    shown = [len(c["indices"]) for c in truth["cards"]]
    # under-cards of a meld or fan show their top-left index only; top cards show both
    assert shown == [1, 1, 1, 2, 1, 1, 1, 2, 2]
    for c in truth["cards"]:
        x1, y1, x2, y2 = c["box"]
        for ix1, iy1, ix2, iy2 in c["indices"]:
            assert x1 - 1 <= ix1 < ix2 <= x2 + 1 and y1 - 1 <= iy1 < iy2 <= y2 + 1
    # the card short side is the asked share of the image's short side
    assert truth["card_width"] == pytest.approx(tables.CARD_FRAC * 480, abs=0.1)


def test_a_meld_is_a_row_at_the_asked_place_and_angle() -> None:
    spec = [{"kind": "meld", "cards": ["4D", "5D", "6D"], "at": [0.5, 0.5], "angle": 90}]
    _, truth = tables.render_table(spec, fallback_deck(), SIZE)
    centres = np.array([np.mean(c["outline"], axis=0) for c in truth["cards"]])
    assert np.allclose(centres.mean(0), (320, 240), atol=1)
    assert np.allclose(centres[:, 0], 320, atol=1)  # turned 90°: the row runs down the table
    step = tables.MELD_STEP * truth["card_width"]
    assert np.allclose(np.diff(centres[:, 1]), step, atol=1)


def test_rendering_is_deterministic_per_seed() -> None:
    a, _ = tables.render_table(SPEC, fallback_deck(), SIZE, seed=1)
    b, _ = tables.render_table(SPEC, fallback_deck(), SIZE, seed=1)
    c, _ = tables.render_table(SPEC, fallback_deck(), SIZE, seed=2)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_bad_specs_are_refused() -> None:
    deck = fallback_deck()
    with pytest.raises(ValueError, match="kind"):
        tables.render_table([{"kind": "pile", "cards": ["5H"], "at": [0.5, 0.5]}], deck)
    with pytest.raises(ValueError, match="one card"):
        tables.render_table([{"kind": "single", "cards": ["5H", "6H"], "at": [0.5, 0.5]}], deck)
    with pytest.raises(KeyError, match="no 1H"):
        tables.render_table([{"kind": "single", "cards": ["1H"], "at": [0.5, 0.5]}], deck)
    no_joker = Deck("plain", deck.back, [f for f in deck.faces if f.card != "JK"])
    with pytest.raises(KeyError, match="with_joker"):
        tables.render_table([{"kind": "single", "cards": ["JK"], "at": [0.5, 0.5]}], no_joker)


def test_with_joker_gives_a_jokerless_deck_a_joker_with_two_indices() -> None:
    deck = fallback_deck()
    no_joker = Deck("plain", deck.back, [f for f in deck.faces if f.card != "JK"])
    joker = tables.with_joker(no_joker).by_card["JK"][0]
    h, w = joker.image.shape[:2]
    assert joker.image.shape == deck.faces[0].image.shape
    tl, br = joker.index
    assert tl[0] < w / 4 and tl[1] < h / 4 and br[2] > 3 * w / 4 and br[3] > 3 * h / 4
    assert (tl[2] - tl[0], tl[3] - tl[1]) == (br[2] - br[0], br[3] - br[1])
    assert tables.with_joker(deck) is deck  # a deck with its own joker keeps it


@pytest.mark.parametrize("name", list(tables.LAYOUTS))
def test_committed_fixtures_match_the_named_layouts(name: str) -> None:
    """A changed layout needs its fixture regenerated (see tests/fixtures/layouts/README.md)."""
    truth = json.loads((LAYOUTS / f"{name}.json").read_text())
    assert truth["spec"] == json.loads(json.dumps(tables.LAYOUTS[name]["spec"]))
    assert truth["deck"] == "kennard_2color"
    assert (LAYOUTS / truth["image"]).stat().st_size < 400_000
