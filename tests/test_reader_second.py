"""The second classifier (model.json `classifier.second`): it reads only what the first
turns down, and counts only where it is sure enough."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.test_reader_maybe import BOXES, FixedDetector

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no trained model")


class Answers:
    """A classifier stand-in that answers in turn and keeps what it was asked."""

    def __init__(self, answers: list[tuple[str, float]]) -> None:
        self.answers = answers
        self.asked = 0

    def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        out = self.answers[self.asked:self.asked + len(crops)]
        self.asked += len(crops)
        return out


def _reader(first: list[tuple[str, float]], second: list[tuple[str, float]] | None,
            second_min: float = 0.7):
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    reader.refocus = False
    reader.detector = FixedDetector(BOXES[:len(first)])  # type: ignore[assignment]
    reader.classifier = Answers(first)  # type: ignore[assignment]
    reader.second = None if second is None else Answers(second)  # type: ignore[assignment]
    reader.second_min_prob = second_min
    return reader


def test_the_second_reads_only_what_the_first_turns_down() -> None:
    reader = _reader([("7H", 0.9), ("none", 0.8), ("QS", 0.4), ("2C", 0.9)],
                     [("9D", 0.95), ("QC", 0.75)])
    result = reader.read(np.zeros((960, 1280, 3), np.uint8))
    assert sorted(c.card for c in result.cards) == ["2C", "7H", "9D", "QC"]
    assert reader.second.asked == 2  # type: ignore[union-attr]


def test_an_unsure_second_answer_reads_nothing_and_the_surer_name_is_offered() -> None:
    reader = _reader([("7H", 0.9), ("QS", 0.4), ("none", 0.6), ("8D", 0.5)],
                     [("QC", 0.69), ("5S", 0.31), ("8H", 0.35)])
    result = reader.read(np.zeros((960, 1280, 3), np.uint8))
    assert [c.card for c in result.cards] == ["7H"]
    # QC: the second is surer than the first's QS; 5S: the first names no card; 8D: the
    # first is surer than the second's 8H
    assert sorted(c.card for c in result.maybe) == ["5S", "8D", "QC"]


def test_without_a_second_the_first_doubt_is_offered() -> None:
    reader = _reader([("7H", 0.9), ("QS", 0.4), ("2C", 0.2)], None)
    result = reader.read(np.zeros((960, 1280, 3), np.uint8))
    assert [c.card for c in result.maybe] == ["QS"]  # 2C: under MAYBE_PROB


def test_without_a_second_the_first_reads_alone() -> None:
    reader = _reader([("7H", 0.9), ("QS", 0.4)], None)
    assert [c.card for c in reader.read(np.zeros((960, 1280, 3), np.uint8)).cards] == ["7H"]


def _models_naming(tmp_path: Path, onnx: str) -> Path:
    """A copy of the shipped model whose model.json names `onnx` as its second at 0.8."""
    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    meta = json.loads((models / "model.json").read_text())
    meta["classifier"]["second"] = {"onnx": onnx, "min_prob": 0.8}
    (models / "model.json").write_text(json.dumps(meta))
    return models


def test_model_json_names_the_second(tmp_path: Path) -> None:
    from scorekeeper.vision.reader import CardReader

    reader = CardReader(_models_naming(tmp_path, "cards-cls.onnx"))
    assert reader.second is not None and reader.second_min_prob == 0.8


def test_a_missing_second_leaves_the_first_reading(tmp_path: Path) -> None:
    from scorekeeper.vision.reader import CardReader

    reader = CardReader(_models_naming(tmp_path, "no-such.onnx"))
    assert reader.second is None
    assert any("second classifier" in w for w in reader.warnings)


def test_the_shipped_model_names_its_second() -> None:
    from scorekeeper.vision.reader import CardReader

    reader = CardReader()
    assert reader.second is not None and reader.second_min_prob == 0.8
    assert reader.warnings == []


def test_the_players_are_told_when_the_second_is_missing(tmp_path: Path) -> None:
    from scorekeeper.scanning import reader_for

    class Vision:
        def __init__(self, reader: object) -> None:
            self._reader = reader

        def reader(self) -> object:
            return self._reader

    class Reader:
        def __init__(self) -> None:
            self.warnings = ["the second classifier x.onnx cannot be loaded (gone); "
                             "the first reads alone"]

    stand_in = Reader()
    reader, warnings = reader_for(Vision(stand_in), tmp_path, None)
    assert reader is stand_in and warnings == stand_in.warnings


def _deck(tmp_path: Path, second: str | None):
    """A deck whose classifier is a copy of the shipped one, its manifest naming the
    second classifier its check read beside it by `second` (a digest), or none."""
    from scorekeeper.decks.profile import DeckProfile

    folder = tmp_path / "decks" / "home"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "models" / "cards-cls.onnx", folder / "cards-cls.onnx")
    entry: dict = {"onnx": "cards-cls.onnx"}
    if second is not None:
        entry["second"] = second
    return DeckProfile("home", folder, {"classifier": entry})


@pytest.mark.parametrize("checked", ["shipped", "another"])
def test_a_deck_checked_with_a_second_reads_beside_the_models_one(tmp_path: Path,
                                                                   checked: str) -> None:
    """The very second its check read; or, after a release replaced it, the newer one in
    its stead (0.23.0: a deck so read beat both its classifier alone and the generic)."""
    from scorekeeper.files import file_digest
    from scorekeeper.vision.reader import MODELS, CardReader

    digest = file_digest(MODELS / "cards-cls-fans.onnx") if checked == "shipped" else "0" * 64
    deck = _deck(tmp_path, digest)
    reader = CardReader(deck=deck)
    assert reader.deck == "home" and reader.second is not None and reader.warnings == []
    assert deck.second_state(MODELS) == ("checked" if checked == "shipped" else "newer")


def test_a_deck_checked_alone_reads_alone(tmp_path: Path) -> None:
    """A deck installed before the pair was checked: read as its check read, the deck's
    classifier alone."""
    from scorekeeper.vision.reader import MODELS, CardReader

    deck = _deck(tmp_path, None)
    reader = CardReader(deck=deck)
    assert reader.deck == "home" and reader.second is None and reader.warnings == []
    assert deck.second_state(MODELS) == "alone"


def test_a_deck_reads_no_second_where_the_models_name_none(tmp_path: Path) -> None:
    from scorekeeper_lab.training.second import name_second

    from scorekeeper.vision.reader import MODELS, CardReader

    models = tmp_path / "models"
    shutil.copytree(MODELS, models, ignore=shutil.ignore_patterns("*ncnn*", "*.pt"))
    name_second(models, None, {})
    deck = _deck(tmp_path, "0" * 64)
    assert deck.second_state(models) == "none"
    assert CardReader(models, deck=deck).second is None


def test_the_second_can_learn_from_what_the_first_doubts(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """`training.second.doubted`: every crop the first answers `none` or under the card
    threshold, and the asked share of the rest, drawn at random."""
    from scorekeeper_lab.training.second import doubted

    import scorekeeper.vision.reader as reader

    class ByShade:  # answers by the crop's shade: 0 → none, 1 → unsure, 2 → sure
        def __init__(self, *args: object) -> None:
            pass

        def classify(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
            return [[("none", 0.9), ("7H", 0.3), ("7H", 0.99)][int(c[0, 0, 0])] for c in crops]

    monkeypatch.setattr(reader, "IndexClassifier", ByShade)  # the reader's classifiers
    shades = np.array([0, 1, 2, 2, 0, 2, 2, 2, 1, 2, 2, 2])
    x = np.zeros((12, 48, 48, 3), np.uint8) + shades[:, None, None, None].astype(np.uint8)
    assert doubted(ROOT / "models", x, 0.0, batch=5).tolist() == [0, 1, 4, 8]
    kept = doubted(ROOT / "models", x, 0.5, batch=5)
    assert set(kept.tolist()) >= {0, 1, 4, 8} and len(kept) == 4 + 4
    assert doubted(ROOT / "models", x, 1.0).tolist() == list(range(12))


@pytest.mark.parametrize(("answer", "min_prob", "doubts", "counts"), [
    (("none", 0.99), 0.55, True, False),   # no card, however sure: asked; never counts
    (("7H", 0.54), 0.55, True, False),     # a card under the threshold: asked
    (("7H", 0.55), 0.55, False, True),     # at the threshold: the first's stands
    (("7H", 0.90), 0.55, False, True),
    (("7H", 0.79), 0.80, True, False),     # the second's own threshold
])
def test_the_one_rule_the_reader_and_the_check_ask(answer: tuple[str, float], min_prob: float,
                                                   doubts: bool, counts: bool) -> None:
    """`first_doubts` says which crops the second is asked about, `second_counts` which of
    its answers stand: the reader (`_second_look`), the deck check (`Second.beside`) and
    `training.second.doubted` all ask these two."""
    from scorekeeper.vision.classifier import first_doubts, second_counts

    assert first_doubts(answer, min_prob) is doubts
    assert second_counts(answer, min_prob) is counts


def test_the_check_takes_the_second_where_the_reader_does() -> None:
    """`Second.beside` on probability rows picks the rows `CardReader._second_look` would."""
    import numpy as np
    from scorekeeper_lab.training.adapt_check import Second

    from scorekeeper.vision.classes import CLASSIFIER_CLASSES

    n = len(CLASSIFIER_CLASSES)

    def row(code: str, p: float) -> np.ndarray:
        r = np.full(n, (1 - p) / (n - 1))
        r[CLASSIFIER_CLASSES.index(code)] = p
        return r

    first = np.stack([row("none", 0.9), row("7H", 0.4), row("8S", 0.9), row("none", 0.9)])
    second = np.stack([row("9D", 0.85), row("7H", 0.6), row("2C", 0.99)])

    class Fixed:  # the second's answers for the crops it is asked about, in order
        def probabilities(self, crops: list) -> np.ndarray:
            assert len(crops) == 3  # rows 0, 1 and 3: none, unsure, none
            return second

    out = Second(Fixed(), 0.8, "x").beside(first, np.zeros((4, 48, 48, 3)), 0.55)
    assert np.array_equal(out[0], second[0])  # a card at 0.85 ≥ 0.8: taken
    assert np.array_equal(out[1], first[1])  # 0.6 < 0.8: the first's stands
    assert np.array_equal(out[2], first[2])  # sure: never asked
    assert np.array_equal(out[3], second[2])
