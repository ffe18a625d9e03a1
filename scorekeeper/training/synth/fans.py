"""The fan benchmark's scenes: tight hands, every face-up card labelled however little shows.

`scorekeeper eval --fans DIR` (`vision/fan_eval.py`) scores a model on them by how much of
each card's best corner index the next card covers. The random training scenes hold few
tight fans and label only indices a camera reads whole, so neither they nor the held-out
figure tell how a hand held in one fist reads. Here each scene holds one or two fans of
5–11 cards turned 1.5–7° apart (a quarter to nearly all of each under-card's index hidden),
cards large enough (indices about 25–40 px) that size is not what is measured, on the
random tables and light of the training scenes, without print or other cards.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.training.synth.compose import Style, compose_scene
from scorekeeper.training.synth.dataset import JPEG_QUALITY
from scorekeeper.training.synth.deckset import Deck
from scorekeeper.training.synth.layout import Placement, _angle, _aspect, _Pool, rot

# every corner labelled with its visible share: "index" when whole, else by what shows
STYLE = Style(distractors=0.0, readable=True)
STEP_DEG = (1.5, 7.0)  # each card turned this much past the one under it
CARDS = (5, 11)


def tight_fan(rng: np.random.Generator, pool: _Pool, c: np.ndarray, s: float) -> list[Placement]:
    """One hand fanned about a pivot under the cards, `STEP_DEG` a card."""
    n = int(rng.integers(CARDS[0], CARDS[1] + 1))
    theta = _angle(rng)
    height = s * _aspect(pool.decks[0])
    radius = rng.uniform(0.6, 1.2) * height
    step = rng.uniform(*STEP_DEG)
    pivot = c + rot(theta) @ np.array([0.0, radius])
    out = []
    for k in range(n):
        phi = theta + step * (k - (n - 1) / 2) + rng.normal(0, 0.4)
        p = pivot + rot(phi) @ np.array([0.0, -radius])
        deck, face = pool.draw()
        out.append(Placement(deck, face, (float(p[0]), float(p[1])), float(phi), s))
    return out


def fan_places(rng: np.random.Generator, decks: list[Deck], size: tuple[int, int]
               ) -> list[Placement]:
    """One or two fans, apart, inside the view."""
    w, h = size
    groups = int(rng.integers(1, 3))
    s = min(size) * rng.uniform(0.2, 0.28) * (0.75 if groups > 1 else 1.0)
    pool = _Pool(rng, decks)
    out: list[Placement] = []
    for g in range(groups):
        x = (g + 0.5) / groups
        c = np.array([rng.uniform(x - 0.08, x + 0.08) * w, rng.uniform(0.4, 0.6) * h])
        out.extend(tight_fan(rng, pool, c, s))
    return out


def render_fans(out: Path, count: int, decks: list[Deck], seed: int = 0,
                size: tuple[int, int] = (640, 640)) -> int:
    """Write scenes 0..count-1 as `render` does (images/, cards/); returns how many."""
    for sub in ("images", "cards"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    (out / "dataset.json").write_text(json.dumps(
        {"fans": True, "seed": seed, "size": list(size), "step_deg": STEP_DEG,
         "decks": sorted({d.name for d in decks})}, indent=1))
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        scene = compose_scene(rng, decks, size, STYLE, fan_places(rng, decks, size))
        ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise RuntimeError(f"JPEG encode failed for scene {i}")
        (out / "images" / f"{i:06d}.jpg").write_bytes(buf.tobytes())
        (out / "cards" / f"{i:06d}.json").write_text(json.dumps(scene.labels))
        print(f"\rfans {i + 1}/{count}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return count
