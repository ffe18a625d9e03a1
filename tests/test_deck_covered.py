"""A deck's own crops covered as a fan covers them (`training.covered`, `deck adapt`)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from scorekeeper.decks.examples import STORE  # noqa: E402
from scorekeeper.training.adapt import CLASS_OF, _covered  # noqa: E402
from scorekeeper.training.covered import index_rect, slide_over  # noqa: E402

TALL = (100.0, 100.0, 120.0, 140.0)  # an upright index, twice as tall as wide
SQUARE = (100.0, 100.0, 130.0, 130.0)


def _crop(value: int, ink: int = 0) -> np.ndarray:
    """A grey stored crop with an index of `ink` where `TALL` puts it."""
    img = np.full((STORE, STORE, 3), value, np.uint8)
    x1, y1, x2, y2 = (round(v) for v in index_rect(TALL))
    img[y1:y2, x1:x2] = ink
    return img


def _hidden_columns(before: np.ndarray, after: np.ndarray, rect: tuple) -> tuple[int, int]:
    """(changed index columns, index width): columns of the index with any pixel changed."""
    x1, y1, x2, y2 = (round(v) for v in rect)
    changed = (before[y1:y2, x1:x2] != after[y1:y2, x1:x2]).any(axis=(0, 2))
    return int(changed.sum()), x2 - x1


def test_an_upright_index_is_covered_from_a_side_up_to_half() -> None:
    rect = index_rect(TALL)
    for seed in range(40):
        rng = np.random.default_rng(seed)
        before = _crop(120, ink=60)
        after = slide_over(before, TALL, _crop(200, ink=250), TALL, rng)
        assert after.shape == before.shape and after.dtype == np.uint8
        hidden, width = _hidden_columns(before, after, rect)
        # the edge's shadow line takes up to 3 px more than the share itself
        assert hidden <= 0.5 * width + 3
        x1, y1, x2, y2 = (round(v) for v in rect)
        cols = (before[y1:y2, x1:x2] != after[y1:y2, x1:x2]).any(axis=(0, 2))
        # from the left or from the right, never from above or below: a covered run of
        # columns touches one side of the index and the other side still shows
        at = np.flatnonzero(cols)
        if at.size:
            assert at.max() - at.min() + 1 == at.size  # one run of columns
            assert at.min() <= 2 or at.max() >= cols.size - 3  # at one side of the index
            assert at.min() > 2 or at.max() < cols.size - 3  # not at both


def test_a_square_index_is_covered_at_most_30_percent() -> None:
    rect = index_rect(SQUARE)
    x1, y1, x2, y2 = (round(v) for v in rect)
    for seed in range(40):
        before = np.full((STORE, STORE, 3), 120, np.uint8)
        after = slide_over(before, SQUARE, _crop(200), TALL, np.random.default_rng(seed))
        region = (before[y1:y2, x1:x2] != after[y1:y2, x1:x2]).any(axis=2)
        side = x2 - x1
        rows, cols = region.any(axis=1).sum(), region.any(axis=0).sum()
        assert min(rows, cols) <= 0.3 * side + 3


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
    # the neighbour is another card of the deck: the 9C's dark paper, never the `none` crop
    assert all((c[:, -1] != 200).all() for c in changed)
