"""The lab's calibration (`scorekeeper-lab calibrate`): isotonic maps per look, the
conformal sure line, and the figures `eval` prints."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorekeeper_lab.evaluation.calibration import (
    MIN_PATH,
    RISK,
    clopper_pearson_upper,
    fit,
    fit_lines,
    fit_paths,
    group_lines,
    half_of,
    isotonic,
    sure_line,
    write_calibration,
)
from scorekeeper_lab.evaluation.reliability import ReadCard, SceneReads, ece, measure
from scorekeeper_lab.evaluation.sure_score import Signals

from scorekeeper.vision.confidence import Calibration, CalibrationSpec


def _draw(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Raw scores whose true chance of being right is raw² (so raw is miscalibrated)."""
    rng = np.random.default_rng(seed)
    raw = rng.uniform(0.3, 1.0, n)
    return raw, rng.uniform(size=n) < raw ** 2


def test_isotonic_is_monotone_and_calibrated_where_the_truth_is_known() -> None:
    raw, right = _draw(20000)
    x, y = isotonic(raw.tolist(), right.astype(float).tolist())
    assert all(b >= a for a, b in itertools.pairwise(y))
    assert all(b > a for a, b in itertools.pairwise(x))
    test_raw, test_right = _draw(20000, seed=1)
    mapped = np.interp(test_raw, x, y)
    assert np.abs(mapped - test_raw ** 2).mean() < 0.03
    assert ece(mapped, test_right) < 0.02
    assert ece(test_raw, test_right) > 0.1  # the raw figure was not


def test_isotonic_pools_violators() -> None:
    _, y = isotonic([0.1, 0.2, 0.3, 0.4], [1.0, 0.0, 1.0, 1.0])
    assert y[0] == pytest.approx(0.5) and y[-1] == 1.0


def test_a_look_with_few_cards_pools_with_the_first() -> None:
    cards = [ReadCard("first", r, bool(k)) for r, k in zip(*_draw(1000), strict=True)]
    cards += [ReadCard("gap", 0.9, False)] * (MIN_PATH - 1)
    cards += [ReadCard("second", 0.9, True)] * MIN_PATH
    maps = fit_paths(cards)
    assert set(maps) == {"first", "second"}
    assert maps["second"](0.9) == 1.0


def test_clopper_pearson_matches_known_values() -> None:
    # no error in n: the bound solves (1 − p)^n = δ
    assert clopper_pearson_upper(0, 598) == pytest.approx(1 - 0.05 ** (1 / 598), rel=1e-6)
    assert clopper_pearson_upper(0, 598) < 0.005 < clopper_pearson_upper(0, 597)
    assert clopper_pearson_upper(5, 5) == 1.0 and clopper_pearson_upper(0, 0) == 1.0
    assert clopper_pearson_upper(3, 1000) == pytest.approx(0.00775, abs=2e-4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 1.0), st.booleans()), min_size=0, max_size=400),
       st.floats(0.0, 0.2))
def test_the_sure_line_never_goes_below_what_the_bound_allows(
        cards: list[tuple[float, bool]], risk: float) -> None:
    prob = [p for p, _ in cards]
    right = [r for _, r in cards]
    line = sure_line(prob, right, risk=risk)
    above = [r for p, r in cards if p >= line]
    if above:
        assert clopper_pearson_upper(sum(not r for r in above), len(above)) <= risk
    # every line between it and the top that could pass at all passes too (fixed-sequence
    # testing)
    for x in {p for p in prob if p >= line}:
        sel = [r for p, r in cards if p >= x]
        if clopper_pearson_upper(0, len(sel)) <= risk:
            assert clopper_pearson_upper(sum(not r for r in sel), len(sel)) <= risk


def test_the_sure_line_on_clean_high_cards() -> None:
    # a few top cards, one wrong, are too few to test: the line goes on below them
    assert sure_line([1.0] * 10 + [0.99] * 1000, [False] + [True] * 1009) == 0.99
    prob = [0.999] * 700 + [0.9] * 100
    right = [True] * 700 + [False] * 100
    assert sure_line(prob, right) == 0.999
    # too few to bound: nothing sure, not even a certain-looking card
    assert sure_line([1.0] * 100, [True] * 100) > 1.0


