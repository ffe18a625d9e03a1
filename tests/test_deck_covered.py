"""A deck's own crops covered as a fan covers them (`training.covered`, `deck adapt`)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.training.adapt import CLASS_OF, _covered  # noqa: E402
from scorekeeper_lab.training.covered import index_rect, slide_over  # noqa: E402

from scorekeeper.decks.examples import STORE  # noqa: E402

TALL = (100.0, 100.0, 120.0, 140.0)  # an upright index, twice as tall as wide
SQUARE = (100.0, 100.0, 130.0, 130.0)


def _crop(value: int, ink: int = 0) -> np.ndarray:
    """A grey stored crop with an index of `ink` where `TALL` puts it."""
    img = np.full((STORE, STORE, 3), value, np.uint8)
    x1, y1, x2, y2 = (round(v) for v in index_rect(TALL))
    img[y1:y2, x1:x2] = ink
    return img


def _turned(value: int, deg: float, ink: int = 0) -> np.ndarray:
    """A grey stored crop with an index (a 1 × 2 bar of `ink`) turned `deg` about the middle
    of where `SQUARE` puts it: a fanned card's index, whose box tells nothing of its lie."""
    img = np.full((STORE, STORE, 3), value, np.uint8)
    x1, y1, x2, y2 = index_rect(SQUARE)
    centre = ((x1 + x2) / 2, (y1 + y2) / 2)
    long = (y2 - y1) * 0.9
    pts = cv2.boxPoints((centre, (long / 2, long), deg))
    cv2.fillConvexPoly(img, np.round(pts).astype(np.int32), (ink, ink, ink))
    return img


def test_an_upright_index_is_covered_from_a_side_up_to_half() -> None:
    x1, y1, x2, y2 = (round(v) for v in index_rect(TALL))
    middle = (y1 + y2) // 2
    for seed in range(40):
        rng = np.random.default_rng(seed)
        before = _crop(120, ink=60)
        after = slide_over(before, TALL, [(_crop(200, ink=250), TALL)], rng)
        assert after.shape == before.shape and after.dtype == np.uint8
        # across the index's middle row: one run of columns from one side, at most half of
        # it (the edge's shadow line takes up to 3 px more); the edge turns about that row
        cols = (before[middle, x1:x2] != after[middle, x1:x2]).any(axis=1)
        at = np.flatnonzero(cols)
        assert at.size <= 0.5 * cols.size + 3
        if at.size:
            assert at.max() - at.min() + 1 == at.size  # one run of columns
            assert at.min() <= 2 or at.max() >= cols.size - 3  # at one side of the index
            assert at.min() > 2 or at.max() < cols.size - 3  # not at both
        # never from above or below: the top and bottom rows keep their far side
        for row in (y1 + 1, y2 - 2):
            assert (before[row, x1:x2] == after[row, x1:x2]).all(axis=1).any()


@pytest.mark.parametrize("deg", [35.0, 45.0, -50.0])
def test_a_turned_index_is_covered_across_its_own_long_axis(deg: float) -> None:
    before = _turned(120, deg)
    ink = (before[..., 0] == 0)
    ys, xs = np.nonzero(ink)
    t = np.radians(deg)
    # across the bar (its short axis, as `cv2.boxPoints` turns it)
    across = (xs - xs.mean()) * np.cos(t) + (ys - ys.mean()) * np.sin(t)
    along = -(xs - xs.mean()) * np.sin(t) + (ys - ys.mean()) * np.cos(t)
    width, length = np.ptp(across), np.ptp(along)
    shares = []
    for seed in range(40):
        after = slide_over(before, SQUARE, [(_turned(200, deg, ink=250), SQUARE)],
                           np.random.default_rng(seed))
        hidden = (after[ys, xs] != before[ys, xs]).any(axis=1)
        shares.append(hidden.mean())
        if hidden.sum() < 10:
            continue
        # the hidden ink lies at one end across the bar; once a quarter is gone, it runs
        # the bar's length (less, a corner of it, where a turned edge just clips it)
        assert abs(across[hidden].mean()) >= 0.2 * width
        if hidden.mean() >= 0.25:
            assert np.ptp(along[hidden]) >= 0.8 * length
    assert max(shares) <= 0.75  # up to half at the middle, more at one end of a turned edge
    assert sum(s > 0.35 for s in shares) >= 4  # more than an unknown lie's 30 %


def test_an_index_of_unknown_lie_is_covered_at_most_30_percent() -> None:
    x1, y1, x2, y2 = (round(v) for v in index_rect(SQUARE))
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    for seed in range(40):
        before = np.full((STORE, STORE, 3), 120, np.uint8)  # no ink to tell its lie
        after = slide_over(before, SQUARE, [(_crop(200), TALL)], np.random.default_rng(seed))
        changed = (before != after).any(axis=2)
        # from one side, through the middle row or column (the edge turns about it)
        row, col = changed[cy, x1:x2].sum(), changed[y1:y2, cx].sum()
        assert min(row, col) <= 0.3 * (x2 - x1) + 3


def test_the_next_cards_own_index_shows_past_its_edge() -> None:
    """The laid card is drawn from its own crop: its paper, and its index's print."""
    print_seen = paper_seen = 0
    for seed in range(20):
        after = slide_over(_crop(120, ink=60), TALL, [(_crop(200, ink=250), TALL)],
                           np.random.default_rng(seed))
        print_seen += int((after > 240).any())
        paper_seen += int(((after > 180) & (after <= 210)).any())
    assert print_seen >= 10 and paper_seen >= 18


def test_covering_draws_on_the_decks_own_cards_only_for_indices() -> None:
    stored = [_crop(120), _crop(200), _crop(60)]
    labels = np.array([CLASS_OF["3D"], CLASS_OF["none"], CLASS_OF["9C"]])
    boxes = [TALL, TALL, TALL]
    rng = np.random.default_rng(0)
    covered = [_covered(stored, labels, [0, 1, 2], boxes, 0, rng) for _ in range(50)]
    changed = [c for c in covered if not np.array_equal(c, stored[0])]
    assert 5 < len(changed) < 45  # about `COVERED` of the time
    # print that is no index is never covered, and without boxes nothing is
    assert all(_covered(stored, labels, [0, 1, 2], boxes, 1, rng) is stored[1]
               for _ in range(20))
    assert all(_covered(stored, labels, [0, 1, 2], None, 0, rng) is stored[0]
               for _ in range(20))
    # the neighbours are other cards of the deck: the 9C's dark paper (and crop 0's own
    # grey, ink and shadow), never the `none` crop's bright one
    assert all(c.max() <= 125 for c in changed)
