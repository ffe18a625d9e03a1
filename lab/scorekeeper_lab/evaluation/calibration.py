"""`scorekeeper-lab calibrate`: fit each look's raw confidence → probability, and the sure
line, on validation sets; written into models/model.json's `calibration`.

Validation sets are of the training designs only (rendered scenes and fans with
`--decks train`, and where real print is wanted one half of the labelled real photos, the
other half then the judge): never the held-out design nor a judge set. Their scenes are
split by a fixed hash of their names into a fitting half and a calibration half held
apart:

- on the fitting half each look's cards (raw confidence, right or wrong) are fitted by
  isotonic regression (pool-adjacent-violators, centred): the monotone map closest to the
  right share, written as knots the runtime interpolates (`scorekeeper/vision/confidence.py`). A
  look with fewer than `MIN_PATH` cards is fitted pooled with the first look's.
- on the calibration half, mapped by that fit, the sure line is chosen by split conformal
  risk control: from the highest candidate down (fixed-sequence testing, so testing many
  lines costs no extra error; lines with too few cards above them to ever pass are left
  out of the sequence), a line is accepted while the Clopper–Pearson upper bound
  (one-sided 95 %) on the wrong rate among cards at or above it is ≤ 0.5 %; the lowest
  accepted line is the sure line. With 95 % confidence a sure card is then wrong ≤ 0.5 %
  of the time on scenes like the validation ones.
- then, on the same calibration half, each evidence group (`confidence.EVIDENCE`: two
  corners read that agree, or less) gets a line of its own by the same rule, the 5 % split
  evenly between the groups (Bonferroni) so that every group's bound holds at once, and with
  them the wrong rate among all sure cards (`fit_lines`). A group with too few cards for even
  no error to meet its bound gets no line of its own: it keeps the pooled one; a group that
  meets only a relaxed risk never goes below the pooled line (`group_lines`).
- `groups="path"`: the groups are the reading paths instead (offers never sure), and the
  rule is strict: each path with cards gets its share of the 5 % and a line at 0.5 % or
  none, never a relaxed one; a path that certifies none (too few cards, or errors at the
  top) is never sure. The union of the paths' sure cards then holds the 0.5 % with 95 %
  confidence; `sure`, the line the legend names, is the line of the path with most cards.

`keep_maps`: the model's maps are kept and only the lines are chosen, on the calibration
half as ever (the same validation sets, rendered into folders of the same names, split as
when the maps were fitted, so no scene that fitted a map chooses a line).

The raw figure alone could not carry a line at 0.5 % that shows most right cards sure, so
a sure score was tried (`sure_score.SureScore`, `fit_score`): on the fitting half, a
logistic regression (L2, Newton steps) of right on the card's signals
(`sure_score.FEATURES` and a flag per look with `MIN_PATH` cards), then an isotonic map of
its score to the right share on the same half; on the calibration half, the line on the
score by the same conformal rule. It did no better (models/README.md), so it is the lab's
record (`calibrate --score-out`), not the manifest's.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.vision.confidence import FALLBACK_PATH, NEVER_SURE, CalibrationSpec, PathMap
from scorekeeper_lab.evaluation.reliability import ReadCard, SceneReads
from scorekeeper_lab.evaluation.sure_score import FEATURES, SureScore, evidence_of, feature_rows

LINES_ON = "; lines: "  # in `fitted_on`, before the sets the lines alone were chosen on
MIN_PATH = 60  # cards (of the fitting half) a look needs for a map of its own
RISK = 0.005  # the wrong rate a sure card may have
# where no line bounds the wrong rate at RISK (too few validation cards, or too many sure
# wrong ones), the lowest of these that does; the rule written says which
RELAXED = (0.01, 0.02, 0.05)
DELTA = 0.05  # the chance the bound is wrong
MAX_KNOTS = 64  # a map's knots, thinned evenly beyond this
L2 = 1.0  # the logistic fit's ridge, on standardised features (bias free)


def sure_rule(risk: float, scenes: str = "the validation scenes") -> str:
    """The rule the line was chosen by, as the manifest records it; `scenes`: whose
    calibration half chose it."""
    return (f"lowest line, tested from the top down, whose one-sided {1 - DELTA:.0%} "
            f"Clopper–Pearson upper bound on the wrong rate among cards at or above it is "
            f"≤ {risk:.1%}, on the calibration half of {scenes}"
            + ("" if risk == RISK else f" (no line met {RISK:.1%})"))


def isotonic(x: Sequence[float], y: Sequence[float]) -> tuple[list[float], list[float]]:
    """Pool-adjacent-violators: the non-decreasing least-squares fit of `y` on `x`, as
    knots for linear interpolation at each block's mean raw figure (the centred fit: it
    rises between blocks instead of stepping, so cards of one block are not all tied and
    the sure line can fall between them), flat from the data's ends outwards."""
    xs, inverse = np.unique(np.asarray(x, float), return_inverse=True)
    total = np.bincount(inverse, weights=np.asarray(y, float), minlength=len(xs))
    count = np.bincount(inverse, minlength=len(xs)).astype(float)
    # blocks: [sum y, count, sum x·count]
    blocks: list[list[float]] = []
    for xi, si, ni in zip(xs, total, count, strict=True):
        blocks.append([float(si), float(ni), float(xi * ni)])
        while len(blocks) > 1 and (blocks[-2][0] / blocks[-2][1]
                                   >= blocks[-1][0] / blocks[-1][1]):
            s, n, sx = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
            blocks[-1][2] += sx
    kx = [float(xs[0])] + [sx / n for _, n, sx in blocks] + [float(xs[-1])]
    ky = [blocks[0][0] / blocks[0][1]] + [s / n for s, n, _ in blocks] + [
        blocks[-1][0] / blocks[-1][1]]
    out_x: list[float] = []
    out_y: list[float] = []
    for xv, yv in zip(kx, ky, strict=True):
        xr, yr = round(xv, 5), round(yv, 5)
        if out_x and xr <= out_x[-1]:
            out_y[-1] = max(out_y[-1], yr)
            continue
        out_x.append(xr)
        out_y.append(yr)
    return _thin(out_x, out_y)


