"""The rendered tables `scorekeeper bench vision` times: rendered once by
`benchmarks/frames/make.py` and shipped, so every machine times the same frames.

It lives beside the renderer it draws them with (training/synth); the timing itself is the
runtime's (`scorekeeper.vision.bench`), which needs none of this package.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# (frame size, cards, tiles): tiles > 1 stitches tiles × tiles smaller tables into the frame,
# a camera mounted high whose small indices the reader looks at a second time, enlarged
CASES = [((1280, 960), 10, 1), ((1280, 960), 30, 1), ((1280, 960), 30, 2),
         ((1920, 1080), 10, 1), ((1920, 1080), 30, 1)]

Labels = list[dict[str, Any]]


def table_with_cards(size: tuple[int, int], cards: int, seed: int = 0, tiles: int = 1,
                     test_deck: bool = True) -> tuple[np.ndarray, Labels]:
    """A rendered table whose visible card count is nearest the one asked for, and its
    labels (`render_scene`'s, boxes in this frame's pixels; `card_id` unique in the frame).

    `test_deck`: the held-out design when the card art is installed (else the built-in
    drawn deck, which the model reads badly: figures on it are not the README's).
    """
    if tiles > 1:
        w, h = size[0] // tiles, size[1] // tiles
        image = np.zeros((h * tiles, w * tiles, 3), np.uint8)
        labels: Labels = []
        for r in range(tiles):
            for c in range(tiles):
                tile, tile_labels = table_with_cards((w, h), cards // tiles ** 2,
                                                     seed + r * tiles + c, 1, test_deck)
                image[r * h:(r + 1) * h, c * w:(c + 1) * w] = tile
                for o in tile_labels:
                    x1, y1, x2, y2 = o["box"]
                    labels.append({**o, "box": [x1 + c * w, y1 + r * h, x2 + c * w, y2 + r * h],
                                   "card_id": f"{r * tiles + c}-{o.get('card_id')}"})
        return image, labels
    from scorekeeper_lab.training.synth.compose import LEGACY, render_scene
    from scorekeeper_lab.training.synth.deckset import cache_ready, load_decks
    from scorekeeper_lab.training.synth.fallback import fallback_deck

    decks = load_decks("test") if test_deck and cache_ready() else [fallback_deck()]
    rng = np.random.default_rng(seed)
    best: tuple[np.ndarray, Labels] | None = None
    gap: int | None = None
    for _ in range(40):
        # the earlier generator's tables, so speed figures stay comparable across versions
        image, objects = render_scene(rng, decks, size, LEGACY)
        n = len({o["card_id"] for o in objects if o["kind"] == "index"})
        if gap is None or abs(n - cards) < gap:
            best, gap = (image, objects), abs(n - cards)
        if gap == 0 or gap <= cards // 10:
            break
    assert best is not None
    return best
