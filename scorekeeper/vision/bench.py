"""`scorekeeper bench vision`: the reader timed on the frames the repository ships.

The frames (`benchmarks/frames/`, rendered once from the held-out design, and real
photographs) are the same on every machine, so a figure here can be checked against the
README's; each time is printed beside what was read, scored against the frames' labels as
the lab's evaluation scores (`matching.match_reads`). Needs only the runtime.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from scorekeeper.vision.matching import match_reads
from scorekeeper.vision.reader import MODELS, CardReader, ReadResult, VisionError, load_image

FRAMES = Path(__file__).resolve().parents[2] / "benchmarks" / "frames"


@dataclass(frozen=True)
class Frame:
    case: str
    path: Path
    camera: bool  # a fixed camera's frames (a scale carried over) or unrelated photos
    cards: list[tuple[str, list[list[float]]]]
    ignore: list[tuple[str, list[list[float]]]]
    unboxed: list[str]


@dataclass(frozen=True)
class Tally:
    right: int
    wrong: int  # read as another card, or a card where none is
    labelled: int


def load_frames(folder: Path = FRAMES) -> list[Frame]:
    """The frames `folder/frames.json` lists (`benchmarks/frames/make.py` writes it)."""
    manifest = folder / "frames.json"
    if not manifest.is_file():
        raise VisionError(f"no bench frames: {manifest} is missing")
    data: dict[str, Any] = json.loads(manifest.read_text())
    return [Frame(f["case"], folder / f["image"], bool(f["camera"]),
                  [(c["card"], c["boxes"]) for c in f["cards"]],
                  [(c["card"], [c["box"]]) for c in f.get("ignore", [])],
                  list(f.get("unboxed", []))) for f in data["frames"]]


def score(frame: Frame, result: ReadResult) -> Tally:
    m = match_reads(result.cards, frame.cards, frame.unboxed, frame.ignore)
    right = sum(card.card == frame.cards[k][0] for k, card in m.hits.items())
    return Tally(right + len(m.unboxed), len(m.hits) - right + len(m.strays),
                 len(frame.cards) + len(frame.unboxed))


def run(runtimes: list[str], repeats: int = 5, out: TextIO | None = None,
        models: Path | None = None, frames: Path = FRAMES) -> dict[str, dict[str, float]]:
    """Median ms per frame for each runtime; `models` is the model folder (None: models/)."""
    shipped = load_frames(frames)
    images = [(f, load_image(f.path)) for f in shipped]
    figures: dict[str, dict[str, float]] = {}
    for runtime in runtimes:
        try:
            reader = CardReader(models or MODELS, runtime=runtime)
        except (VisionError, ImportError, FileNotFoundError) as exc:
            if out:
                out.write(f"{runtime}: skipped ({exc})\n")
            continue
        reader.read(images[0][1])  # warm up
        for frame, image in images:
            # a fixed camera's first frame may take a second look; its next ones start at
            # the scale that look settled on (vision/refocus.py). Photos start afresh.
            camera = frame.case if frame.camera else None
            results = []
            for _ in range(repeats):
                start = time.perf_counter()
                results.append((reader.read(image, camera=camera), time.perf_counter() - start))
            times = [secs * 1000 for _, secs in results]
            median = statistics.median(times)
            figures.setdefault(runtime, {})[frame.case] = median
            (first, first_s), (last, _) = results[0], results[-1]
            tally = score(frame, last)
            if out:
                looks = f"{first.looks} look{'s' if first.looks > 1 else ''}"
                out.write(f"{runtime:6} {frame.case:30} median {median:6.1f} ms "
                          f"(spread {min(times):.0f}–{max(times):.0f}; first frame {looks}, "
                          f"{first_s * 1000:.0f} ms)  read {len(last.cards)}: "
                          f"{tally.right}/{tally.labelled} right, {tally.wrong} wrong\n")
    return figures