def _thin(kx: list[float], ky: list[float]) -> tuple[list[float], list[float]]:
    if len(kx) <= MAX_KNOTS:
        return kx, ky
    keep = sorted({round(i) for i in np.linspace(0, len(kx) - 1, MAX_KNOTS)})
    return [kx[i] for i in keep], [ky[i] for i in keep]


def fit_paths(cards: Sequence[ReadCard]) -> dict[str, PathMap]:
    """A map per look; a look with too few cards is fitted with the first look's."""
    by: dict[str, list[ReadCard]] = {}
    for c in cards:
        by.setdefault(c.path, []).append(c)
    # offers are right in another sense (a tap would fix the photo): never pooled
    small = [p for p, cs in by.items()
             if len(cs) < MIN_PATH and p not in (FALLBACK_PATH, "offer")]
    pooled = by.get(FALLBACK_PATH, []) + [c for p in small for c in by[p]]
    out: dict[str, PathMap] = {}
    for path, group in [(FALLBACK_PATH, pooled)] + [(p, cs) for p, cs in by.items()
                                                    if p not in small and p != FALLBACK_PATH]:
        if group and (path != "offer" or len(group) >= MIN_PATH):
            x, y = isotonic([c.raw for c in group], [float(c.right) for c in group])
            out[path] = PathMap(x=x, y=y)
    return out


def _log_binom_cdf(k: int, n: int, p: float) -> float:
    """log P(X ≤ k) for X ~ Binomial(n, p)."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 0.0 if k >= n else -math.inf
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
             + i * math.log(p) + (n - i) * math.log1p(-p) for i in range(k + 1)]
    top = max(terms)
    return top + math.log(sum(math.exp(t - top) for t in terms))


def clopper_pearson_upper(k: int, n: int, delta: float = DELTA) -> float:
    """The one-sided (1 − delta) upper bound on a rate seen k times in n."""
    if n == 0:
        return 1.0
    if k >= n:
        return 1.0
    lo, hi = k / n, 1.0
    for _ in range(60):  # bisection: P(X ≤ k; p) falls as p rises
        mid = (lo + hi) / 2
        if _log_binom_cdf(k, n, mid) > math.log(delta):
            lo = mid
        else:
            hi = mid
    return hi


def sure_line(prob: Sequence[float], right: Sequence[bool], risk: float = RISK,
              delta: float = DELTA) -> float:
    """The lowest line, tested from the highest down and stopping at the first that fails,
    whose upper bound on the wrong rate among cards at or above it is ≤ `risk`. Lines with
    too few cards above them for even no error to meet the bound are not tested (which
    they are depends on the probabilities alone, not on which cards were right, so the
    order stays fixed before the labels are looked at);
    `NEVER_SURE` (no card sure) where even the highest fails."""
    p = np.asarray(prob, float)
    wrong = ~np.asarray(right, bool)
    order = np.argsort(-p, kind="stable")
    p, wrong = p[order], wrong[order]
    best = NEVER_SURE
    n = k = 0
    i = 0
    while i < len(p):
        j = i
        while j < len(p) and p[j] == p[i]:  # every card at this probability goes in
            j += 1
        n += j - i
        k += int(wrong[i:j].sum())
        i = j
        if clopper_pearson_upper(0, n, delta) > risk:
            continue  # too few cards yet for any bound this tight: not a line to test
        if clopper_pearson_upper(k, n, delta) > risk:
            break
        best = float(p[i - 1])
    return best


def logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, iters: int = 100
             ) -> tuple[np.ndarray, float]:
    """(weights, bias) of the L2-penalised logistic regression of `y` (0/1) on the columns
    of `x`, by Newton steps (iteratively reweighted least squares) on standardised columns,
    returned on the columns as given. A column that never varies gets no weight."""
    n, d = x.shape
    mu = x.mean(0) if n else np.zeros(d)
    sd = x.std(0) if n else np.ones(d)
    sd = np.where(sd > 0, sd, 1.0)
    a = np.hstack([np.ones((n, 1)), (x - mu) / sd])
    w = np.zeros(d + 1)
    ridge = l2 * np.eye(d + 1)
    ridge[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ w, -60, 60)))
        grad = a.T @ (p - y) + ridge @ w
        hess = (a * (p * (1 - p))[:, None]).T @ a + ridge + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    coef = w[1:] / sd
    return coef, float(w[0] - (coef * mu).sum())


def score_features(cards: Sequence[ReadCard]) -> list[str]:
    """The score's features: `FEATURES`, and a flag per look (but the first, which the
    others are measured against) with `MIN_PATH` cards to fit it."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c.path] = counts.get(c.path, 0) + 1
    looks = sorted(p for p, n in counts.items()
                   if n >= MIN_PATH and p not in (FALLBACK_PATH, "offer"))
    return [*FEATURES, *(f"path:{p}" for p in looks)]