def test_fit_writes_the_section_and_keeps_the_rest(tmp_path: Path) -> None:
    raw, right = _draw(6000)
    scenes = [SceneReads(f"s{i}", [ReadCard("first", float(r), bool(k))])
              for i, (r, k) in enumerate(zip(raw, right, strict=True))]
    scenes += [SceneReads(f"t{i}", [ReadCard("first", 1.0, True)]) for i in range(3000)]
    spec = fit(scenes, "synthetic")
    assert spec.fitted_on == "synthetic" and "Clopper" in spec.sure_rule
    assert spec.sure < 1.0
    (tmp_path / "model.json").write_text(json.dumps({"runtime": "onnx", "other": [1]}))
    write_calibration(tmp_path, spec)
    meta = json.loads((tmp_path / "model.json").read_text())
    assert meta["other"] == [1]
    assert CalibrationSpec.model_validate(meta["calibration"]) == spec


def test_measure_counts_silent_errors_and_coverage() -> None:
    cal = Calibration()  # sure from 0.8
    scenes = [SceneReads("a", [ReadCard("first", 0.9, True), ReadCard("first", 0.95, False)],
                         errors=1),  # silent: all shown sure, nothing offered
              SceneReads("b", [ReadCard("first", 0.9, True), ReadCard("first", 0.5, False)],
                         errors=1),  # an unsure card points at it
              SceneReads("c", [ReadCard("first", 0.9, True)],
                         [ReadCard("offer", 0.4, True)], errors=1),  # an offer does
              SceneReads("d", [ReadCard("first", 0.7, True)])]
    f = measure(scenes, cal)
    assert (f.silent, f.with_error, f.scenes) == (1, 3, 4)
    assert (f.sure, f.sure_wrong, f.right, f.right_sure) == (4, 1, 4, 3)
    assert not math.isnan(f.ece)



def test_logistic_recovers_known_weights() -> None:
    from scorekeeper_lab.evaluation.calibration import logistic

    rng = np.random.default_rng(3)
    x = np.column_stack([rng.normal(size=40000), rng.uniform(0, 1, 40000) < 0.3,
                         rng.normal(2.0, 0.5, 40000)]).astype(float)
    true_w, true_b = np.array([1.5, -2.0, 0.7]), -0.4
    y = rng.uniform(size=len(x)) < 1 / (1 + np.exp(-(x @ true_w + true_b)))
    w, b = logistic(x, y.astype(float), l2=1e-6)
    assert w == pytest.approx(true_w, abs=0.08)
    assert b == pytest.approx(true_b, abs=0.2)


def _signalled(n: int, seed: int = 1) -> list[SceneReads]:
    """Cards whose chance of being right rises with raw and is far higher with two
    corners read: a signal the raw figure alone does not carry."""
    from scorekeeper_lab.evaluation.sure_score import Signals

    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        raw = float(rng.uniform(0.55, 1.0))
        two = bool(rng.uniform() < 0.5)
        p = 1 / (1 + np.exp(-(8 * (raw - 0.6) + (4.0 if two else 0.0))))
        sig = Signals("first", raw, 2 if two else 1, margin=float(rng.uniform()),
                      index_px=30.0)
        out.append(SceneReads(f"s{i}", [ReadCard("first", raw, bool(rng.uniform() < p), sig)]))
    return out


