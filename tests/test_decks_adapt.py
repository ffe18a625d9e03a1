"""The CI smoke test: a tiny rendered deck enrolled and adapted in a minute or two of CPU
reads better than the generic model did, and a worse model is never installed."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "cards-cls.pt").exists(),
                                reason="no card model")


def _index_accuracy(deck, classifier) -> float:
    """Exact reads of the labelled indices of a few rendered tables of `deck` (never the
    enrolment photos): the classifier's share of the reading."""
    from scorekeeper.training.synth import tables
    from scorekeeper.vision.classifier import crop_index

    right = total = 0
    for i, name in enumerate(("melds-rummy", "fan", "chicago-knock")):
        image, truth = tables.render_table(tables.LAYOUTS[name]["spec"], deck, (960, 720),
                                           seed=50 + i)
        for card in truth["cards"]:
            if not card["indices"]:
                continue
            got = classifier.classify([crop_index(image, tuple(b)) for b in card["indices"]])
            right += sum(c == card["card"] and p >= 0.5 for c, p in got)
            total += len(got)
    return right / total


def test_enrol_adapt_and_read_better(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.decks.profile import open_deck
    from scorekeeper.training.adapt import render_enrolment
    from scorekeeper.training.synth.fallback import fallback_deck
    from scorekeeper.training.synth.tables import with_joker
    from scorekeeper.vision.reader import CardReader

    monkeypatch.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SCOREKEEPER_CARDS", str(tmp_path / "no-art"))  # the drawn deck only
    deck = with_joker(fallback_deck())
    photos = []
    for n in (1, 2):
        photos.append(tmp_path / f"photo{n}.jpg")
        cv2.imwrite(str(photos[-1]), render_enrolment(deck, n, seed=11))
    assert main(["deck", "enrol", "drawn", *map(str, photos)]) == 0
    assert "created deck 'drawn'" in capsys.readouterr().out
    assert main(["deck", "adapt", "drawn", "--minutes", "1"]) == 0
    out = capsys.readouterr()
    assert "installed" in out.out and "left" in out.err
    profile = open_deck(tmp_path / "data", "drawn")
    check = profile.manifest["classifier"]["check"]
    assert check["adapted"] > check["generic"] or check["adapted"] == 1.0
    before = _index_accuracy(deck, CardReader().classifier)
    after = _index_accuracy(deck, CardReader(deck=profile).classifier)
    assert after > before, (before, after)
    # the deck's own reader; no deck named is the generic model, untouched
    assert main(["deck", "list"]) == 0
    assert "drawn: " in capsys.readouterr().out
    assert CardReader().deck is None and CardReader(deck=profile).deck == "drawn"

    # a run whose model reads the held-back cards no better is not installed
    import scorekeeper.training.adapt as adapt

    installed = profile.classifier_path.read_bytes()  # type: ignore[union-attr]
    real_check = adapt._check

    def no_better(*args: object) -> dict:
        check = real_check(*args)  # type: ignore[arg-type]
        check["adapted_key"] = check["best_key"]
        return check

    monkeypatch.setattr(adapt, "_check", no_better)
    outcome = adapt.adapt_deck(profile, ROOT / "models", minutes=0.1)
    assert not outcome.installed and outcome.message.startswith("not installed")
    assert open_deck(tmp_path / "data", "drawn").classifier_path.read_bytes() == installed  # type: ignore[union-attr]


def test_the_check_scores_cards_and_no_index() -> None:
    from scorekeeper.training.adapt import score

    labels = np.array([0, 1, 53])  # AC, 2C, none
    assert score(np.eye(54)[labels], labels) == {"accuracy": 1.0, "true_prob": 1.0, "false": 0}
    assert score(np.eye(54)[[1, 0, 2]], labels)["false"] == 3
    unsure = np.full((3, 54), 1 / 54)  # no sure answer: only the `none` crop is right
    assert score(unsure, labels)["accuracy"] == pytest.approx(1 / 3)