def fit_score(fitting: Sequence[ReadCard], held: Sequence[ReadCard], risk: float = RISK
              ) -> tuple[SureScore, float]:
    """The sure score fitted on `fitting` (weights, then the isotonic map of its output),
    its line chosen on `held` at `risk` or the first of `RELAXED` that some line meets;
    (the score, the risk used)."""
    names = score_features(fitting)
    x = feature_rows([c.weighed() for c in fitting], names)
    y = np.array([c.right for c in fitting], float)
    coef, bias = logistic(x, y)
    draft = SureScore(features=names, weights=[round(float(v), 6) for v in coef],
                      bias=round(bias, 6), map=PathMap(x=[0.0], y=[0.0]))
    kx, ky = isotonic([draft(c.weighed()) for c in fitting], y.tolist())
    score = draft.model_copy(update={"map": PathMap(x=kx, y=ky)})
    values = [score(c.weighed()) for c in held]
    right = [c.right for c in held]
    line, used = relaxed_line(values, right, risk)
    rule = sure_rule(used).replace("lowest line", "lowest sure-score line")
    return score.model_copy(update={"line": line, "sure_rule": rule}), used


def relaxed_line(values: Sequence[float], right: Sequence[bool], risk: float,
                 delta: float = DELTA) -> tuple[float, float]:
    """The sure line at `risk`, else at the first of `RELAXED` above it that some line
    meets (`NEVER_SURE` where none does), and the risk it was chosen at."""
    line, used = NEVER_SURE, risk
    for used in (risk, *(r for r in RELAXED if r > risk)):
        line = sure_line(values, right, risk=used, delta=delta)
        if line < NEVER_SURE:
            break
    return line, used


def half_of(name: str) -> int:
    """0: the fitting half, 1: the calibration half, by a fixed hash of the scene name."""
    return hashlib.sha1(name.encode()).digest()[0] % 2


def fit_lines(prob: Sequence[float], right: Sequence[bool], groups: Sequence[str],
              risk: float = RISK, delta: float = DELTA, strict: bool = False
              ) -> dict[str, tuple[float, float]]:
    """Each group's own line and the risk it was met at (`risk`, else the first of
    `RELAXED` met, as for the pooled line; `NEVER_SURE` where none is), each bound at
    `delta` shared evenly among the groups seen (Bonferroni), so all hold together and with
    them the rate among every sure card. A group too small for even no error to meet its
    bound at `risk` gets none: it keeps the pooled line. `strict`: no relaxed risk, and a
    group that certifies no line at `risk` (too small, or wrong at the top) gets
    `NEVER_SURE`, so that nothing unbounded is let through."""
    names = sorted(set(groups))
    share = delta / max(1, len(names))
    out: dict[str, tuple[float, float]] = {}
    for g in names:
        pick = [k for k, x in enumerate(groups) if x == g]
        values, truth = [prob[k] for k in pick], [right[k] for k in pick]
        if strict:
            out[g] = (sure_line(values, truth, risk, share), risk)
        elif clopper_pearson_upper(0, len(pick), share) <= risk:  # else too few to certify
            out[g] = relaxed_line(values, truth, risk, share)
    return out