def test_the_sure_score_is_monotone_in_confidence_and_weighs_the_corners() -> None:
    from scorekeeper_lab.evaluation.calibration import fit_halves
    from scorekeeper_lab.evaluation.sure_score import Scored, Signals

    score = fit_halves(_signalled(12000))
    weights = dict(zip(score.features, score.weights, strict=True))
    assert weights["logit"] > 0 and weights["two_corners"] > 1.0
    assert abs(weights["margin"]) < 0.2  # noise gets next to no weight
    scored = Scored(Calibration(), score)
    shown = [scored.shown(Signals("first", r, 1, margin=0.5, index_px=30.0))[0]
             for r in np.linspace(0.55, 1.0, 40)]
    assert all(b >= a for a, b in itertools.pairwise(shown))
    assert scored.shown(Signals("first", 0.8, 2, margin=0.5, index_px=30.0))[0] > \
        scored.shown(Signals("first", 0.8, 1, margin=0.5, index_px=30.0))[0]
    assert score.line < 1.0 and "sure-score" in score.sure_rule
    assert scored.shown(Signals("offer", 0.99))[1] is False  # an offer is never sure


def test_a_score_naming_an_unknown_feature_is_refused() -> None:
    from pydantic import ValidationError
    from scorekeeper_lab.evaluation.sure_score import SureScore

    with pytest.raises(ValidationError):
        SureScore.model_validate({"features": ["nope"], "weights": [1.0],
                                  "map": {"x": [0.0], "y": [0.0]}})


def test_without_a_score_measure_weighs_by_the_calibration_alone() -> None:
    from scorekeeper_lab.evaluation.sure_score import Signals

    card = ReadCard("first", 0.85, True, Signals("first", 0.85, 2, margin=0.1))
    f = measure([SceneReads("a", [card])], Calibration())
    assert (f.sure, f.line) == (1, 0.8)  # raw 0.85 ≥ 0.8, whatever the other signals


def test_margins_are_asked_of_the_classifier_that_answered() -> None:
    from types import SimpleNamespace

    from scorekeeper_lab.evaluation.sure_score import margins_of, signals

    from scorekeeper.vision.classes import CLASSIFIER_CLASSES
    from scorekeeper.vision.detectors.base import Detection
    from scorekeeper.vision.pairing import IndexReading, PhysicalCard

    def rows(code: str, top: float, next_: float) -> np.ndarray:
        p = np.full(len(CLASSIFIER_CLASSES), 0.0)
        p[CLASSIFIER_CLASSES.index(code)] = top
        p[CLASSIFIER_CLASSES.index("none")] = next_
        return p

    class Probs:
        def __init__(self, code: str, top: float, next_: float) -> None:
            self.row = rows(code, top, next_)

        def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
            return np.stack([self.row] * len(crops))

    def card(code: str, path: str) -> PhysicalCard:
        det = Detection((10, 10, 30, 40), 0, 0.8)
        return PhysicalCard(code, 0.7, det.box, (IndexReading(det, code, 0.9, path),), path)

    reader = SimpleNamespace(classifier=Probs("7H", 0.9, 0.05), second=Probs("7H", 0.6, 0.3))
    first, second, named = card("7H", "first"), card("7H", "second"), card("7H", "named")
    got = margins_of(reader, np.zeros((64, 64, 3), np.uint8), [first, second, named])
    assert got == {id(first): pytest.approx(0.85), id(second): pytest.approx(0.3)}
    assert signals(named, margin=got.get(id(named))).margin is None  # the detector named it
    two = PhysicalCard("9C", 0.9, (0, 0, 50, 80), (
        IndexReading(Detection((0, 0, 10, 20), 0, 0.9), "9C", 0.9),
        IndexReading(Detection((40, 60, 50, 80), 0, 0.9), "9S", 0.8)))
    s = signals(two)
    assert (s.corners, s.corners_differ, s.index_px) == (2, True, 20.0)
    # a stand-in that only answers gives no margins
    assert margins_of(SimpleNamespace(classifier=SimpleNamespace(classify=None)),
                      np.zeros((64, 64, 3), np.uint8), [first]) == {}


def test_measure_counts_the_scenes_with_nothing_to_check() -> None:
    scenes = [SceneReads("a", [ReadCard("first", 0.9, True)]),  # all sure, no error
              SceneReads("b", [ReadCard("first", 0.9, True)], [ReadCard("offer", 0.4, False)]),
              SceneReads("c", [ReadCard("first", 0.5, True)]),
              SceneReads("d", [ReadCard("first", 0.9, False)], errors=1)]
    f = measure(scenes, Calibration())
    assert (f.quiet, f.silent, f.with_error) == (1, 1, 1)


