"""The fan benchmark's scenes: tight hands, every face-up card labelled however little shows.

`scorekeeper-lab eval --fans DIR` (`vision/fan_eval.py`) scores a model on them by how much of
each card's best corner index the next card covers. The random training scenes hold few
tight fans and label only indices a camera reads whole, so neither they nor the held-out
figure tell how a hand held in one fist reads. Here each scene holds one or two fans of
5–11 cards turned 1.5–7° apart (a quarter to nearly all of each under-card's index hidden),
cards large enough (indices about 25–40 px) that size is not what is measured, on the
random tables and light of the training scenes, without print or other cards.

`spread`: a hand spread so that every index shows: one fan turned 8–16° a card on the same
tables and light, drawn again until every card's best corner is at most the given share
covered (`spread_ok`), the hand the live count asks the players for. `apart`: the same
hands laid out side by side, in up to three rows, drawn again until each card shows two
corners at most the given share covered (`apart_ok`): a card read from both its corners.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper_lab.evaluation.fan_eval import CORNER_KINDS, fan_truth
from scorekeeper_lab.training.synth.compose import Scene, Style, compose_scene
from scorekeeper_lab.training.synth.dataset import JPEG_QUALITY
from scorekeeper_lab.training.synth.deckset import Deck, Face
from scorekeeper_lab.training.synth.layout import Placement, _angle, _aspect, _Pool, rot

# every corner labelled with its visible share: "index" when whole, else by what shows
STYLE = Style(distractors=0.0, readable=True)
STEP_DEG = (1.5, 7.0)  # each card turned this much past the one under it
CARDS = (5, 11)
DECK_STEP_DEG = (4.0, 8.0)  # a deck fanned to be photographed: every index strip shows
SPREAD_STEP_DEG = (8.0, 16.0)  # a hand spread so each index shows (`spread_places`)
SPREAD_TRIES = 400  # layouts drawn for one spread scene before giving up


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


def spread_places(rng: np.random.Generator, decks: list[Deck], size: tuple[int, int]
                  ) -> list[Placement]:
    """One hand, turned `SPREAD_STEP_DEG` a card, near the middle of the view."""
    w, h = size
    s = min(size) * rng.uniform(0.2, 0.28)
    c = np.array([rng.uniform(0.42, 0.58) * w, rng.uniform(0.42, 0.58) * h])
    return tight_fan(rng, _Pool(rng, decks), c, s, steps=SPREAD_STEP_DEG)


def spread_ok(labels: list[dict[str, Any]], cards: int, covered: float) -> bool:
    """Every one of the `cards` face-up cards shows a corner, its best at most `covered`
    (a share) covered: what `eval --fans` bands by (`fan_eval.fan_truth`)."""
    truth = fan_truth(labels)
    return len(truth) == cards and all(1.0 - t["visible"] <= covered for t in truth.values())


def apart_places(rng: np.random.Generator, decks: list[Deck], size: tuple[int, int]
                 ) -> list[Placement]:
    """One hand of `CARDS` laid out in rows, a little apart and askew, the whole turned
    as a hand lies on the table; cards as large as a fan's on a view of `size`."""
    w, h = size
    pool = _Pool(rng, decks)
    n = int(rng.integers(CARDS[0], CARDS[1] + 1))
    s = min(640, *size) * rng.uniform(0.2, 0.28)  # a 640 view's fan's cards, in pixels
    tall = s * _aspect(pool.decks[0])
    rows = int(np.ceil(n / max(1, int((w * 0.92) // (s * 1.12)))))
    cols = int(np.ceil(n / rows))
    theta = float(rng.normal(0, 6)) + float(rng.choice([0, 180]))
    c = np.array([w / 2, h / 2]) + rng.uniform(-0.04, 0.04, 2) * np.array([w, h])
    out = []
    for k in range(n):
        r, q = divmod(k, cols)
        off = np.array([(q - (cols - 1) / 2) * s * 1.12, (r - (rows - 1) / 2) * tall * 1.08])
        p = c + rot(theta) @ off + rng.normal(0, 0.02 * s, 2)
        deck, face = pool.draw()
        out.append(Placement(deck, face, (float(p[0]), float(p[1])),
                             theta + float(rng.normal(0, 3)), s))
    return out


def apart_ok(labels: list[dict[str, Any]], cards: int, covered: float) -> bool:
    """Every one of the `cards` face-up cards shows two corners, each at most `covered`
    (a share) covered."""
    shown: dict[int, int] = {}
    for o in labels:
        if o["kind"] in CORNER_KINDS and o.get("card") is not None:
            shown[o["card_id"]] = shown.get(o["card_id"], 0) + (1.0 - o["visible"] <= covered)
    return len(shown) == cards and all(v >= 2 for v in shown.values())


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
                size: tuple[int, int] = (640, 640), each: bool = False,
                spread: float | None = None, apart: float | None = None) -> int:
    """Write scenes 0..count-1 as `render` does (images/, cards/); returns how many.
    `each`: every scene deals from one face of each card (`one_of_each`); `spread`: spread
    hands, every card's best corner at most this share covered (`spread_ok`); `apart`:
    hands laid apart, each card's two corners at most this share covered (`apart_ok`)."""
    meta = {"fans": True, "seed": seed, "size": list(size),
            "step_deg": SPREAD_STEP_DEG if spread is not None else STEP_DEG,
            "decks": sorted({d.name for d in decks}), **({"one_of_each": True} if each else {}),
            **({"spread": spread} if spread is not None else {}),
            **({"apart": apart} if apart is not None else {})}
    hand = ((spread_places, spread_ok, spread) if spread is not None else
            (apart_places, apart_ok, apart) if apart is not None else None)

    def compose(rng: np.random.Generator) -> Scene:
        if hand is None:
            dealt = scene_decks(rng, decks, each)
            return compose_scene(rng, dealt, size, STYLE, fan_places(rng, dealt, size))
        places_of, ok, share = hand
        for _ in range(SPREAD_TRIES):
            dealt = scene_decks(rng, decks, each)
            places = places_of(rng, dealt, size)
            scene = compose_scene(rng, dealt, size, STYLE, places)
            if ok(scene.labels, len(places), share):
                return scene
        raise RuntimeError(f"no hand with its corners ≤ {share:.0%} covered "
                           f"in {SPREAD_TRIES} draws")

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
