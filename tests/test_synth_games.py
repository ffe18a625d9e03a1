"""Game tables (synth.games) and the per-scene figures of `scorekeeper-lab eval` on them.

The tables are drawn with the built-in deck (no art needed) in small frames; the figures
are checked with stand-in readers (no model), and once through the command line.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.evaluation.evaluate import (  # noqa: E402
    MISS_CAUSES,
    eval_synthetic,
    format_report,
    read_labels,
)
from scorekeeper_lab.training.synth import games  # noqa: E402
from scorekeeper_lab.training.synth.fallback import fallback_deck  # noqa: E402

from scorekeeper.rules.cards import parse_cards  # noqa: E402
from scorekeeper.rules.melds import MeldRules, is_meld  # noqa: E402
from scorekeeper.vision.classes import INDEX  # noqa: E402
from scorekeeper.vision.detectors.base import Detection  # noqa: E402
from scorekeeper.vision.pairing import IndexReading, PhysicalCard  # noqa: E402
from scorekeeper.vision.reader import ReadResult  # noqa: E402

SETUP = games.SETUPS["a3"].at_width(400)  # the A3 view, 300 px tall: cards 55 px wide


@pytest.fixture(scope="module")
def tables() -> list[games.GameTable]:
    deck = fallback_deck()
    return [games.game_table(np.random.default_rng([5, i]), [deck], SETUP, mat=0.5)
            for i in range(4)]


def test_every_deal_is_valid_melds_and_hands_from_at_most_two_decks() -> None:
    for seed in range(40):
        groups = games.deal(np.random.default_rng(seed), (2, 4))
        players = {g["player"] for g in groups}
        assert 2 <= len(players) <= 4 and players == set(range(len(players)))
        for g in groups:
            if g["role"] == "meld":
                assert is_meld(parse_cards(g["cards"]), MeldRules()), g["cards"]
            else:
                assert 1 <= len(g["cards"]) <= 7 and g["kind"] in ("fan", "meld", "single")
                assert (g["kind"] == "single") == (len(g["cards"]) == 1)
        for p in players:  # each player has one hand, after its melds
            roles = [g["role"] for g in groups if g["player"] == p]
            assert roles[-1] == "hand" and roles.count("hand") == 1 and len(roles) <= 4
        counts = Counter(c for g in groups for c in g["cards"])
        assert max(counts.values()) <= 2  # one deck, or two


def test_the_set_up_fixes_the_scale() -> None:
    a3 = games.SETUPS["a3"]
    assert a3.frame == (1280, 960) and a3.px_per_mm == pytest.approx(1280 / 460)
    assert a3.describe()["index_px"] == pytest.approx(55.7, abs=0.1)  # a 20 mm index
    assert a3.at_width(640).card_px == pytest.approx(a3.card_px / 2)


def _group_masks(table: games.GameTable) -> dict[int, Any]:
    w, h = table.truth["size"]
    masks: dict[int, Any] = {}
    for c in table.truth["cards"]:
        m = masks.setdefault(c["group"], np.zeros((h, w), np.uint8))
        cv2.fillConvexPoly(m, np.round(np.array(c["outline"]) * 16).astype(np.int32), 1,
                           shift=4)
    return masks


def test_no_group_lies_on_another_and_every_card_shows_an_index(tables) -> None:
    for table in tables:
        masks = _group_masks(table)
        total = sum(m.astype(int) for m in masks.values())
        assert total.max() == 1  # no pixel under two groups, so no index under another's
        w, h = table.truth["size"]
        for c in table.truth["cards"]:
            assert c["indices"], c  # every card shows at least one whole index
            xs, ys = np.array(c["outline"]).T
            assert xs.min() >= 0 and ys.min() >= 0 and xs.max() <= w and ys.max() <= h


def test_labels_match_the_spec(tables) -> None:
    for table in tables:
        spec = table.truth["spec"]
        laid = [(gi, g["player"], code) for gi, g in enumerate(spec) for code in g["cards"]]
        assert [(c["group"], c["player"], c["card"]) for c in table.truth["cards"]] == laid
        by_card: dict[int, set[str]] = {}
        for lab in table.labels:
            gi, player, code = laid[lab["card_id"]]
            assert (lab["group"], lab["player"], lab["card"]) == (gi, player, code)
            by_card.setdefault(lab["card_id"], set()).add(lab["kind"])
        assert all("index" in kinds for kinds in by_card.values())
        assert len(by_card) == len(laid)
        for g in spec:
            assert -10 <= g["angle"] <= 10 and 0 < g["at"][0] < 1 and 0 < g["at"][1] < 1


def test_a_dataset_is_render_s_layout_and_reproducible(tmp_path: Path) -> None:
    from scorekeeper_lab.training.synth.__main__ import main

    args = ["games", "--count", "2", "--decks", "fallback", "--width", "320", "--seed", "3"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    assert main([*args[:-1], "4", "--out", str(tmp_path / "c")]) == 0
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.*"))
    assert len(files) == 9  # dataset.json and, per table, image, labels, cards, truth
    for f in files:
        same = (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
        assert same, f
    image = "images/000000.jpg"
    assert (tmp_path / "a" / image).read_bytes() != (tmp_path / "c" / image).read_bytes()
    meta = json.loads((tmp_path / "a" / "dataset.json").read_text())
    assert meta["kind"] == "games" and meta["size"] == [320, 240]
    assert meta["summary"]["tables"] == 2
    objects = read_labels(tmp_path / "a" / "cards" / "000000.json")
    lines = (tmp_path / "a" / "labels" / "000000.txt").read_text().split("\n")[:-1]
    assert len(lines) == sum(o["kind"] in ("index", "card") for o in objects)
    assert {line.split()[0] for line in lines} <= {"0", "1"}


# ---- the per-scene figures -----------------------------------------------------------------

def _card(code: str, box: tuple[float, float, float, float]) -> PhysicalCard:
    reading = IndexReading(Detection(box, INDEX, 0.9), code, 0.9)
    return PhysicalCard(code, 0.9, box, (reading,))


def _index(card: str, cid: int, player: int, box: list[float]) -> dict[str, Any]:
    return {"kind": "index", "card": card, "card_id": cid, "player": player, "box": box}


class FakeClassifier:
    """Answers in turn: eval asks about the missed cards' detections in card order."""

    def __init__(self, answers: list[tuple[str, float]]) -> None:
        self.answers = answers

    def classify(self, crops: list[Any]) -> list[tuple[str, float]]:
        return [self.answers.pop(0) for _ in crops]


