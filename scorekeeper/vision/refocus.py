"""A second look at a frame whose indices came out small.

The detector reads indices best at one size in its input. Sizing the input as a fixed share
of the frame assumes every camera frames the table alike; a camera mounted higher, or a
photo of a whole table, leaves the indices below that size, where the detector misses
most of them. The first look measures how big the indices are; when they are well under
the size the detector reads best, the frame is read once more, enlarged to bring them there.
The table's camera does not move between frames, so the reader starts that camera's next
frame at the scale this one settled on, and pays for the second look once, not every frame;
unrelated images (photo uploads) start afresh.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from scorekeeper.vision.detectors.yolo_decode import input_size

INDEX_PX = 28.0  # the index long side (detector-input pixels) to bring small indices up to
MAX_SCALE = 1.25  # the most a frame is enlarged, as a share of its long side
MIN_GAIN = 1.15  # a second look must enlarge at least this much to be worth its time


def refocus_scale(index_sizes: Sequence[float], long_side: int, scale: float,
                  index_px: float = INDEX_PX, max_scale: float = MAX_SCALE,
                  base: float | None = None) -> float | None:
    """The scale to read the frame again at, or None when the look at `scale` was good enough.

    `index_sizes` are the long sides, in frame pixels, of the indices found at `scale`; their
    median stands for the frame, so a few large cards near the camera do not decide it
    alone. The answer lies between `base` (the configured first look, default `scale`) and
    `max_scale`: indices at or above `index_px` at the base scale are never shrunk further
    (the base look reads them well; shrinking big cards below it costs precision).
    """
    if not index_sizes or index_px <= 0:
        return None
    base = scale if base is None else base
    side = input_size((long_side, long_side), 0, scale)
    median_px = statistics.median(index_sizes) * side / long_side
    wanted = min(max_scale, max(base, scale * index_px / median_px))
    # the input side is capped: a frame already read at the cap cannot be enlarged
    other = input_size((long_side, long_side), 0, wanted)
    return wanted if max(other, side) >= min(other, side) * MIN_GAIN else None