def test_a_photo_with_nothing_read_is_no_silent_error() -> None:
    # the review says "No cards read" for it (review-chips.js, scan.noneRead)
    scenes = [SceneReads("missed", [], errors=1), SceneReads("empty", [])]
    f = measure(scenes, Calibration())
    assert (f.silent, f.quiet, f.with_error) == (0, 0, 1)


class _CountingShows:
    """A rule that shows a card sure from 0.8 on, and counts how often it is asked."""

    line = 0.8

    def __init__(self) -> None:
        self.asked = 0

    def shown(self, s: Signals) -> tuple[float, bool]:
        self.asked += 1
        return s.raw, s.raw >= self.line


def test_measure_asks_once_a_card_and_keeps_each_scene_its_own() -> None:
    scenes = [SceneReads("a", [ReadCard("first", 0.9, True), ReadCard("first", 0.85, True)]),
              SceneReads("b", [ReadCard("first", 0.9, True), ReadCard("first", 0.5, False)],
                         errors=1),
              SceneReads("missed", [], errors=1),
              SceneReads("c", [ReadCard("first", 0.95, False)], errors=1)]
    rule = _CountingShows()
    f = measure(scenes, rule)
    assert rule.asked == 5  # each card once
    assert (f.quiet, f.silent, f.with_error, f.sure) == (1, 1, 3, 4)


def test_reads_survive_the_cache(tmp_path: Path) -> None:
    from scorekeeper_lab.evaluation.reliability import dump_reads, load_reads

    scenes = _signalled(5)
    dump_reads(tmp_path / "r.json", scenes)
    assert load_reads(tmp_path / "r.json") == scenes


def _grouped(n_pair: int, n_single: int, wrong_single_top: int) -> tuple[
        list[float], list[bool], list[str]]:
    """Pair cards all right at 0.9–1.0; single cards at 0.9–1.0 whose surest few are wrong
    (what makes a pooled line tested from the top fail at once)."""
    pair = np.linspace(0.9, 1.0, n_pair)
    single = np.linspace(0.9, 1.0, n_single)
    prob = [*pair.tolist(), *single.tolist()]
    right = [True] * n_pair + [k < n_single - wrong_single_top for k in range(n_single)]
    return prob, right, ["pair"] * n_pair + ["single"] * n_single


@pytest.mark.parametrize(("n_pair", "n_single", "wrong", "want"), [
    # clean pairs: a line of their own at 0.5 %, below the pool's; the singles, wrong at
    # the top, none even at the last relaxed risk (nothing single is sure)
    (3000, 3000, 5, {"pair": RISK, "single": 0.05}),
    # too few pairs for even no error to meet the bound at δ/2: no line, the pooled one
    (700, 3000, 0, {"single": RISK}),
    # both clean and many: both certified
    (3000, 3000, 0, {"pair": RISK, "single": RISK}),
    # neither group big enough: none, both keep the pooled line
    (300, 300, 0, {}),
])
def test_fit_lines_certifies_each_group_or_leaves_it_to_the_pool(
        n_pair: int, n_single: int, wrong: int, want: dict[str, float]) -> None:
    prob, right, groups = _grouped(n_pair, n_single, wrong)
    lines = fit_lines(prob, right, groups)
    assert {g: used for g, (_, used) in lines.items()} == want
    for g, (line, used) in lines.items():
        above = [r for p, r, x in zip(prob, right, groups, strict=True) if x == g and p >= line]
        if line > 1.0:
            assert not above and g == "single" and wrong
            continue
        # each group's bound holds at its share of the 5 %
        assert clopper_pearson_upper(sum(not r for r in above), len(above), 0.025) <= used
    if wrong:
        pooled = sure_line(prob, right)
        assert pooled > 1.0 and lines["pair"][0] <= 0.9  # the pool fails at the top


