"""Training speed in float32 and bfloat16 on this CPU: a classifier step and a detector batch.

    .venv/bin/python scripts/bf16_speed.py [--work data/model-work] [--skip-detector]

Classifier: 60 steps of 64 random 48 px crops (the first 10 not timed), in float32, with
channels-last tensors, under bfloat16 autocast, and both. Detector: one epoch of YOLO11n at
416 px, batch 16, on 8 % of the work folder's training scenes (~15 batches), in float32 and
in bfloat16; the median seconds per batch, the first two not counted. Nothing else should
run meanwhile. Results: models/README.md, "Training in bfloat16".
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import time
from pathlib import Path

from scorekeeper.vision.mixed_precision import cpu_has_bf16
from scorekeeper.vision.reader import MODELS


def classifier_step_ms(mode: str, steps: int = 60, batch: int = 64) -> float:
    import torch
    from torch import nn

    from scorekeeper.vision.classifier_train import _augment, build_model

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    x = torch.randint(0, 255, (steps * batch, 3, 48, 48), dtype=torch.uint8)
    y = torch.randint(0, 54, (steps * batch,))
    layout = torch.channels_last if "channels-last" in mode else torch.contiguous_format
    model = build_model(16).to(memory_format=layout)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    started = 0.0
    for step in range(steps):
        if step == 10:
            started = time.perf_counter()
        xb = _augment(x[step * batch:(step + 1) * batch].float() / 255, gen)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled="bf16" in mode):
            loss = loss_fn(model(xb.contiguous(memory_format=layout)),
                           y[step * batch:(step + 1) * batch])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return (time.perf_counter() - started) / (steps - 10) * 1000


def detector_batch_s(data_yaml: Path, bf16: bool) -> float:
    from scorekeeper.vision.mixed_precision import allow_ultralytics_cpu_bf16
    from scorekeeper.vision.train import AUGMENT
    from scorekeeper.vision.ultralytics_env import prepare, skip_amp_check

    prepare()
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO

    tu.NUM_THREADS = os.cpu_count() or 1
    skip_amp_check()
    allow_ultralytics_cpu_bf16()
    ends: list[float] = []
    model = YOLO("yolo11n.yaml")
    model.add_callback("on_train_batch_end", lambda _: ends.append(time.perf_counter()))
    with tempfile.TemporaryDirectory() as runs:
        model.train(data=str(data_yaml), imgsz=416, epochs=1, batch=16, workers=0,
                    device="cpu", project=runs, name="bench", val=False, plots=False,
                    amp="bf16" if bf16 else False, fraction=0.08, deterministic=False,
                    verbose=False, **AUGMENT)
    return statistics.median(b - a for a, b in itertools.pairwise(ends[2:]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", type=Path, default=MODELS.parent / "data" / "model-work")
    ap.add_argument("--skip-detector", action="store_true")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(os.cpu_count() or 1)
    print(f"native bfloat16: {cpu_has_bf16()}; {os.cpu_count()} cores")
    for mode in ("float32", "channels-last", "bf16", "channels-last bf16"):
        print(f"classifier, {mode}: {classifier_step_ms(mode):.1f} ms per step of 64", flush=True)
    if not args.skip_detector:
        for bf16 in (False, True):
            s = detector_batch_s(args.work / "data.yaml", bf16)
            print(f"detector, {'bf16' if bf16 else 'float32'}: {s:.2f} s per batch of 16",
                  flush=True)


if __name__ == "__main__":
    main()
