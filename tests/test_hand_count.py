"""The eval's figures with the hand's size known: the review's count warning ("n cards
missing", too many) shows a missed or extra card that every sure card hides, but not a
wrong card, nor a missed card beside a false one (the count comes out right)."""

from __future__ import annotations

import pytest
from scorekeeper_lab.evaluation.reliability import (
    ReadCard,
    SceneReads,
    count_warns,
    format_figures,
    measure,
)

from scorekeeper.vision.confidence import Calibration

HAND = 7


def _scene(missed: int, wrong: int, false: int, hand: int | None = HAND) -> SceneReads:
    """A hand read with every card shown sure, no offer and no unread mark."""
    right = HAND - missed - wrong
    cards = ([ReadCard("first", 0.99, True)] * right
             + [ReadCard("first", 0.99, False)] * (wrong + false))
    return SceneReads("s", cards, errors=missed + wrong + false, hand=hand)


# missed, wrong, false → the count warns; silent without the count; silent with it
CASES = [
    ("a missed card only", 1, 0, 0, True, True, False),
    ("a wrong card only", 0, 1, 0, False, True, True),
    ("a missed and a false card", 1, 0, 1, False, True, True),
    ("a false card only", 0, 0, 1, True, True, False),
    ("nothing wrong", 0, 0, 0, False, False, False),
]


@pytest.mark.parametrize(("missed", "wrong", "false", "warns", "silent", "silent_counted"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_count_shows_what_changes_it(missed: int, wrong: int, false: int, warns: bool,
                                         silent: bool, silent_counted: bool) -> None:
    scene = _scene(missed, wrong, false)
    assert count_warns(len(scene.cards), scene.hand) is warns
    f = measure([scene], Calibration())
    assert (f.silent, f.silent_counted, f.shown_by_count) == (
        silent, silent_counted, bool(scene.errors) and warns)
    clean = not scene.errors
    assert (f.quiet, f.quiet_counted, f.hands) == (clean, clean, 1)


def test_no_hand_no_count_lines() -> None:
    """A photo that need not be a hand: the count shows nothing, and no lines are added."""
    assert not count_warns(3, None)
    f = measure([_scene(1, 0, 0, hand=None)], Calibration())
    assert (f.silent, f.hands, f.silent_counted) == (1, 0, 0)
    assert "hand's size known" not in format_figures("photos", f)
    hands = format_figures("fans", measure([_scene(1, 0, 0)], Calibration()))
    assert "with a silent error (as above, and as many cards read as the hand holds): " \
        "0/1 (of 1 with an error; 1 shown by the count alone)" in hands
