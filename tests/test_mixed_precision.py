"""bfloat16 training: only where the CPU has it, and ultralytics lets the CPU use it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from scorekeeper_lab.training.mixed_precision import cpu_has_bf16


@pytest.mark.parametrize(("flags", "native"), [
    ("fpu sse2 avx2 avx512f avx512_bf16 avx512_vnni", True),
    ("fpu sse2 avx2 amx_bf16 amx_tile", True),
    ("fpu sse2 avx2 avx512f avx512_vnni", False),  # AVX-512 without BF16
    ("fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp", False),  # a Pi 5
])
def test_native_bf16_is_read_from_the_cpu_flags(tmp_path: Path, flags: str,
                                                native: bool) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n")
    assert cpu_has_bf16(cpuinfo) is native


def test_no_cpuinfo_means_no_bf16(tmp_path: Path) -> None:
    assert cpu_has_bf16(tmp_path / "missing") is False


def test_a_plan_switch_is_said_in_words() -> None:
    from scorekeeper_lab.training.train import _yes

    assert _yes("true") and _yes("1") and not _yes("False") and not _yes("off")
    with pytest.raises(argparse.ArgumentTypeError, match="say true or false"):
        _yes("maybe")


def test_ultralytics_gets_cpu_bf16_autocast_and_keeps_the_rest() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("ultralytics")
    import ultralytics.engine.trainer as trainer
    from scorekeeper_lab.training.mixed_precision import allow_ultralytics_cpu_bf16

    allow_ultralytics_cpu_bf16()
    allow_ultralytics_cpu_bf16()  # twice (a resumed stage) wraps once
    assert not hasattr(trainer.autocast.__wrapped__, "__wrapped__")
    a = torch.ones(4, 4)
    with trainer.autocast(torch.bfloat16, device="cpu"):
        assert (a @ a).dtype == torch.bfloat16
    with trainer.autocast(False, device="cpu"):
        assert (a @ a).dtype == torch.float32


def test_a_bf16_classifier_trains_and_exports_a_float_model(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    import numpy as np
    from scorekeeper_lab.training.classifier_train import train

    from scorekeeper.vision.classifier import CROP, IndexClassifier

    rng = np.random.default_rng(0)
    x = rng.integers(0, 255, (32, CROP, CROP, 3), dtype=np.uint8)
    y = rng.integers(0, 54, 32)
    stats = train(x, y, tmp_path / "cls.onnx", epochs=1, batch=16, width=8, bf16=True)
    assert stats["bf16"] is True
    p = IndexClassifier(tmp_path / "cls.onnx").probabilities(list(x[:3]))
    assert p.shape == (3, 54) and np.allclose(p.sum(1), 1, atol=1e-4)


@pytest.mark.parametrize(("cuda", "bf16", "plan"), [
    (True, True, "gpu"), (False, True, "cpu-bf16"), (False, False, "cpu")])
def test_make_model_picks_the_plan_this_machine_can_run(monkeypatch: pytest.MonkeyPatch,
                                                        cuda: bool, bf16: bool,
                                                        plan: str) -> None:
    from scorekeeper_lab.training import train

    monkeypatch.setattr(train, "_has_cuda", lambda: cuda)
    monkeypatch.setattr(train, "cpu_has_bf16", lambda: bf16)
    assert train.default_plan() == plan
    assert plan in train.PLANS

