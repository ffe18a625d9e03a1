"""The lab's second opinions: the moved cuts, the opinions asked, and how a veto is weighed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scorekeeper_lab.analyses.sure_veto import agree_share, auroc, capped, risk_at
from scorekeeper_lab.evaluation.reliability import ReadCard
from scorekeeper_lab.evaluation.second_opinion import VARIANTS, crop_variant, opinions_of
from scorekeeper_lab.evaluation.sure_score import Signals

from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper.vision.classifier import crop_index

BOX = (100.0, 80.0, 140.0, 135.0)


def _ramp() -> np.ndarray:
    """An image brighter to the right: a crop moved right is brighter."""
    x = np.linspace(0, 255, 400, dtype=np.float32)
    return np.repeat(np.tile(x, (300, 1))[:, :, None], 3, axis=2).astype(np.uint8)


def test_the_cut_as_cut_is_the_readers_crop() -> None:
    image = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    assert np.array_equal(crop_variant(image, BOX, VARIANTS["as_cut"]), crop_index(image, BOX))


def test_the_moved_cuts_move() -> None:
    image = _ramp()
    mean = {v: float(crop_variant(image, BOX, VARIANTS[v]).mean()) for v in VARIANTS}
    assert mean["right"] > mean["as_cut"] > mean["left"]
    # a turn about the box's centre keeps the mean of a linear ramp (about)
    assert abs(mean["tilt_l"] - mean["as_cut"]) < 2.0
    # a wider cut spans more of the ramp: its columns differ more
    spread = {v: float(np.ptp(crop_variant(image, BOX, VARIANTS[v]).mean((0, 2))))
              for v in ("wide", "as_cut", "tight")}
    assert spread["wide"] > spread["as_cut"] > spread["tight"]


class _Bright:
    """A stand-in classifier: names AS on a bright crop, KH on a dark one."""

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        p = np.full((len(crops), len(CLASSIFIER_CLASSES)), 0.01)
        for k, c in enumerate(crops):
            p[k, CLASSIFIER_CLASSES.index("AS" if c.mean() > 127 else "KH")] = 0.9
        return p


def test_opinions_name_what_each_cut_shows() -> None:
    image = _ramp()
    # a box on the ramp's middle: moved right it is bright, left dark
    box = (180.0, 100.0, 220.0, 150.0)
    (got,) = opinions_of(_Bright(), None, image, [("AS", box)])
    assert set(got) == {f"first:{v}" for v in VARIANTS}
    assert got["first:right"][0] == "AS" and got["first:right"][2] == 0.9
    assert got["first:left"][0] == "KH" and got["first:left"][2] == 0.01
    with_second = opinions_of(_Bright(), _Bright(), image, [("AS", box)])[0]
    assert "second:as_cut" in with_second


def test_the_share_of_opinions_that_name_the_card() -> None:
    o = {"a": ["AS", 0.9, 0.9], "b": ["KH", 0.6, 0.3], "c": ["AS", 0.5, 0.5]}
    assert agree_share(o, ["a", "c"]) == 1.0
    assert agree_share(o, ["a", "b"]) == 0.5
    assert agree_share(o, ["z"]) == 1.0  # nothing asked: nothing to veto with
    card = ReadCard("first", 0.9, True, Signals("first", 0.9))
    # the cap only lowers
    assert capped(["a", "b"])(0.99, o, card) == 0.5
    assert capped(["a"])(0.7, o, card) == 0.7


def test_auroc_and_risk_at_coverage() -> None:
    score = np.array([0.9, 0.8, 0.7, 0.6])
    assert auroc(score, np.array([True, True, False, False])) == 1.0
    assert auroc(score, np.array([False, False, True, True])) == 0.0
    assert auroc(np.array([0.5, 0.5]), np.array([True, False])) == 0.5
    right = np.array([True, False, True, True])
    # two of three right cards need the line at 0.7: three sure, one wrong
    assert risk_at(score, right, 0.6) == (3, 1, 0.7)
    assert risk_at(score, right, 0.3) == (1, 0, 0.9)


def _card(path: str, p: float, right: bool, disputed: bool = False) -> ReadCard:
    return ReadCard(path, p, right, Signals(path, p, disputed=disputed))


def test_a_card_is_disputed_where_the_second_names_another() -> None:
    from scorekeeper_lab.analyses.sure_veto import disputed

    other = {"second:as_cut": ["KH", 0.7, 0.2]}
    same = {"second:as_cut": ["AS", 0.7, 0.7]}
    assert disputed(other, _card("first", 0.9, True))
    assert not disputed(same, _card("first", 0.9, True))
    # the second's own reading is never asked its own question; no opinion, no dispute
    assert not disputed(other, _card("second", 0.9, True))
    assert not disputed({}, _card("first", 0.9, True))
    # three cuts: any one naming otherwise disputes, the second's own cards too
    three = {"second:as_cut": ["AS", 0.7, 0.7], "second:wide": ["AS", 0.8, 0.8],
             "second:tight": ["KH", 0.5, 0.4]}
    assert disputed(three, _card("second", 0.9, True), "second3")
    assert not disputed(three, _card("first", 0.9, True), "second")


def test_the_veto_only_lowers_and_the_cap_is_the_disputed_right_share() -> None:
    from scorekeeper_lab.analyses.sure_veto import Vetoed, fit_cap
    from scorekeeper_lab.evaluation.calibration import half_of
    from scorekeeper_lab.evaluation.reliability import SceneReads

    from scorekeeper.vision.confidence import Calibration

    fitting = next(f"s{k}" for k in range(99) if half_of(f"s{k}") == 0)
    held = next(f"s{k}" for k in range(99) if half_of(f"s{k}") == 1)
    scenes = [SceneReads(fitting, [_card("first", 0.9, True, True),
                                   *[_card("first", 0.9, False, True)] * 3]),
              SceneReads(held, [_card("first", 0.9, True, True)] * 5)]
    assert fit_cap(scenes) == (0.25, 1, 4)  # the held half is not looked at
    rule = Vetoed(Calibration(), 0.25, 0.8)
    assert rule.shown(Signals("first", 0.9, disputed=True)) == (0.25, False)
    assert rule.shown(Signals("first", 0.9)) == (0.9, True)
    assert rule.shown(Signals("first", 0.1, disputed=True)) == (0.1, False)
    assert rule.shown(Signals("offer", 0.9))[1] is False


def test_the_veto_lets_a_lower_line_be_certified() -> None:
    from scorekeeper_lab.analyses.sure_veto import certify
    from scorekeeper_lab.evaluation.reliability import SceneReads

    from scorekeeper.vision.confidence import NEVER_SURE, Calibration

    # 1000 right cards at 0.90–0.99, and 20 wrong at the top that the second disputes
    right = [_card("first", 0.9 + 0.09 * k / 999, True) for k in range(1000)]
    wrong = [_card("first", 0.995, False, True) for _ in range(20)]
    scenes = [SceneReads("s", right + wrong)]
    assert certify(scenes, Calibration(), None)[0] == NEVER_SURE  # wrong at the top
    line, n, bad, sure, sure_bad = certify(scenes, Calibration(), 0.1)
    assert (n, bad, sure, sure_bad) == (1020, 20, 1000, 0) and line == 0.9


def test_a_cards_box_and_name_survive_the_cache(tmp_path: Path) -> None:
    from scorekeeper_lab.evaluation.reliability import SceneReads, dump_reads, load_reads

    s = Signals("first", 0.9, card="AS", box=(1.0, 2.0, 3.0, 4.0))
    scenes = [SceneReads("s", [ReadCard("first", 0.9, True, s)])]
    dump_reads(tmp_path / "r.json", scenes)
    assert load_reads(tmp_path / "r.json") == scenes
