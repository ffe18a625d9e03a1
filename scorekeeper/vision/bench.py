"""`scorekeeper bench vision`: median ms per frame for each runtime, frame size and card count.

Frames are rendered tables (held-out deck when the art is installed, else the built-in
drawn deck), so the figure includes the classifier's work per visible index.
"""

from __future__ import annotations

import statistics
import time
from typing import TextIO

import numpy as np

CASES = [((1280, 960), 10), ((1280, 960), 30), ((1920, 1080), 10), ((1920, 1080), 30)]


def frame_with_cards(size: tuple[int, int], cards: int, seed: int = 0) -> np.ndarray:
    """A rendered table whose visible card count is nearest the one asked for."""
    from scorekeeper.vision.synth.compose import render_scene
    from scorekeeper.vision.synth.deckset import cache_ready, load_decks
    from scorekeeper.vision.synth.fallback import fallback_deck

    decks = load_decks("test") if cache_ready() else [fallback_deck()]
    rng = np.random.default_rng(seed)
    best, gap = None, None
    for _ in range(40):
        image, labels = render_scene(rng, decks, size)
        n = len({o["card_id"] for o in labels if o["kind"] == "index"})
        if gap is None or abs(n - cards) < gap:
            best, gap = image, abs(n - cards)
        if gap == 0 or (gap is not None and gap <= cards // 10):
            break
    assert best is not None
    return best


def run(runtimes: list[str], repeats: int = 5, out: TextIO | None = None) -> dict:
    from scorekeeper.vision.reader import CardReader, VisionError

    frames = {(size, n): frame_with_cards(size, n) for size, n in CASES}
    figures: dict[str, dict[str, float]] = {}
    for runtime in runtimes:
        try:
            reader = CardReader(runtime=runtime)
        except (VisionError, ImportError, FileNotFoundError) as exc:
            if out:
                out.write(f"{runtime}: skipped ({exc})\n")
            continue
        reader.read(frames[CASES[0]])  # warm up
        for (size, n), frame in frames.items():
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                result = reader.read(frame)
                times.append((time.perf_counter() - start) * 1000)
            key = f"{size[0]}x{size[1]}, {n} cards"
            figures.setdefault(runtime, {})[key] = statistics.median(times)
            if out:
                out.write(f"{runtime:6} {key:22} median {statistics.median(times):7.1f} ms "
                          f"({len(result.cards)} cards read)\n")
    return figures
