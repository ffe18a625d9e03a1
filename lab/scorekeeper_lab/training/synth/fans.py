"""The fan benchmark's scenes: tight hands, every face-up card labelled however little shows.

`scorekeeper-lab eval --fans DIR` (`vision/fan_eval.py`) scores a model on them by how much of
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper_lab.evaluation.fan_eval import CORNER_KINDS
from scorekeeper_lab.training.synth.compose import Scene, Style, compose_scene
from scorekeeper_lab.training.synth.dataset import JPEG_QUALITY
from scorekeeper_lab.training.synth.deckset import Deck, Face
from scorekeeper_lab.training.synth.layout import Placement, _angle, _aspect, _Pool, rot

# every corner labelled with its visible share: "index" when whole, else by what shows
STYLE = Style(distractors=0.0, readable=True)
STEP_DEG = (1.5, 7.0)  # each card turned this much past the one under it
CARDS = (5, 11)
DECK_STEP_DEG = (4.0, 8.0)  # a deck fanned to be photographed: every index strip shows


def tight_fan(rng: np.random.Generator, pool: _Pool | _InOrder, c: np.ndarray, s: float,
              n: int | None = None, steps: tuple[float, float] = STEP_DEG) -> list[Placement]:
    """One hand fanned about a pivot under the cards, `steps` degrees a card; `n` cards, or
    `CARDS` at random."""
    if n is None:
        n = int(rng.integers(CARDS[0], CARDS[1] + 1))
    theta = _angle(rng)
    height = s * _aspect(pool.decks[0])
    radius = rng.uniform(0.6, 1.2) * height
    step = rng.uniform(*steps)
    pivot = c + rot(theta) @ np.array([0.0, radius])
    out = []
    for k in range(n):
        phi = theta + step * (k - (n - 1) / 2) + rng.normal(0, 0.4)
        p = pivot + rot(phi) @ np.array([0.0, -radius])
        deck, face = pool.draw()
        out.append(Placement(deck, face, (float(p[0]), float(p[1])), float(phi), s))
    return out


class _InOrder:
    """Given cards of one deck, drawn in their order: a whole deck laid out to be enrolled."""

    def __init__(self, deck: Deck, faces: list[Face]) -> None:
        self.decks = [deck]
        self.faces = list(faces)

    def draw(self) -> tuple[Deck, Face]:
        return self.decks[0], self.faces.pop(0)


def deck_places(rng: np.random.Generator, deck: Deck, size: tuple[int, int]
                ) -> list[Placement]:
    """One deck's 52 cards, shuffled, in four tight fans of 13 (two by two): the one photo a
    player takes to enrol a deck in fans. Jokers stay in the box."""
    faces = [deck.by_card[c][0] for c in sorted(deck.by_card) if c != "JK"]
    if len(faces) != 52:
        raise ValueError(f"{deck.name} has {len(faces)} cards, not 52")
    order = [faces[int(i)] for i in rng.permutation(len(faces))]
    w, h = size
    s = min(w / 2, h / 2) * 0.36
    out: list[Placement] = []
    for g in range(4):
        pool = _InOrder(deck, order[13 * g:13 * (g + 1)])
        c = np.array([(0.25 + 0.5 * (g % 2)) * w + rng.uniform(-0.03, 0.03) * w,
                      (0.3 + 0.5 * (g // 2)) * h + rng.uniform(-0.03, 0.03) * h])
        out.extend(tight_fan(rng, pool, c, s, n=13, steps=DECK_STEP_DEG))
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


def _write_scenes(out: Path, count: int, seed: int, meta: dict[str, Any], what: str,
                  compose: Callable[[np.random.Generator], Scene]) -> list[list[dict[str, Any]]]:
    """Scenes 0..count-1 as `render` writes them (images/, cards/, dataset.json), scene i
    drawn from the seed `[seed, i]`; their labels."""
    for sub in ("images", "cards"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    (out / "dataset.json").write_text(json.dumps(meta, indent=1))
    labels = []
    for i in range(count):
        scene = compose(np.random.default_rng([seed, i]))
        ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise RuntimeError(f"JPEG encode failed for {what} {i}")
        (out / "images" / f"{i:06d}.jpg").write_bytes(buf.tobytes())
        (out / "cards" / f"{i:06d}.json").write_text(json.dumps(scene.labels))
        labels.append(scene.labels)
        print(f"\r{what} {i + 1}/{count}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return labels


def one_of_each(rng: np.random.Generator, deck: Deck) -> Deck:
    """The deck as one physical deck holds it: one face of each card, drawn from its faces
    of that card. Cards cut from photos give several faces of some cards; dealt from all
    of them, nearly every hand holds one card twice or more, which no one-deck hand does."""
    return Deck(deck.name, deck.back, [faces[int(rng.integers(len(faces)))]
                                       for _, faces in sorted(deck.by_card.items())])


def scene_decks(rng: np.random.Generator, decks: list[Deck], each: bool) -> list[Deck]:
    """The decks one scene deals from (`one_of_each` of every deck when `each`)."""
    return [one_of_each(rng, d) for d in decks] if each else decks


def render_fans(out: Path, count: int, decks: list[Deck], seed: int = 0,
                size: tuple[int, int] = (640, 640), each: bool = False) -> int:
    """Write scenes 0..count-1 as `render` does (images/, cards/); returns how many.
    `each`: every scene deals from one face of each card (`one_of_each`)."""
    meta = {"fans": True, "seed": seed, "size": list(size), "step_deg": STEP_DEG,
            "decks": sorted({d.name for d in decks}), **({"one_of_each": True} if each else {})}

    def compose(rng: np.random.Generator) -> Scene:
        dealt = scene_decks(rng, decks, each)
        return compose_scene(rng, dealt, size, STYLE, fan_places(rng, dealt, size))

    return len(_write_scenes(out, count, seed, meta, "fans", compose))


def deck_labels(image: str, labels: list[dict[str, Any]]) -> dict[str, Any]:
    """A `deck add --labels` line for one photo of a whole deck: each card boxed at its best
    corner a person reads (a whole index or a readable part), the rest named `unboxed`."""
    best: dict[int, dict[str, Any]] = {}
    shown: dict[int, str] = {}
    for o in labels:
        if o.get("card") is None or o["kind"] not in CORNER_KINDS:
            continue
        shown[o["card_id"]] = o["card"]
        if o["kind"] in ("index", "readable") and (
                o["card_id"] not in best or o["visible"] > best[o["card_id"]]["visible"]):
            best[o["card_id"]] = o
    cards = [{"card": o["card"], "box": [round(float(v), 1) for v in o["box"]]}
             for _, o in sorted(best.items())]
    return {"image": image, "cards": cards,
            "unboxed": [c for k, c in sorted(shown.items()) if k not in best]}


def render_deck_photos(out: Path, count: int, deck: Deck, seed: int = 0,
                       size: tuple[int, int] = (1600, 1200)) -> int:
    """Photos of one deck's 52 cards in four fans (`deck_places`), as `render_fans` writes
    scenes (so `eval --fans` reads them), and `labels.jsonl` (`deck add --labels`)."""
    meta = {"fans": True, "whole_deck": True, "seed": seed, "size": list(size),
            "step_deg": DECK_STEP_DEG, "decks": [deck.name]}
    scenes = _write_scenes(out, count, seed, meta, "deck photos", lambda rng: compose_scene(
        rng, [deck], size, STYLE, deck_places(rng, deck, size)))
    (out / "labels.jsonl").write_text("".join(
        json.dumps(deck_labels(f"images/{i:06d}.jpg", labels)) + "\n"
        for i, labels in enumerate(scenes)))
    return count
