"""Train the index classifier (PyTorch) and export it to ONNX for the runtime."""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.vision.classes import CLASSIFIER_CLASSES
from scorekeeper.vision.classifier import CROP, MARGIN


def conv_block(cin: int, cout: int, stride: int = 1) -> list:  # [Conv2d, BatchNorm2d, ReLU]
    """A 3 × 3 convolution, batch norm and ReLU: the unit every classifier design stacks."""
    from torch import nn

    return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


def build_model(width: int = 16):  # -> torch.nn.Module; torch is imported only for training
    """A stride-2 stem, then two convs at each of 2×, 4× and 8× `width` channels.

    Halving the 48 px crop at once loses no glyph (a rank spans ~15 px of it) and spares the
    full-resolution layers, whose activations cost more time than their ~25 M MACs suggest:
    measured on 19 k crops, it reached 66 % in 6 epochs where full-resolution stages
    reached 62 %, in 20 % less time (models/README.md, "Classifier design").
    """
    from torch import nn

    w, block = width, conv_block
    return nn.Sequential(
        *block(3, w + 8, stride=2), *block(w + 8, 2 * w), *block(2 * w, 2 * w), nn.MaxPool2d(2),
        *block(2 * w, 4 * w), *block(4 * w, 4 * w), nn.MaxPool2d(2),
        *block(4 * w, 8 * w), *block(8 * w, 8 * w), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(8 * w, len(CLASSIFIER_CLASSES)),
    )


def recorded_width(models: Path, default: int = 16) -> int:
    """The width a model folder's classifier was trained at (its `cards-cls.json`): what a
    warm start or a deck adaptation must build to load its weights."""
    import json

    record = models / "cards-cls.json"
    return int(json.loads(record.read_text()).get("width", default)) if record.is_file() \
        else default


def widen(old: dict, new: dict) -> dict:
    """`old` weights in the shapes of `new`, a wider network of the same design, computing
    the same function: a warm start for more capacity instead of a run from nothing.

    Each tensor's leading slice is the old one. A new channel keeps `new`'s random weights
    from every input, but its weights into the old channels are zero, so it changes no
    answer until training gives it a use (AdamW moves a zero weight at once).
    Equal shapes pass through unchanged.
    """
    out = {}
    for key, fresh in new.items():
        was = old[key]
        if any(a > b for a, b in zip(was.shape, fresh.shape, strict=True)):
            raise ValueError(f"{key}: {tuple(was.shape)} cannot start a narrower "
                             f"{tuple(fresh.shape)}")
        if was.shape == fresh.shape:
            out[key] = was
            continue
        grown = fresh.clone()
        if fresh.dim() >= 2:
            grown[:was.shape[0], was.shape[1]:] = 0
        grown[tuple(slice(0, n) for n in was.shape)] = was
        out[key] = grown
    return out