class StandInReader:
    """Reads fixed cards, after 'detecting' fixed boxes, traced as the real reader traces
    them (`CardReader.add_callback`)."""

    min_prob = 0.5

    def __init__(self, scenes: list[tuple[list[Detection], list[PhysicalCard]]],
                 classifier: FakeClassifier | None = None) -> None:
        self.scenes, self.n, self.classifier = scenes, 0, classifier
        self.callbacks: dict[str, list[Any]] = {"on_detect": [], "on_hand_look": []}

    def add_callback(self, event: str, callback: Any) -> None:
        self.callbacks[event].append(callback)

    def remove_callback(self, event: str, callback: Any) -> None:
        self.callbacks[event].remove(callback)

    def read(self, image: Any) -> ReadResult:
        for callback in self.callbacks["on_detect"]:
            callback(self.scenes[self.n][0])
        self.n += 1
        return ReadResult(self.scenes[self.n - 1][1], 1.0)


def _write(root: Path, scenes: list[list[dict[str, Any]]]) -> None:
    (root / "images").mkdir(parents=True)
    (root / "cards").mkdir()
    for i, objects in enumerate(scenes):
        cv2.imwrite(str(root / "images" / f"{i:06d}.jpg"), np.zeros((200, 300, 3), np.uint8))
        (root / "cards" / f"{i:06d}.json").write_text(json.dumps(objects))


