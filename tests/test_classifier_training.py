"""Classifier training: a wider network warm-started from a narrower one, small-index crops."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_a_widened_classifier_answers_as_the_narrow_one_did() -> None:
    torch = pytest.importorskip("torch")
    from scorekeeper_lab.training.classifier_train import build_model, widen

    torch.manual_seed(0)
    narrow = build_model(8)
    for m in narrow.modules():  # running statistics that are not the defaults
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    wide = build_model(12)
    wide.load_state_dict(widen(narrow.state_dict(), wide.state_dict()))
    x = torch.rand(6, 3, 48, 48)
    narrow.eval()
    wide.eval()
    with torch.no_grad():
        assert torch.allclose(narrow(x), wide(x), atol=1e-5)
    # the new channels are not dead: their own weights are random, not zero
    first = wide[0].weight
    assert first.shape[0] == 20 and first[16:].abs().sum() > 0


def test_equal_widths_pass_through_and_a_narrower_target_is_refused() -> None:
    pytest.importorskip("torch")
    from scorekeeper_lab.training.classifier_train import build_model, widen

    a, b = build_model(8).state_dict(), build_model(8).state_dict()
    assert all(widen(a, b)[k] is a[k] for k in a)
    with pytest.raises(ValueError, match="narrower"):
        widen(build_model(12).state_dict(), build_model(8).state_dict())


def test_training_starts_from_a_narrower_networks_weights(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    import numpy as np
    from scorekeeper_lab.training.classifier_train import build_model, train

    from scorekeeper.vision.classifier import CROP

    narrow = tmp_path / "narrow.pt"
    torch.save(build_model(8).state_dict(), narrow)
    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (16, CROP, CROP, 3), dtype=np.uint8)
    stats = train(x, rng.integers(0, 54, 16), tmp_path / "cls.onnx", epochs=1, batch=8,
                  width=12, init=narrow)
    assert stats["width"] == 12
    assert torch.load(tmp_path / "cls.pt")["0.weight"].shape[0] == 20


def test_low_res_crops_lose_detail_and_keep_their_shape() -> None:
    torch = pytest.importorskip("torch")
    from scorekeeper_lab.training.classifier_train import _low_res

    gen = torch.Generator().manual_seed(0)
    x = torch.rand(8, 3, 48, 48)
    assert _low_res(x, gen, 0.0) is x
    small = _low_res(x, gen, 1.0)
    assert small.shape == x.shape and float(small.min()) >= 0 and float(small.max()) <= 1

    def detail(t):  # neighbouring pixels' difference: what shrinking removes
        return float((t[..., 1:] - t[..., :-1]).abs().mean())

    assert detail(small) < detail(x) / 2
    half = _low_res(x, torch.Generator().manual_seed(1), 0.5)
    same = [bool(torch.equal(half[i], x[i])) for i in range(8)]
    assert any(same) and not all(same)


def test_hard_looks_change_only_the_chosen_crops_and_stay_in_range() -> None:
    torch = pytest.importorskip("torch")
    from scorekeeper_lab.training.classifier_train import _augment, _hard_looks

    x = torch.rand(64, 3, 48, 48)
    assert _hard_looks(x, torch.Generator().manual_seed(0), 0.0) is x
    every = _hard_looks(x, torch.Generator().manual_seed(0), 1.0)
    assert every.shape == x.shape and float(every.min()) >= 0 and float(every.max()) <= 1
    assert not any(bool(torch.equal(every[i], x[i])) for i in range(64))
    half = _hard_looks(x, torch.Generator().manual_seed(1), 0.5)
    same = [bool(torch.equal(half[i], x[i])) for i in range(64)]
    assert any(same) and not all(same)
    # the same generator seed gives the same looks: a run can be repeated
    again = _hard_looks(x, torch.Generator().manual_seed(1), 0.5)
    assert torch.equal(half, again)
    out = _augment(x, torch.Generator().manual_seed(2), hard=0.3)
    assert out.shape == x.shape and float(out.min()) >= 0 and float(out.max()) <= 1


def test_a_warm_start_keeps_the_classifier_width_its_record_names(tmp_path: Path) -> None:
    import json

    from scorekeeper_lab.training.classifier_train import recorded_width
    from scorekeeper_lab.training.train import PLANS, make_plan

    assert recorded_width(tmp_path) == 16  # no record: the width every model had before
    (tmp_path / "cards-cls.json").write_text(json.dumps({"width": 32, "history": []}))
    assert recorded_width(tmp_path) == 32
    assert make_plan("cpu-bf16-warm", {}, tmp_path).cls_width == 32
    assert make_plan("cpu-bf16-warm", {"cls_width": 48}, tmp_path).cls_width == 48
    assert make_plan("cpu-bf16-warm", {}).cls_width == PLANS["cpu-bf16-warm"].cls_width
    # a plan wider than the weights grows them (`widen`), never shrinks its own width
    (tmp_path / "cards-cls.json").write_text(json.dumps({"width": 8}))
    assert make_plan("gpu", {}, tmp_path).cls_width == PLANS["gpu"].cls_width
