"""Sureness by how much of a card's corner shows (`evaluation/by_band.py`,
`sure_compare --by-band`) and the spread hands it is asked of (`synth fans --spread`)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from scorekeeper_lab.evaluation.by_band import (
    NO_CARD,
    UNPLACED,
    band_rows,
    by_band,
    place,
    place_card,
    step_band,
)
from scorekeeper_lab.evaluation.fan_eval import eval_fans, fan_truth
from scorekeeper_lab.evaluation.reliability import ReadCard, SceneReads, dump_reads, load_reads
from scorekeeper_lab.evaluation.sure_score import Signals

from scorekeeper.vision.confidence import Calibration
from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.pairing import IndexReading, PhysicalCard

# four cards, one in each band, each index 10 px wide along the top
LABELS = [
    {"kind": "index", "card": "AS", "card_id": 0, "box": [0, 0, 10, 10], "visible": 0.97},
    {"kind": "readable", "card": "3D", "card_id": 1, "box": [20, 0, 30, 10], "visible": 0.7},
    {"kind": "partial", "card": "9C", "card_id": 2, "box": [40, 0, 50, 10], "visible": 0.5},
    {"kind": "covered", "card": "KH", "card_id": 3, "box": [60, 0, 70, 10], "visible": 0.2},
]


def _scene(root: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    (root / "images").mkdir(parents=True)
    (root / "cards").mkdir()
    cv2.imwrite(str(root / "images" / "000000.jpg"), np.zeros((100, 100, 3), np.uint8))
    (root / "cards" / "000000.json").write_text(json.dumps(LABELS))


class _Reader:
    """Reads the cards it is told, each from one index centred on `at`, at `raw`."""

    def __init__(self, reads: list[tuple[str, tuple[float, float], float]]) -> None:
        self.reads = reads

    def read(self, image: object) -> SimpleNamespace:
        cards = []
        for code, (x, y), raw in self.reads:
            det = Detection((x - 2, y - 2, x + 2, y + 2), 0, 0.9)
            cards.append(PhysicalCard(code, raw, det.box, (IndexReading(det, code, raw),)))
        return SimpleNamespace(cards=cards)


def _read(root: Path) -> list[SceneReads]:
    _scene(root)
    # the A♠ right and sure, the 3♦ read as 3♥ and sure, the K♥ right and unsure, a stray
    reader = _Reader([("AS", (5, 5), 0.95), ("3H", (25, 5), 0.9), ("KH", (65, 5), 0.6),
                      ("2C", (90, 90), 0.85)])
    reads: list[SceneReads] = []
    eval_fans(reader, root, reads=reads)
    return reads


def test_a_fan_read_records_the_band_each_card_sits_in(tmp_path: Path) -> None:
    reads = _read(tmp_path)
    got = {(c.signals.card if c.signals else "", c.band, c.right) for c in reads[0].cards}
    assert got == {("AS", "0–20 %", True), ("3H", "20–40 %", False), ("KH", "60 %+", True),
                   ("2C", NO_CARD, False)}
    dump_reads(tmp_path / "kept.json", reads)  # the band survives the cache
    assert {c.band for c in load_reads(tmp_path / "kept.json")[0].cards} == {
        "0–20 %", "20–40 %", "60 %+", NO_CARD}


def test_kept_reads_without_a_band_are_placed_from_their_box_as_recorded(
        tmp_path: Path) -> None:
    reads = _read(tmp_path)
    recorded = [c.band for c in reads[0].cards]
    for s in reads:
        s.cards = [ReadCard(c.path, c.raw, c.right, c.signals) for c in s.cards]
    labelled = place(reads, tmp_path)
    assert [c.band for c in reads[0].cards] == recorded
    assert labelled == {"0–20 %": 1, "20–40 %": 1, "40–60 %": 1, "60 %+": 1}


def test_a_card_is_placed_on_the_labelled_card_of_its_own_code_first() -> None:
    truth = fan_truth([
        {"kind": "index", "card": "AS", "card_id": 0, "box": [0, 0, 20, 20], "visible": 1.0},
        {"kind": "partial", "card": "5H", "card_id": 1, "box": [5, 5, 20, 20], "visible": 0.5},
    ])

    def card(code: str, box: tuple[float, float, float, float] | None) -> ReadCard:
        return ReadCard("first", 0.9, True, Signals("first", 0.9, card=code, box=box))

    assert place_card(card("5H", (8, 8, 12, 12)), truth) == "40–60 %"
    assert place_card(card("AS", (8, 8, 12, 12)), truth) == "0–20 %"
    assert place_card(card("7C", (8, 8, 12, 12)), truth) == "0–20 %"  # the first under it
    assert place_card(card("AS", (80, 80, 90, 90)), truth) == NO_CARD
    assert place_card(card("AS", None), truth) == UNPLACED


def test_each_band_counts_right_cards_shown_sure_and_wrong_among_sure(tmp_path: Path) -> None:
    reads = _read(tmp_path)
    labelled = place(reads, tmp_path)
    bands = by_band(reads, Calibration(), labelled)  # the old rule: raw ≥ 0.8 is sure
    got = {k: (b.labelled, b.read, b.wrong, b.right_sure, b.sure, b.sure_wrong)
           for k, b in bands.items()}
    assert got == {"0–20 %": (1, 1, 0, 1, 1, 0), "20–40 %": (1, 1, 1, 0, 1, 1),
                   "40–60 %": (1, 0, 0, 0, 0, 0), "60 %+": (1, 1, 0, 0, 0, 0),
                   NO_CARD: (0, 1, 1, 0, 1, 1)}
    rows = band_rows("s", "old", bands)
    assert rows[0] == "| s | old | 0–20 % | 1 | 1 (0) | 1/1 (100.0%) | 0/1 (0.00%) |"
    assert rows[1] == "| s | old | 20–40 % | 1 | 1 (1) | 0/0 (0.0%) | 1/1 (100.00%) |"


def test_finer_bands_and_the_corners_that_read_a_card(tmp_path: Path) -> None:
    assert [step_band(c, 0.05) for c in (0.0, 0.049, 0.05, 1 - 0.9, 0.97, 1.0)] == [
        "0–5 %", "0–5 %", "5–10 %", "10–15 %", "95–100 %", "95–100 %"]
    reads = _read(tmp_path)  # recorded in the fan benchmark's bands, placed again
    labelled = place(reads, tmp_path, step=0.05)
    assert labelled == {"0–5 %": 1, "30–35 %": 1, "50–55 %": 1, "80–85 %": 1}
    a_s = reads[0].cards[0]
    assert a_s.signals is not None and a_s.signals.card == "AS"
    reads[0].cards[0] = replace(a_s, signals=replace(a_s.signals, corners=2))
    bands = by_band(reads, Calibration(), labelled, evidence=True)
    assert list(bands) == ["0–5 %", "0–5 %, two corners", "30–35 %", "30–35 %, one corner",
                           "50–55 %", "80–85 %", "80–85 %, one corner", "on no card, one corner"]
    assert (bands["0–5 %"].labelled, bands["0–5 %"].read) == (1, 0)
    two = bands["0–5 %, two corners"]
    assert (two.read, two.right_sure, two.sure_wrong) == (1, 1, 0)


def test_a_spread_hand_shows_every_card_with_its_best_corner_nearly_whole() -> None:
    from scorekeeper_lab.training.synth.fans import spread_ok

    assert spread_ok(LABELS[:1], 1, 0.05)
    assert not spread_ok(LABELS[:1], 2, 0.05)  # a card with no corner in view
    assert not spread_ok(LABELS[:2], 2, 0.05)  # the 3♦'s best corner 30 % covered
    assert spread_ok(LABELS[:2], 2, 0.35)


def test_spread_scenes_are_rendered_as_their_rule_says(tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    from scorekeeper_lab.training.synth.fallback import fallback_deck
    from scorekeeper_lab.training.synth.fans import render_fans

    assert render_fans(tmp_path, 2, [fallback_deck()], seed=3, spread=0.05) == 2
    meta = json.loads((tmp_path / "dataset.json").read_text())
    assert meta["spread"] == 0.05 and meta["step_deg"] == [8.0, 16.0]
    for k in range(2):
        truth = fan_truth(json.loads((tmp_path / "cards" / f"00000{k}.json").read_text()))
        assert len(truth) >= 5 and all(t["visible"] >= 0.95 for t in truth.values())


def test_a_hand_laid_apart_shows_two_corners_of_every_card() -> None:
    from scorekeeper_lab.training.synth.fans import apart_ok

    second = {"kind": "index", "card": "AS", "card_id": 0, "box": [90, 90, 99, 99],
              "visible": 0.96}
    assert apart_ok([LABELS[0], second], 1, 0.05)
    assert not apart_ok(LABELS[:1], 1, 0.05)  # one corner only: a fan's under-card
    assert not apart_ok([LABELS[0], dict(second, visible=0.9)], 1, 0.05)


def test_apart_scenes_are_rendered_as_their_rule_says(tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    from scorekeeper_lab.training.synth.fallback import fallback_deck
    from scorekeeper_lab.training.synth.fans import apart_ok, render_fans

    assert render_fans(tmp_path, 1, [fallback_deck()], seed=3, size=(1024, 1024),
                       apart=0.05) == 1
    assert json.loads((tmp_path / "dataset.json").read_text())["apart"] == 0.05
    labels = json.loads((tmp_path / "cards" / "000000.json").read_text())
    cards = len(fan_truth(labels))
    assert cards >= 5 and apart_ok(labels, cards, 0.05)
