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


@pytest.mark.parametrize("bf16", [False, True])  # True: bfloat16 where the CPU has it
def test_tiny_model_builds_exports_and_reads(tmp_path: Path, bf16: bool) -> None:
    from scorekeeper_lab.training.mixed_precision import cpu_has_bf16
    from scorekeeper_lab.training.train import Plan, build_model

    from scorekeeper.vision.reader import CardReader, load_image

    work, models = tmp_path / "work", tmp_path / "models"
    plan = Plan(train_images=6, val_images=2, test_images=2, size=256, imgsz=160, epochs=1,
                batch=4, fraction=1.0, cls_epochs=1, extra_epochs=(1,), cls_extra_epochs=(1,),
                cls_width=8, fallback=True, bf16=bf16)
    meta = build_model(work, models, plan, ncnn=False)
    native = bf16 and cpu_has_bf16()
    assert meta["training"]["classifier"]["bf16"] is native
    for stage in ("detector", "detector-2"):
        args = (work / "runs" / stage / "args.yaml").read_text()
        assert ("amp: bf16" in args) is native
    assert {"cards-det.pt", "cards-det.onnx", "cards-cls.onnx", "model.json"} <= {
        p.name for p in models.iterdir()}
    assert json.loads((models / "model.json").read_text()) == meta
    reader = CardReader(models)
    image = load_image(next((work / "test" / "images").glob("*.jpg")))
    result = reader.read(image)
    assert result.ms > 0
    for card in result.cards:
        assert 0 <= card.confidence <= 1
    if not bf16:
        _second_builds_and_is_named(work, models)


def _second_builds_and_is_named(work: Path, models: Path) -> None:
    """The second classifier's stage on the same tiny scenes: trained from the first, then
    on the crops the first doubts (with one more folder), its threshold chosen on the
    validation scenes, named in model.json or left out."""
    from scorekeeper_lab.training.second import (
        FILE,
        THRESHOLDS,
        SecondPlan,
        choose_threshold,
        name_second,
        train_second,
    )

    from scorekeeper.vision.reader import CardReader

    plan = SecondPlan(epochs=1, doubted_epochs=1, keep_sure=0.5)
    stats = train_second(models, [work / "train"], [work / "val"], work / "val", plan)
    assert (models / FILE).is_file() and stats["samples"] > 0
    min_prob, precision = choose_threshold(models, work / "val", 2)
    assert "None" in precision and (min_prob is None or min_prob in THRESHOLDS)
    name_second(models, 0.8, {"epochs": 1})
    reader = CardReader(models)
    assert reader.second is not None and reader.second_min_prob == 0.8
    name_second(models, None, {})
    assert CardReader(models).second is None


def test_classifier_crops_do_not_depend_on_worker_count(tmp_path: Path) -> None:
    import random

    import numpy as np
    from scorekeeper_lab.training.crops import crops_from_dataset
    from scorekeeper_lab.training.synth.dataset import render_dataset
    from scorekeeper_lab.training.synth.fallback import fallback_deck

    # the default style: scenes with print, whose hard negatives are cut too
    render_dataset(tmp_path, 3, 256, 0, "train", 1, "detector", decks=[fallback_deck()])
    one = crops_from_dataset(tmp_path, random.Random(1), workers=1, shard=1)
    two = crops_from_dataset(tmp_path, random.Random(1), workers=2, shard=1)
    assert len(one[0]) > 0
    assert np.array_equal(one[0], two[0]) and np.array_equal(one[1], two[1])