def _augment(x, gen, low_res: float = 0.0, hard: float = 0.0):
    """Quarter turns, lighting and blur the scenes may not have covered; `low_res`: the
    share of crops shrunk to an index of 10–24 px and enlarged again (`_low_res`); `hard`:
    the share shown as a real photo's worst corners look (`_hard_looks`)."""
    import torch

    k = int(torch.randint(0, 4, (1,), generator=gen))
    x = torch.rot90(x, k, dims=(2, 3))
    if hard > 0:
        x = _hard_looks(x, gen, hard)
    n = x.shape[0]
    gain = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.6
    bias = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.3
    tint = 1 + (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * 0.2
    # drawn on the CPU generator (reproducible), applied where the batch lives
    gain, bias, tint = (t.to(x.device) for t in (gain, bias, tint))
    if low_res > 0:
        x = _low_res(x, gen, low_res)
    return (x * gain * tint + bias).clamp(0, 1)


def _uniform(gen, shape: tuple[int, ...], lo: float, hi: float):
    import torch

    return lo + (hi - lo) * torch.rand(shape, generator=gen)


def _hard_looks(x, gen, share: float):
    """A share of the batch as the real photos' corners the reader lost most often look
    (RECORD.md): dim grey paper of little contrast, motion blur,
    a thin object across the index (a pen, a finger's edge), deep shade across the corner.
    The rendered scenes light a card evenly and blur it gently, so none of these is in
    them; one of the four is drawn for each chosen crop, and its label is kept (a person
    still reads each)."""
    import torch
    from torch.nn import functional

    n, _, h, w = x.shape
    chosen = (torch.rand(n, generator=gen) < share).nonzero().squeeze(1)
    m = len(chosen)
    if not m:
        return x
    sub = x[chosen]
    shape = (m, 1, 1, 1)
    mean = sub.mean((1, 2, 3), keepdim=True)
    dim = ((sub - mean) * _uniform(gen, shape, 0.35, 0.7) + mean) * _uniform(gen, shape, 0.4, 0.8)
    length = int(torch.randint(3, 8, (1,), generator=gen))  # one streak a batch
    angle = float(_uniform(gen, (1,), 0, math.pi))
    kernel = torch.zeros(length, length)
    c = (length - 1) / 2
    for t in torch.linspace(-c, c, 4 * length):
        kernel[round(c + float(t) * math.sin(angle)), round(c + float(t) * math.cos(angle))] = 1
    kernel = (kernel / kernel.sum()).expand(3, 1, length, length)
    pad = (length // 2, length - 1 - length // 2) * 2
    blur = functional.conv2d(functional.pad(sub, pad, mode="replicate"), kernel, groups=3)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32),
                            torch.arange(w, dtype=torch.float32), indexing="ij")
    theta = _uniform(gen, shape, 0, math.pi)
    px, py = _uniform(gen, shape, 0.2 * w, 0.8 * w), _uniform(gen, shape, 0.2 * h, 0.8 * h)
    dist = ((xx - px) * torch.sin(theta) - (yy - py) * torch.cos(theta)).abs()
    half = _uniform(gen, shape, 0.8, 2.2)
    ink = torch.sigmoid((half - dist) * 3)
    bar = sub * (1 - ink) + _uniform(gen, (m, 3, 1, 1), 0.0, 0.3) * ink
    ramp = (xx - w / 2) * torch.cos(theta) + (yy - h / 2) * torch.sin(theta)
    lowest = ramp.amin((2, 3), keepdim=True)
    ramp = (ramp - lowest) / (ramp.amax((2, 3), keepdim=True) - lowest)
    low = _uniform(gen, shape, 0.25, 0.6)
    shade = sub * (low + (1 - low) * ramp)
    kind = torch.randint(0, 4, (m,), generator=gen).view(m, 1, 1, 1)
    looks = torch.where(kind == 0, dim, torch.where(kind == 1, blur, torch.where(
        kind == 2, bar, shade)))
    x = x.clone()
    x[chosen] = looks.to(x.dtype)
    return x


LOW_RES_PX = (10, 24)  # the index sizes `_low_res` brings crops down to


def _low_res(x, gen, share: float):
    """A share of the batch as a small index would crop: shrunk (with area averaging, as a
    camera's pixels do) so the index spans 10–24 px, then enlarged back to the crop size.

    Indices under 20 px are where the reader loses most cards (models/README.md), and every
    larger index of the scenes can stand in for one this way.
    """
    import torch
    from torch.nn import functional

    pick = torch.rand(x.shape[0], generator=gen) < share
    if not bool(pick.any()):
        return x
    # the crop spans the index and its margin (vision/classifier.MARGIN)
    index_px = float(torch.empty(1).uniform_(*LOW_RES_PX, generator=gen))
    side = max(4, round(index_px * (1 + 2 * MARGIN)))
    chosen = pick.nonzero().squeeze(1).to(x.device)
    small = functional.interpolate(x[chosen], size=(side, side), mode="area")
    x = x.clone()
    x[chosen] = functional.interpolate(small, size=x.shape[2:], mode="bilinear",
                                       align_corners=False)
    return x


