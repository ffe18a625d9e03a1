"""Indices a deck has no crop of, composed from its own glyphs (`training.composed`)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.training.composed import (  # noqa: E402
    RED_SUITS,
    compose,
    composed_crops,
    split_deck,
)
from scorekeeper_lab.training.covered import index_rect  # noqa: E402

from scorekeeper.decks.examples import STORE  # noqa: E402

UPRIGHT = (0.0, 0.0, 20.0, 40.0)  # an index box twice as tall as wide
SQUARE = (0.0, 0.0, 40.0, 40.0)  # a turned index's box, which tells nothing of its lie
PAPER = (235, 240, 238)
INK = {"red": (40, 30, 205), "black": (25, 25, 25)}


def _pip(canvas: np.ndarray, suit: str, cx: int, cy: int, r: int, colour: tuple) -> None:
    """A suit symbol, each suit its own shape and none the same turned half round but ♦."""
    if suit == "D":
        pts = [(cx, cy - r), (cx + r * 3 // 4, cy), (cx, cy + r), (cx - r * 3 // 4, cy)]
    elif suit == "S":
        pts = [(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    elif suit == "H":
        pts = [(cx - r, cy - r), (cx + r, cy - r), (cx, cy + r)]
    else:  # clubs: a T
        t = r // 3
        pts = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy - t), (cx + t, cy - t),
               (cx + t, cy + r), (cx - t, cy + r), (cx - t, cy - t), (cx - r, cy - t)]
    cv2.fillPoly(canvas, [np.array(pts, np.int32)], colour)


def _index(card: str, deg: float = 0.0, paper_gain: float = 1.0) -> tuple[np.ndarray, tuple]:
    """A stored crop of `card`'s index, rank over pip, turned `deg` about its middle, and its
    box (drawn 4× and shrunk, so its edges are soft as a photo's)."""
    box = UPRIGHT if deg == 0 else SQUARE
    big = 4 * STORE
    canvas = np.full((big, big, 3), [round(c * paper_gain) for c in PAPER], np.uint8)
    x1, y1, x2, y2 = (4 * v for v in index_rect(UPRIGHT))
    colour = INK["red" if card[-1] in RED_SUITS else "black"]
    w, h = x2 - x1, y2 - y1
    cv2.putText(canvas, card[:-1], (round(x1), round(y1 + 0.5 * h)), cv2.FONT_HERSHEY_SIMPLEX,
                w / 30, colour, max(2, round(w / 9)), cv2.LINE_AA)
    _pip(canvas, card[-1], round(x1 + w / 2), round(y1 + 0.78 * h), round(w * 0.35), colour)
    m = cv2.getRotationMatrix2D((big / 2, big / 2), deg, 1.0)
    canvas = cv2.warpAffine(canvas, m, (big, big), borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(canvas, (STORE, STORE), interpolation=cv2.INTER_AREA), box


DECK = ["7S", "7C", "3D", "9D", "3H", "9H", "5S", "5C", "3S", "9C", "5H", "7H"]


def _deck(deg: float = 0.0):
    crops, boxes = zip(*(_index(c, deg) for c in DECK), strict=True)
    return list(crops), list(DECK), list(boxes)


@pytest.mark.parametrize("deg", [0.0, 30.0, -35.0, 180.0])
def test_the_pip_end_is_told_by_the_cards_of_its_suit(deg: float) -> None:
    crops, cards, boxes = _deck(deg)
    glyphs = split_deck(crops, cards, boxes)
    assert len(glyphs) >= len(DECK) - 2
    t = np.radians(deg)
    truly_up = np.array([-np.sin(t), -np.cos(t)])  # the rank's side, as turned on screen
    for g in glyphs.values():
        assert float(g.up @ truly_up) > 0.8, g.card
        # the pip lies below the rank along `up`
        ry, rx = np.nonzero(g.rank)
        rank_centre = np.array([rx.mean(), ry.mean()]) + 0.5
        assert float((rank_centre - g.pip_centre) @ g.up) > 3


def test_a_crop_with_one_blob_gives_no_glyphs() -> None:
    crops, cards, boxes = _deck()
    x1, y1, x2, y2 = (round(v) for v in index_rect(UPRIGHT))
    blot = np.full_like(crops[0], PAPER)
    blot[y1:y2, x1:x2] = 20
    glyphs = split_deck([blot, *crops[1:]], cards, boxes)
    assert 0 not in glyphs


def _ink_at(crop: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.median(crop[mask].reshape(-1, 3).astype(np.float32), axis=0)


def test_a_composed_index_takes_its_rank_from_one_card_and_its_pip_from_another() -> None:
    crops, cards, boxes = _deck()
    glyphs = split_deck(crops, cards, boxes)
    by_card = {g.card: g for g in glyphs.values()}
    seven, diamond = by_card["7S"], by_card["3D"]
    out = compose(seven, diamond, np.random.default_rng(0))
    truth, _ = _index("7D")
    # the seven's black rank is red now, as a seven of diamonds prints it
    red = np.array(INK["red"], np.float32)
    assert np.abs(_ink_at(out, seven.rank) - red).max() < 60
    # the spade's pip is gone and a diamond is where it was: the composed crop is nearer the
    # true 7♦ than the 7♠ it was made from, most of all where the pip lies
    near = cv2.dilate(seven.pip.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    diff_truth = np.abs(out.astype(float) - truth.astype(float))[near].mean()
    diff_source = np.abs(out.astype(float) - seven.crop.astype(float))[near].mean()
    assert diff_truth < 0.6 * diff_source
    assert np.abs(out.astype(float) - truth.astype(float)).mean() < 8


def test_the_pip_is_laid_at_the_rank_donors_scale_and_turn() -> None:
    seven = split_deck(*_deck(30.0))
    # the pip donors' indices drawn at 0.7 of the size their box gives, upright (a loose box)
    shrunk = []
    side = round(STORE * 0.7)
    at = (STORE - side) // 2
    for card in DECK:
        crop, _ = _index(card)
        pad = np.full_like(crop, PAPER)
        pad[at:at + side, at:at + side] = cv2.resize(crop, (side, side),
                                                     interpolation=cv2.INTER_AREA)
        shrunk.append(pad)
    donors = split_deck(shrunk, list(DECK), [UPRIGHT] * len(DECK))
    rank = next(g for g in seven.values() if g.card == "7S")
    pip = next(g for g in donors.values() if g.card == "3D")
    out = compose(rank, pip, np.random.default_rng(1))
    truth, _ = _index("7D", 30.0)
    near = cv2.dilate(rank.pip.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    assert np.abs(out.astype(float) - truth.astype(float))[near].mean() < \
        0.6 * np.abs(out.astype(float) - rank.crop.astype(float))[near].mean()


def test_composed_crops_use_only_the_glyphs_given_and_name_their_donors() -> None:
    crops, cards, boxes = _deck()
    glyphs = split_deck(crops, cards, boxes)
    # the 7♥ held back: its own crop is not among the donors
    donors = {k: g for k, g in glyphs.items() if g.card != "7H"}
    made = composed_crops(donors, ["7H", "KD"], 6, np.random.default_rng(0))
    assert {m.card for m in made} == {"7H"}  # no K in the deck: no KD
    assert len(made) == 6
    for m in made:
        assert m.rank_from[:-1] == "7" and m.rank_from != "7H"
        assert m.pip_from[-1] == "H" and m.pip_from != "7H"
        assert m.crop.shape == (STORE, STORE, 3)
    # the same colour's rank is preferred (7♦ is absent here, so both blacks serve)
    assert {m.rank_from for m in made} <= {"7S", "7C"}


class _Sure:
    """A stand-in generic classifier that answers one class surely for every crop."""

    def __init__(self, card: str | None) -> None:
        self.card = card

    def eval(self) -> _Sure:
        return self

    def __call__(self, x):  # a torch batch in, logits out
        import torch
        from scorekeeper_lab.training.adapt import CLASS_OF

        logits = torch.zeros((x.shape[0], len(CLASS_OF)))
        if self.card is not None:
            logits[:, CLASS_OF[self.card]] = 20.0
        return logits


def _pool():
    pytest.importorskip("torch")
    from scorekeeper_lab.training.adapt import CLASS_OF, Pool

    crops, cards, boxes = _deck()
    rows = [{"card": c} for c in cards]
    train = [i for i, c in enumerate(cards) if c != "7H"]
    labels = np.array([CLASS_OF[c] for c in cards], dtype=np.int64)
    return Pool(list(crops), labels, train, list(boxes)), rows, CLASS_OF


def test_the_pool_draws_each_composed_card_as_often_as_one_crop() -> None:
    pool, rows, class_of = _pool()
    real = len(pool.train_at)
    made, cards = pool.compose(rows, _Sure(None), np.random.default_rng(0))
    # the ranks 3 5 7 9 in the suits no trained crop shows them in: 3C 5D 7D 7H 9S
    assert cards == 5 and made > 0
    assert len(pool.train_at) == real + made == len(pool.stored) - 1
    assert pool.weights is not None and pool.weights.sum() == pytest.approx(1.0)
    composed = np.array([i >= len(rows) for i in pool.train_at])
    made_cards = {int(pool.labels[i]) for i in pool.train_at if i >= len(rows)}
    assert made_cards == {class_of[c] for c in ("3C", "5D", "7D", "7H", "9S")}
    for label in made_cards:
        these = composed & (pool.labels[pool.train_at] == label)
        assert pool.weights[these].sum() == pytest.approx(pool.weights[0])


def test_a_composed_crop_the_generic_model_reads_as_its_donor_is_dropped() -> None:
    pool, rows, _ = _pool()
    kept, _ = pool.compose(rows, _Sure("3H"), np.random.default_rng(0))
    # a composed card whose rank or pip came from the 3♥ is read "surely 3♥": dropped
    again, rows_again, _ = _pool()
    made, _ = again.compose(rows_again, _Sure(None), np.random.default_rng(0))
    assert 0 < kept < made
