"""`make model` end to end on a tiny set: render, train both models, export, read a frame.

Proves the pipeline runs offline (no weight, font or asset downloads) in CI; the numbers it
trains to are meaningless at this size.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("ultralytics")
pytest.importorskip("torch")


def test_tiny_model_builds_exports_and_reads(tmp_path: Path) -> None:
    from scorekeeper.vision.reader import CardReader, load_image
    from scorekeeper.vision.train import build_model

    work, models = tmp_path / "work", tmp_path / "models"
    meta = build_model(work, models, train_images=6, val_images=2, test_images=2, size=256,
                       imgsz=160, epochs=1, batch=4, fraction=1.0, cls_epochs=1, seed=0,
                       extra_epochs=(1,), cls_extra_epochs=1, fallback=True, ncnn=False)
    assert {"cards-det.pt", "cards-det.onnx", "cards-cls.onnx", "model.json"} <= {
        p.name for p in models.iterdir()}
    assert json.loads((models / "model.json").read_text()) == meta
    reader = CardReader(models)
    image = load_image(next((work / "test" / "images").glob("*.jpg")))
    result = reader.read(image)
    assert result.ms > 0
    for card in result.cards:
        assert 0 <= card.confidence <= 1