def test_the_union_of_group_lines_keeps_the_pooled_risk() -> None:
    prob, right, groups = _grouped(3000, 3000, 0)
    right = [r if k % 1500 else False for k, r in enumerate(right)]  # errors spread evenly
    lines = fit_lines(prob, right, groups)
    sure = [r for p, r, g in zip(prob, right, groups, strict=True)
            if p >= lines.get(g, (math.inf, RISK))[0]]
    assert sure and sum(not r for r in sure) / len(sure) <= RISK


def test_fit_records_the_group_lines_and_keep_maps_keeps_the_maps() -> None:
    from scorekeeper_lab.evaluation.sure_score import Signals

    scenes = [SceneReads(f"p{i}", [ReadCard("first", 0.99, True, Signals("first", 0.99, 2))])
              for i in range(3000)]
    scenes += [SceneReads(f"s{i}", [ReadCard("first", 0.99, i % 50 != 0,
                                              Signals("first", 0.99, 1))]) for i in range(3000)]
    kept = CalibrationSpec(paths={"first": {"x": [0.0, 1.0], "y": [0.0, 1.0]}},  # type: ignore[dict-item]
                           fitted_on="old")
    spec = fit(scenes, "fresh", keep_maps=kept)
    assert spec.paths == kept.paths and spec.fitted_on == "old; lines: fresh"
    assert "on the calibration half of fresh" in spec.sure_rule  # the lines' own scenes
    # lines chosen again over a kept fit replace its lines' record, not add to it
    assert fit(scenes, "again", keep_maps=spec).fitted_on == "old; lines: again"
    # the singles, 2 % wrong, meet only 5 %; the pooled 1 % meets 2 %: each is recorded
    assert spec.lines == {"pair": 0.99, "single": 0.99} and spec.sure == 0.99
    assert "pair 0.9900 (≤ 0.5%)" in spec.sure_rule
    assert "single 0.9900 (≤ 5.0%)" in spec.sure_rule and "no line met 0.5%" in spec.sure_rule
    thin = fit(scenes[:3000] + scenes[3000:3600], "fresh", keep_maps=kept)
    assert thin.lines == {"pair": 0.99}  # ~300 singles held: too few to test, the pooled line
    # the lines are chosen on the calibration half only: wrong cards of the fitting half
    # (the scenes that fitted the kept maps) change nothing
    bad = [SceneReads(f"b{i}", [ReadCard("first", 0.99, False, Signals("first", 0.99, 2))])
           for i in range(2000) if half_of(f"b{i}") == 0]
    assert fit(scenes + bad, "fresh", keep_maps=kept).lines == spec.lines
    cal = Calibration(thin)
    assert cal.line_of("single") == thin.sure and cal.is_sure(0.99, "pair")


@pytest.mark.parametrize(("lines", "pooled", "want"), [
    ({"pair": (0.9, RISK)}, 0.99, {"pair": 0.9}),  # met the target: its own, lower line
    ({"single": (0.95, 0.01)}, 0.99, {"single": 0.99}),  # only relaxed: never below the pool
    ({"single": (0.995, 0.01)}, 0.99, {"single": 0.995}),  # …and its own where higher
    ({"single": (1.01, 0.05)}, 0.99, {"single": 1.01}),  # none met: nothing of it sure
])
def test_a_group_that_misses_the_target_never_goes_below_the_pool(
        lines: dict[str, tuple[float, float]], pooled: float, want: dict[str, float]) -> None:
    assert group_lines(lines, pooled) == want


def test_sure_errors_picks_the_scenes_with_a_confident_wrong_card(tmp_path: Path) -> None:
    from scorekeeper_lab.analyses.sure_errors import confident_scenes
    from scorekeeper_lab.evaluation.reliability import dump_reads

    dump_reads(tmp_path / "r.json", [
        SceneReads("a", [ReadCard("first", 0.95, False), ReadCard("first", 0.9, False)]),
        SceneReads("b", [ReadCard("first", 0.5, False), ReadCard("first", 0.99, True)]),
        SceneReads("c", [ReadCard("first", 0.8, False)])])
    assert confident_scenes(tmp_path / "r.json", 0.8) == {"a": 2, "c": 1}