def train(x: np.ndarray, y: np.ndarray, out: Path, epochs: int = 8, batch: int = 64,
          seed: int = 0, val: tuple[np.ndarray, np.ndarray] | None = None,
          init: Path | None = None, lr: float = 2e-2, width: int = 16,
          design: Callable[[int], Any] | None = None, bf16: bool = False,
          low_res: float = 0.0, hard: float = 0.0) -> dict:
    """Train (or continue from `init` weights), save `out` (ONNX) and its weights (.pt).

    `design` builds another network from `width`, to compare designs at equal cost
    (models/README.md, "Classifier design").
    `init` weights of a narrower network of the same design are widened (`widen`).
    `low_res`: the share of each batch shown as a small index would crop (`_low_res`).
    `hard`: the share shown as the real photos' worst corners look (`_hard_looks`).
    `bf16`: on a CPU, bfloat16 autocast with channels-last tensors (training/mixed_precision.py).

    On a GPU the whole crop set moves to the device once: the batches are tiny, so copying
    each from the host would cost more than the network.
    """
    import torch
    from torch import nn

    # OMP_NUM_THREADS=1 on a machine shared with other work: two threads that wait for
    # each other under a busy scheduler took 25× longer a step (measured: RECORD.md)
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "0")) or os.cpu_count() or 1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = (design or build_model)(width)
    if init is not None:
        model.load_state_dict(widen(torch.load(init, map_location="cpu"), model.state_dict()))
    model = model.to(device)
    bf16 = bf16 and device == "cpu"
    layout = torch.channels_last if bf16 else torch.contiguous_format
    model = model.to(memory_format=layout)
    xt = torch.from_numpy(x[:, :, :, ::-1].copy()).permute(0, 3, 1, 2)  # BGR → RGB, NCHW u8
    yt = torch.from_numpy(y)
    if device != "cpu":
        xt, yt = xt.to(device), yt.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(xt) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    start = time.time()
    done = 0
    history = []
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(xt), generator=gen)
        total, correct = 0.0, 0
        for i in range(0, len(xt), batch):
            idx = order[i:i + batch].to(xt.device)
            xb = _augment(xt[idx].float() / 255, gen, low_res, hard).to(
                device, memory_format=layout)
            yb = yt[idx]
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                logits = model(xb)
                loss = loss_fn(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.detach() * len(idx)  # tensors: no device sync per step
            correct += (logits.argmax(1) == yb).sum()
            done += 1
            if done % 25 and done != steps:
                continue
            left = (time.time() - start) / done * (steps - done)
            print(f"\rclassifier epoch {epoch + 1}/{epochs} step {done}/{steps} "
                  f"loss {float(total) / (i + len(idx)):.3f} ~{left / 60:.1f} min left",
                  end="", file=sys.stderr)
        row = {"epoch": epoch + 1, "loss": float(total) / len(xt),
               "train_acc": int(correct) / len(xt)}
        if val is not None:
            row["val_acc"] = accuracy(model, *val)
        history.append(row)
        print(f"\n{row}", file=sys.stderr)
    model = model.cpu().to(memory_format=torch.contiguous_format).eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), out.with_suffix(".pt"))
    export_onnx(model, out)
    return {"history": history, "seconds": round(time.time() - start, 1), "samples": len(xt),
            "width": width, "device": device, "bf16": bf16, "low_res": low_res, "hard": hard}


def accuracy(model, x: np.ndarray, y: np.ndarray) -> float:
    import torch

    model.eval()
    device = next(model.parameters()).device
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = torch.from_numpy(x[i:i + 512, :, :, ::-1].copy()).permute(0, 3, 1, 2)
            pred = model(xb.float().div(255).to(device)).argmax(1).cpu().numpy()
            correct += int((pred == y[i:i + 512]).sum())
    model.train()
    return correct / max(1, len(x))


def export_onnx(model, out: Path) -> None:
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(model, (dummy,), str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17,
                      dynamo=False)
