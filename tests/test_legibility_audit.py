"""The lab's legibility_audit counting and offer_rules' rules: the figures the model card
quotes from them rest on these."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scorekeeper_lab.analyses import legibility_audit as audit
from scorekeeper_lab.analyses import offer_rules as offers


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (8, 80, 0.0515, 0.1851),    # the held-out misses a person read (worked by hand)
    (0, 15, 0.0, 0.2039),
    (15, 15, 0.7961, 1.0),
])
def test_wilson_interval(k: int, n: int, low: float, high: float) -> None:
    lo, hi = audit.wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


KEY = [
    {"cell": 1, "card": "7H", "reader_right": False, "lost": "not detected"},
    {"cell": 2, "card": "QS", "reader_right": False, "lost": "misread"},
    {"cell": 3, "card": "2C", "reader_right": False, "lost": "not detected"},
    {"cell": 4, "card": "AD", "reader_right": True, "lost": "read right"},
    {"cell": 5, "card": "9S", "reader_right": True, "lost": "read right"},
]


def test_tally_counts_right_wrong_and_unreadable_apart() -> None:
    verdicts = {1: "7H", 2: "QC", 3: "?", 4: "AD", 5: "?"}
    assert audit.tally(KEY, verdicts) == {
        "missed": {"right": 1, "wrong": 1, "cannot read": 1},
        "read right": {"right": 1, "cannot read": 1}}
    assert audit.tally(KEY, verdicts, by="lost") == {
        "not detected": {"right": 1, "cannot read": 1}, "misread": {"wrong": 1},
        "read right": {"right": 1, "cannot read": 1}}


def test_legible_share_scales_each_sample_to_its_population() -> None:
    # a person reads 10 % of 1000 misses and 80 % of 9000 hits: 100 legible misses, 7200
    # legible hits, so the reader reads 7200 / 7300 of the legible cards
    groups = {"missed": {"right": 8, "cannot read": 72},
              "read right": {"right": 32, "cannot read": 8}}
    point, low, high = audit.legible_share(groups, {"missed": 1000, "read right": 9000})
    assert point == pytest.approx(7200 / 7300)
    assert low < point < high


def test_score_refuses_a_cell_without_a_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                ) -> None:
    (tmp_path / "key.jsonl").write_text("".join(json.dumps(e) + "\n" for e in KEY))
    (tmp_path / "population.json").write_text(json.dumps({"missed": 30, "read right": 20}))
    (tmp_path / "verdicts.txt").write_text("# cell code\n1 7H\n2 QC\n3 ?\n4 ad\n")
    args = type("Args", (), {"out": tmp_path})()
    with pytest.raises(SystemExit, match=r"no verdict for cells \[5\]"):
        audit.score(args)
    (tmp_path / "verdicts.txt").write_text("1 7H\n2 QC\n3 ?\n4 ad\n5 9S\n")
    audit.score(args)
    out = capsys.readouterr().out
    assert "| missed | 3 | 1 (33%" in out and "| read right | 2 | 2 (100%" in out


@pytest.mark.parametrize(("rule", "first", "second", "offered"), [
    ("first", ("10S", 0.53), ("AS", 0.70), ("10S", 0.53)),
    ("surer", ("10S", 0.53), ("AS", 0.70), ("AS", 0.70)),
    ("surer", ("KS", 0.50), ("KS", 0.49), ("KS", 0.50)),
    ("surer", ("QS", 0.58), ("QC", 0.45), ("QS", 0.58)),
    ("second", ("QS", 0.58), ("QC", 0.45), ("QC", 0.45)),
    ("surer", ("none", 0.60), ("9S", 0.49), ("9S", 0.49)),
    ("surer", ("4S", 0.32), ("none", 0.70), ("4S", 0.32)),
    ("second", ("4S", 0.32), ("QS", 0.27), ("4S", 0.32)),   # the second under MAYBE_PROB
    ("surer", ("9C", 0.40), None, ("9C", 0.40)),
    ("surer", ("9C", 0.20), ("none", 0.9), None),
    ("first", ("none", 0.6), ("9S", 0.7), None),
])
def test_offer_rules(rule: str, first: tuple[str, float], second: tuple[str, float] | None,
                     offered: tuple[str, float] | None) -> None:
    assert offers.offer(rule, first, second) == offered
