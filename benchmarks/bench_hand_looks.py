"""What the reader's looks at a hand cost a frame: the turned-down corners cropped again at
their neighbours' size (`vision/hand_scale.py`), the hand detector's look over each hand
(`vision/hand_look.py`; one that boxes indices or one that names the cards) and the places
a fan's stripe skips (`vision/fan_gaps.py`), timed apart from the rest of the read on the
shipped bench frames.

    .venv/bin/python benchmarks/bench_hand_looks.py [--repeat 15] [--models DIR]

Each frame is detected and classified once; then the looks are run `--repeat` times on
those detections and answers, and the median and the slowest are printed (ms), with the
hand detector's share apart.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from scorekeeper.vision.bench import load_frames
from scorekeeper.vision.classes import INDEX
from scorekeeper.vision.classifier import crop_index
from scorekeeper.vision.pairing import IndexReading
from scorekeeper.vision.reader import MODELS, CardReader, load_image


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--models", type=Path, default=MODELS)
    args = ap.parse_args()
    reader = CardReader(args.models)
    assert reader.classifier is not None
    for frame in load_frames():
        image = load_image(frame.path)
        dets, _ = reader.detect(image)
        indices = [d for d in dets if d.cls == INDEX]
        crops = [crop_index(image, d.box) for d in indices]
        labels, _ = reader._second_look(crops, reader.classifier.classify(crops))
        readings = [IndexReading(d, *answer) for d, answer in zip(indices, labels, strict=True)
                    if reader._reads(answer)]
        times, hand_times = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            reader._rescaled_look(image, indices, labels)
            hand_start = time.perf_counter()
            added, _ = reader._hand_look(image, indices, readings)
            hand_times.append((time.perf_counter() - hand_start) * 1000)
            reader._gap_readings(image, indices + added, readings)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{frame.path.name:32s} {len(indices):3d} indices   looks at a hand: median "
              f"{statistics.median(times):5.1f} ms, slowest {max(times):5.1f} ms; the hand "
              f"detector's: median {statistics.median(hand_times):5.1f} ms")


if __name__ == "__main__":
    main()
