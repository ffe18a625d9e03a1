"""Write a YOLO dataset of synthetic tables; resumable, deterministic, at most 2 workers.

Image i is drawn from `np.random.default_rng([seed, i])`, so it is the same picture whatever
the worker count or however often the run was stopped. Each image's files are written to
temporary names and renamed, JSON last: an image counts as done when its JSON exists.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper.vision.classes import CARD_CODES, CARD_DETECTOR_CLASSES, DETECTOR_CLASSES
from scorekeeper_lab.training.synth.cards import class_index
from scorekeeper_lab.training.synth.compose import DEFAULT, Style, readable_kind, render_scene
from scorekeeper_lab.training.synth.deckset import Deck, default_cards_dir, load_decks

JPEG_QUALITY = 92


@dataclass(frozen=True)
class Job:
    out: Path
    size: tuple[int, int]
    seed: int
    split: str
    classes: str  # "detector" (0 index, 1 card) | "cards" (53 card classes, 53 = card)
    style: Style
    cards_dir: Path | None
    test_decks: str | None
    font_decks: int = 0  # procedural designs added to the art decks (synth/fontdeck.py)


def class_names(classes: str) -> list[str]:
    return list(DETECTOR_CLASSES if classes == "detector" else CARD_DETECTOR_CLASSES)


def yolo_lines(labels: list[dict[str, Any]], size: tuple[int, int], classes: str,
               readable: bool = False) -> list[str]:
    """`class cx cy w h` (normalised) for every card and index label (negatives and
    covered indices are for the classifier only: to the detector they are background).

    `readable`: a corner labelled readable (`render --readable`: part of it hidden, its card
    still told by what shows) is an index too, so the detector learns to find the corners a
    fan leaves."""
    w, h = size
    card_class = 1 if classes == "detector" else len(CARD_CODES)
    kinds = ("card", "index", "readable") if readable else ("card", "index")
    out = []
    for lab in labels:
        if lab["kind"] not in kinds:
            continue
        # by today's rule on the shares the label records, as the classifier's crops are
        if lab["kind"] == "readable" and readable_kind(
                lab["visible"], lab["rank"], lab["pip"]) != "readable":
            continue
        if lab["kind"] == "card":
            cls = card_class
        else:
            cls = 0 if classes == "detector" else class_index(lab["card"])
        x1, y1, x2, y2 = lab["box"]
        out.append(f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
                   f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return out


_decks: list[Deck] = []
_job: Job | None = None


def _init(job: Job, decks: list[Deck] | None = None) -> None:
    global _decks, _job
    cv2.setNumThreads(1)
    _job = job
    _decks = decks if decks is not None else load_decks(job.split, job.cards_dir, job.test_decks)
    if job.font_decks:
        from scorekeeper_lab.training.synth.fontdeck import make_decks

        _decks = [*_decks, *make_decks(job.font_decks, job.seed)]


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def render_one(i: int) -> int:
    """Render and write image i; returns i."""
    assert _job is not None
    job = _job
    name = f"{i:06d}"
    rng = np.random.default_rng([job.seed, i])
    image, labels = render_scene(rng, _decks, job.size, job.style)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise RuntimeError(f"JPEG encode failed for {name}")
    _write_atomic(job.out / "images" / f"{name}.jpg", buf.tobytes())
    text = "\n".join(yolo_lines(labels, job.size, job.classes))
    _write_atomic(job.out / "labels" / f"{name}.txt", (text + "\n" if text else "").encode())
    _write_atomic(job.out / "cards" / f"{name}.json", json.dumps(labels).encode())
    return i


def _progress(done: int, total: int, start: float, resumed: int) -> None:
    rate = (done - resumed) / max(1e-6, time.monotonic() - start)
    eta = (total - done) / rate if rate > 0 else float("inf")
    eta_s = time.strftime("%H:%M:%S", time.gmtime(eta)) if eta != float("inf") else "?"
    print(f"\rrender {done}/{total}  {rate:.1f} img/s  ETA {eta_s}", end="",
          file=sys.stderr, flush=True)


def render_dataset(out: Path, count: int, size: int | tuple[int, int] = 640, seed: int = 0,
                   split: str = "train", workers: int = 1, classes: str = "detector",
                   style: Style = DEFAULT, cards_dir: Path | None = None,
                   test_decks: str | None = None, decks: list[Deck] | None = None,
                   font_decks: int = 0) -> int:
    """Render images 0..count-1 that are not on disk yet; returns how many were rendered."""
    wh = (size, size) if isinstance(size, int) else size
    for sub in ("images", "labels", "cards"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    meta = {"names": class_names(classes), "classes": classes, "size": list(wh), "seed": seed,
            "split": split, "style": asdict(style), "font_decks": font_decks,
            "cards_dir": str(cards_dir or default_cards_dir())}
    (out / "dataset.json").write_text(json.dumps(meta, indent=1))
    todo = [i for i in range(count) if not (out / "cards" / f"{i:06d}.json").exists()]
    resumed = count - len(todo)
    job = Job(out, wh, seed, split, classes, style, cards_dir, test_decks, font_decks)
    start, done, last = time.monotonic(), resumed, 0.0
    workers = max(1, workers)
    if workers == 1 or len(todo) < 4:
        _init(job, decks)
        results: Iterator[int] = map(render_one, todo)
        pool = None
    else:
        pool = Pool(workers, initializer=_init, initargs=(job, decks))
        results = pool.imap_unordered(render_one, todo, chunksize=4)
    try:
        for _ in results:
            done += 1
            if time.monotonic() - last > 1.0 or done == count:
                _progress(done, count, start, resumed)
                last = time.monotonic()
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if todo:
        print(file=sys.stderr)
    return len(todo)
