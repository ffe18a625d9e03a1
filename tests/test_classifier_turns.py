"""The index classifier reads a crop at the quarter turns it is asked for."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_the_classifier_reads_at_the_turns_asked_for(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import numpy as np
    from scorekeeper_lab.training.classifier_train import train

    from scorekeeper.vision.classifier import CROP, IndexClassifier

    rng = np.random.default_rng(1)
    x = rng.integers(0, 255, (16, CROP, CROP, 3), dtype=np.uint8)
    train(x, rng.integers(0, 54, 16), tmp_path / "cls.onnx", epochs=1, batch=16, width=8)
    four, one = IndexClassifier(tmp_path / "cls.onnx"), IndexClassifier(tmp_path / "cls.onnx",
                                                                       turns=False)
    crops = list(x[:4])
    assert np.allclose(four.probabilities(crops, (0,)), one.probabilities(crops))
    assert np.allclose(one.probabilities(crops, (0, 1, 2, 3)), four.probabilities(crops))


def test_a_sure_upright_answer_skips_the_other_turns(tmp_path: Path) -> None:
    """`sure`: crops whose upright look answers at least that are read once, the others at
    all four turns (the reader's default, `reader.SURE`)."""
    pytest.importorskip("torch")
    import numpy as np
    from scorekeeper_lab.training.classifier_train import train

    from scorekeeper.vision.classifier import CROP, IndexClassifier

    rng = np.random.default_rng(2)
    x = rng.integers(0, 255, (16, CROP, CROP, 3), dtype=np.uint8)
    train(x, rng.integers(0, 54, 16), tmp_path / "cls.onnx", epochs=1, batch=16, width=8)
    four = IndexClassifier(tmp_path / "cls.onnx")
    crops = list(x[:6])
    upright, every = four.probabilities(crops, (0,)), four.probabilities(crops)
    cut = float(np.median(upright.max(1)))
    mixed = IndexClassifier(tmp_path / "cls.onnx", sure=cut).probabilities(crops)
    sure = upright.max(1) >= cut
    assert sure.any() and not sure.all()
    assert np.allclose(mixed[sure], upright[sure]) and np.allclose(mixed[~sure], every[~sure])
    assert np.allclose(IndexClassifier(tmp_path / "cls.onnx", sure=2.0).probabilities(crops),
                       every)
