"""A second look at a frame whose indices came out small.

The detector reads indices best at one size in its input. Sizing the input as a fixed share
of the frame assumes every camera frames the table alike; a camera mounted higher, or a
photo of a whole table, leaves the indices below that size, where the detector misses
most of them. The first look measures how big the indices are; when they are well under
the size the detector reads best, the frame is read once more, enlarged to bring them there.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from scorekeeper.vision.detectors.yolo_decode import input_size

INDEX_PX = 24.0  # the index long side (detector-input pixels) to bring small indices up to
MAX_SCALE = 1.25  # the most a frame is enlarged, as a share of its long side
MIN_GAIN = 1.15  # a second look must enlarge at least this much to be worth its time


def refocus_scale(index_sizes: Sequence[float], long_side: int, scale: float,
                  index_px: float = INDEX_PX, max_scale: float = MAX_SCALE) -> float | None:
    """The scale to read the frame again at, or None when the first look was good enough.

    `index_sizes` are the long sides, in frame pixels, of the indices the first look found
    at `scale`; their median stands for the frame, so a few large cards near the camera do
    not decide it alone. Indices already at or above `index_px` never shrink: the first
    look read them well (enlarging big cards out of the trained size costs precision).
    """
    if not index_sizes or index_px <= 0:
        return None
    first_side = input_size((long_side, long_side), 0, scale)
    median_px = statistics.median(index_sizes) * first_side / long_side
    wanted = min(max_scale, scale * index_px / median_px)
    # the input side is capped: a frame already read at the cap cannot be enlarged
    second_side = input_size((long_side, long_side), 0, wanted)
    return wanted if second_side >= first_side * MIN_GAIN else None