def _paths(counts: dict[str, tuple[int, int]]) -> tuple[list[float], list[bool], list[str]]:
    """Per path (cards, wrong at the very top): cards at 0.9–1.0, the surest `wrong` wrong."""
    prob: list[float] = []
    right: list[bool] = []
    groups: list[str] = []
    for path, (n, wrong) in counts.items():
        prob += np.linspace(0.9, 1.0, n).tolist()
        right += [k < n - wrong for k in range(n)]
        groups += [path] * n
    return prob, right, groups


@pytest.mark.parametrize(("counts", "certified"), [
    # many clean cards: a line; too few for even no error to meet 0.5 % at δ/2: never sure
    ({"first": (3000, 0), "gap": (300, 0)}, {"first"}),
    # enough cards, but wrong at the top: never sure, whatever lies below
    ({"first": (3000, 0), "rescaled": (3000, 3)}, {"first"}),
    # the Bonferroni split: 780 clean cards meet the bound at 5 %/2 (736 needed)…
    ({"first": (3000, 0), "second": (780, 0)}, {"first", "second"}),
    # …but not at 5 %/3 (817 needed), once a third path has cards
    ({"first": (3000, 0), "second": (780, 0), "named": (3000, 0)}, {"first", "named"}),
])
def test_by_path_a_path_that_certifies_no_line_is_never_sure(
        counts: dict[str, tuple[int, int]], certified: set[str]) -> None:
    prob, right, groups = _paths(counts)
    lines = fit_lines(prob, right, groups, strict=True)
    assert set(lines) == set(counts)  # every path with cards is named: none left to a pool
    assert {g for g, (v, _) in lines.items() if v <= 1.0} == certified
    share = 0.05 / len(counts)
    for g, (line, used) in lines.items():
        assert used == RISK  # never a relaxed risk
        above = [r for p, r, x in zip(prob, right, groups, strict=True) if x == g and p >= line]
        if g in certified:
            assert clopper_pearson_upper(sum(not r for r in above), len(above), share) <= RISK
        else:
            assert not above


@pytest.mark.parametrize(("counts", "legend"), [
    ({"first": (4000, 0), "second": (3000, 0), "gap": (40, 0)}, "first"),
    ({"first": (4000, 0), "named": (6000, 0), "rescaled": (2000, 2)}, "named"),
])
def test_fit_by_path_holds_the_union_and_names_the_commonest_line(
        counts: dict[str, tuple[int, int]], legend: str) -> None:
    """Scenes of one card each, errors spread through each path's lower cards: on the
    calibration half the union of the paths' sure cards keeps wrong ≤ 0.5 %."""
    scenes = []
    for path, (n, wrong_top) in counts.items():
        for k, raw in enumerate(np.linspace(0.9, 1.0, n)):
            right = k < n - wrong_top and not (k < n // 2 and k % 50 == 7)  # 2 % low down
            scenes.append(SceneReads(f"{path}{k}", [ReadCard(path, float(raw), right)]))
    kept = CalibrationSpec(paths={"first": {"x": [0.0, 1.0], "y": [0.0, 1.0]}},  # type: ignore[dict-item]
                           fitted_on="maps")
    spec = fit(scenes, "val", keep_maps=kept, groups="path")
    assert spec.groups == "path" and set(spec.lines) == set(counts)
    assert spec.sure == spec.lines[legend] and f"is {legend}'s" in spec.sure_rule
    assert f"5%/{len(counts)}" in spec.sure_rule
    cal = Calibration(spec)
    held = [c for s in scenes if half_of(s.name) == 1 for c in s.cards]
    sure = [c.right for c in held
            if cal.is_sure(cal.probability(c.path, c.raw), cal.group_of(c.path, "single"))]
    assert sure and sum(not r for r in sure) / len(sure) <= RISK
    # a path too small or wrong at its top shows nothing sure, on either half
    for path, (n, wrong_top) in counts.items():
        if n < 736 or wrong_top:
            assert spec.lines[path] > 1.0
            assert not any(cal.is_sure(cal.probability(path, c.raw), path)
                           for c in held if c.path == path)
