"""A second look at a frame whose indices came out too small or too big.

The detector reads indices best at one size in its input. Sizing the input as a fixed share
of the frame assumes every camera frames the table alike; a camera mounted higher, or a
photo of a whole table, leaves the indices below that size, where the detector misses
most of them, and a phone photo that two cards fill leaves them far above it, where it
finds nothing at all. The first look measures how big the indices are (or, where it found
only whole cards, how big their indices must be); when they are well off the size the
detector reads best, the frame is read once more, enlarged or reduced to bring them there.
A first look that finds nothing is followed by a coarse one at the smallest input, which
is where cards that fill the frame come into the detector's range.
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
# indices over this many times `index_px` at the configured scale are read again reduced
# (below that the configured look reads them well, and shrinking costs precision)
SHRINK_AT = 2.0
CARD_TO_INDEX = 0.2  # a card's long side → its index's long side (about, over the decks)
COARSE_SIDE = 320  # the coarse look's input side: the smallest the detector is run at


def refocus_scale(index_sizes: Sequence[float], long_side: int, scale: float,
                  index_px: float = INDEX_PX, max_scale: float = MAX_SCALE,
                  base: float | None = None, card_sizes: Sequence[float] = ()
                  ) -> float | None:
    """The scale to read the frame again at, or None when the look at `scale` was good enough.

    `index_sizes` are the long sides, in frame pixels, of the indices found at `scale`
    (where there are none, those of the whole cards found, `card_sizes`, stand in); their
    median stands for the frame, so a few large cards near the camera do not decide it
    alone. The answer lies between `base` (the configured first look, default `scale`) and
    `max_scale`, except for indices over `SHRINK_AT` × `index_px` at the base scale, which
    are reduced to `index_px` (as far as the smallest input allows).
    """
    sizes = list(index_sizes) or [c * CARD_TO_INDEX for c in card_sizes]
    if not sizes or index_px <= 0:
        return None
    base = scale if base is None else base
    side = input_size((long_side, long_side), 0, scale)
    median_px = statistics.median(sizes) * side / long_side
    at_base = median_px * input_size((long_side, long_side), 0, base) / side
    wanted = scale * index_px / median_px if at_base > index_px * SHRINK_AT \
        else min(max_scale, max(base, scale * index_px / median_px))
    # the input side is capped: a frame already read at the cap cannot be enlarged
    other = input_size((long_side, long_side), 0, wanted)
    return wanted if max(other, side) >= min(other, side) * MIN_GAIN else None