def lines_rule(lines: dict[str, tuple[float, float]], risk: float = RISK) -> str:
    """The group lines' rule, as the manifest records it beside the pooled one."""
    if not lines:
        return ""
    return (f"; by evidence, the same rule on each group's cards, the {DELTA:.0%} split "
            f"between the groups: " + ", ".join(
                f"{g} {v:.4f} (≤ {r:.1%})" for g, (v, r) in sorted(lines.items()))
            + "; a group not named keeps the pooled line, one that met only a relaxed "
            "risk is never below it")


def path_rule(lines: dict[str, tuple[float, float]], legend: str, scenes: str,
              risk: float = RISK) -> str:
    """The rule of lines by reading path (`fit(groups="path")`), as the manifest records it."""
    k = len(lines)
    return (f"by reading path: each path's lowest line, tested from the top down, whose "
            f"one-sided Clopper–Pearson upper bound at {DELTA:.0%}/{k} (Bonferroni over the "
            f"{k} paths with cards) on the wrong rate among its cards at or above it is "
            f"≤ {risk:.1%}, on the calibration half of {scenes}; a path that certifies none "
            f"(too few cards, or errors at the top) and a path not named are never sure, "
            f"offers never; so the union of the sure cards holds ≤ {risk:.1%} at "
            f"{1 - DELTA:.0%}: " + ", ".join(
                f"{g} {v:.4f}" if v < NEVER_SURE else f"{g} never"
                for g, (v, _) in sorted(lines.items()))
            + f"; `sure` (the legend's line) is {legend}'s, the path with most cards")


def fit(scenes: Sequence[SceneReads], fitted_on: str, risk: float = RISK,
        keep_maps: CalibrationSpec | None = None, groups: str = "evidence"
        ) -> CalibrationSpec:
    """The calibration of `scenes`: maps fitted on one half, the pooled line chosen on the
    other at `risk`, else at the first of `RELAXED` above it that some line meets, and a
    line per evidence group at `risk` where one is certified (`fit_lines`). `keep_maps`:
    those maps kept, only the lines chosen (on the calibration half all the same).
    `groups="path"`: a strict line per reading path instead, and no pooled one."""
    from scorekeeper.vision.confidence import Calibration

    held = [c for s in scenes if half_of(s.name) == 1 for c in s.cards]
    # kept maps: the rule names the scenes the lines were chosen on, not the maps' own
    chosen_on = "the validation scenes" if keep_maps is None else fitted_on
    if keep_maps is not None:
        maps_on = keep_maps.fitted_on.split(LINES_ON)[0]  # a kept fit's lines are replaced
        spec = CalibrationSpec(paths=keep_maps.paths,
                               fitted_on=f"{maps_on}{LINES_ON}{fitted_on}")
    else:
        fitting = [c for s in scenes if half_of(s.name) == 0 for c in (*s.cards, *s.offers)]
        spec = CalibrationSpec(paths=fit_paths(fitting), fitted_on=fitted_on)
    mapped = Calibration(spec)
    prob = [mapped.probability(c.path, c.raw) for c in held]
    right = [c.right for c in held]
    if groups == "path":
        by_path = [c.path for c in held]
        lines = fit_lines(prob, right, by_path, risk, strict=True)
        legend = max(sorted(lines), key=by_path.count) if lines else FALLBACK_PATH
        line = lines[legend][0] if lines else NEVER_SURE
        return spec.model_copy(update={
            "sure": line, "groups": "path", "lines": {g: v for g, (v, _) in lines.items()},
            "sure_rule": path_rule(lines, legend, chosen_on, risk)})
    line, used = relaxed_line(prob, right, risk)
    lines = fit_lines(prob, right, [evidence_of(c.weighed()) for c in held], risk)
    return spec.model_copy(update={"sure": line, "lines": group_lines(lines, line, risk),
                                   "sure_rule": sure_rule(used, chosen_on)
                                   + lines_rule(lines, risk)})


def group_lines(lines: dict[str, tuple[float, float]], pooled: float, risk: float = RISK
                ) -> dict[str, float]:
    """The lines the manifest keeps: a group's own where it met `risk`; where it met only a
    relaxed risk, never below the pooled line (a group that fails the target is not let
    through more easily than the pool)."""
    return {g: v if used <= risk else max(v, pooled) for g, (v, used) in lines.items()}


def fit_halves(scenes: Sequence[SceneReads], risk: float = RISK) -> SureScore:
    """The sure score of `scenes`, fitted on the fitting half, lined on the other."""
    return fit_score([c for s in scenes if half_of(s.name) == 0 for c in s.cards],
                     [c for s in scenes if half_of(s.name) == 1 for c in s.cards], risk)[0]


def write_calibration(models: Path, spec: CalibrationSpec) -> Path:
    """Write `spec` as models/model.json's `calibration`, everything else kept."""
    path = models / "model.json"
    manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    manifest["calibration"] = spec.model_dump(mode="json")
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return path