def test_scenes_and_hands_needing_no_correction(tmp_path: Path) -> None:
    _write(tmp_path, [
        # all read: no correction
        [_index("7H", 0, 0, [10, 10, 30, 40]), _index("8H", 1, 1, [100, 10, 120, 40])],
        # player 0's card read wrong, player 1's missed, a false card by player 2's
        [_index("7H", 0, 0, [10, 10, 30, 40]), _index("QS", 1, 1, [200, 100, 220, 130]),
         _index("2C", 2, 2, [10, 150, 30, 180])],
    ])
    missed = Detection((201, 101, 219, 129), INDEX, 0.8)
    reader = StandInReader([
        ([], [_card("7H", (10, 10, 30, 40)), _card("8H", (100, 10, 120, 40))]),
        ([missed], [_card("7C", (11, 11, 29, 39)), _card("2C", (10, 150, 30, 180)),
                    _card("AD", (40, 150, 60, 180))]),
    ], FakeClassifier([("none", 0.9)]))
    s = eval_synthetic(reader, tmp_path)  # type: ignore[arg-type]
    assert (s["labelled"], s["correct"], s["false"]) == (5, 3, 2)  # unchanged figures
    assert s["per_scene"] == {
        "scenes": 2, "no_correction": 1, "no_correction_share": 0.5,
        "corrections_per_scene": 1.5, "missed": 1, "false": 1, "wrong": 1,
        "missed_because": {MISS_CAUSES[1]: 1},
        "hands": 5, "hands_no_correction": 2, "hands_no_correction_share": 0.4}
    assert reader.callbacks == {"on_detect": [], "on_hand_look": []}  # the trace taken off
    report = format_report("games", s).split("\n")
    assert report[0].startswith("games: precision 0.600  recall 0.600")  # the old lines
    assert report[-3:] == [
        "  scenes needing no correction: 1/2 (50.0%); corrections a scene 1.50 (missed 0.50, "
        "false 0.50, wrong 0.50)",
        "  missed cards 1: turned down by the classifier 1",
        "  hands (a player's cards) needing no correction: 2/5 (40.0%)"]


def test_where_a_missed_card_was_lost(tmp_path: Path) -> None:
    codes = ["AS", "2S", "4S", "4S", "5S"]  # two decks: the 4S twice
    boxes = [[10.0, 10, 30, 40], [60, 10, 80, 40], [110, 10, 130, 40], [160, 10, 180, 40],
             [210, 10, 230, 40]]
    _write(tmp_path, [[_index(c, i, 0, b) for i, (c, b) in
                       enumerate(zip(codes, boxes, strict=True))]])
    dets = [Detection((61, 11, 80, 40), INDEX, 0.9),  # the 2S: turned down
            Detection((110, 10, 130, 40), INDEX, 0.9),  # the two 4S, paired as one card
            Detection((160, 10, 180, 40), INDEX, 0.9),
            Detection((211, 11, 230, 40), INDEX, 0.9),  # the 5S: read, then dropped
            Detection((60, 100, 80, 130), INDEX, 0.9)]  # on no card: not the AS's
    twins = PhysicalCard("4S", 0.9, (110, 10, 180, 40),
                         (IndexReading(dets[1], "4S", 0.9), IndexReading(dets[2], "4S", 0.9)))
    reader = StandInReader([(dets, [twins])], FakeClassifier(
        [("2S", 0.3), ("4S", 0.9), ("5S", 0.9)]))
    ps = eval_synthetic(reader, tmp_path)["per_scene"]  # type: ignore[arg-type]
    assert ps["missed_because"] == dict(zip(MISS_CAUSES, (1, 1, 1, 1), strict=True))
    assert (ps["missed"], ps["false"], ps["wrong"]) == (4, 0, 0)


def test_eval_prints_the_new_lines_on_game_tables(tmp_path: Path, capsys) -> None:
    from scorekeeper_lab.cli import main as cli
    from scorekeeper_lab.training.synth.__main__ import main as synth

    from scorekeeper.vision.reader import MODELS

    if not (MODELS / "model.json").exists():
        pytest.skip("no trained model")
    out = tmp_path / "games"
    assert synth(["games", "--out", str(out), "--count", "2", "--decks", "fallback",
                  "--width", "640"]) == 0
    capsys.readouterr()
    assert cli(["eval", "--synthetic", str(out), "--real", str(tmp_path / "none")]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[0].startswith("held-out deck: precision")
    assert any(x.startswith("  scenes needing no correction: ") and "/2 (" in x for x in lines)
    assert any(x.startswith("  hands (a player's cards) needing no correction: ")
               for x in lines)
