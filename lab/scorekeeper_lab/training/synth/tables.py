"""Specified tables: a given layout of melds, fans and single cards, rendered mildly.

`compose_scene` draws random tables for training; this draws the table a test asks for, so
an end-to-end test knows exactly what lies where. A spec is a list of groups, bottom first:

    {"kind": "meld", "cards": ["5H", "6H", "7H"], "at": [0.3, 0.25], "angle": 0}

`at` is the group's centre as fractions of the image width and height, `angle` degrees
clockwise. A meld is an overlapping row in which every card hides all but the left index
strip of the card below (as `layout.meld`); a fan turns each card a little further clockwise
about a pivot under the hand, so only the top-left index of the under-cards shows (as
`layout.fan`); a single is one loose card. The same code twice is two physical cards (two
decks of one design); `JK` is the deck's joker (see `with_joker` for decks printed without
one). Optional per group: `step` (meld cards apart, in card widths), `spread` (fan degrees
between cards) and `radius` (fan pivot below the middle card, in card heights).

The rendering is deliberately mild (a camera looking straight down on felt or wood, even
light, a little blur and sensor noise) so a failed read points at the reader, not at
hard conditions. The pieces are the random renderer's: `backgrounds`, `_prepare`, `_paste`
and `_labels` from `compose`. `lay_cards` pastes a spec on any background (`games` lays its
game tables with it on every surface and on the scan mat), `photograph` is the mild look.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper_lab.training.synth import backgrounds
from scorekeeper_lab.training.synth.compose import (
    LEGACY,
    PlacedCard,
    _labels,
    _paste,
    _prepare,
    _to_table,
)
from scorekeeper_lab.training.synth.deckset import Deck, Face
from scorekeeper_lab.training.synth.layout import Placement, _aspect, rot

Size = tuple[int, int]
KINDS = ("meld", "fan", "single")
# card widths between meld cards: each index strip shows whole with room to the next card's
# edge, and neighbouring indices stay within the scan's clustering gap (layout.NEIGHBOUR_GAP)
MELD_STEP = 0.26
FAN_SPREAD = 11.0  # degrees between fanned cards
CARD_FRAC = 0.14  # card short side / image short side


def _face(deck: Deck, code: str) -> Face:
    faces = deck.by_card.get(code)
    if not faces:
        hint = " (add one with tables.with_joker)" if code == "JK" else ""
        raise KeyError(f"deck {deck.name} has no {code}{hint}")
    return faces[0]


def _group(g: dict[str, Any], deck: Deck, size: Size, s: float) -> list[Placement]:
    kind, cards = g.get("kind"), g.get("cards")
    if kind not in KINDS:
        raise ValueError(f"group kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not cards or not isinstance(cards, list):
        raise ValueError(f"a {kind} needs a list of cards, got {cards!r}")
    if kind == "single" and len(cards) != 1:
        raise ValueError(f"a single is one card, got {cards}")
    w, h = size
    c = np.array([float(g["at"][0]) * w, float(g["at"][1]) * h])
    theta = float(g.get("angle", 0.0))
    faces = [_face(deck, code) for code in cards]
    n = len(faces)
    if kind == "single":
        return [Placement(deck, faces[0], (c[0], c[1]), theta, s)]
    if kind == "meld":
        step = float(g.get("step", MELD_STEP)) * s
        axis = rot(theta) @ np.array([1.0, 0.0])
        start = c - axis * step * (n - 1) / 2
        return [Placement(deck, f, tuple(start + axis * step * k), theta, s)
                for k, f in enumerate(faces)]
    radius = float(g.get("radius", 1.0)) * s * _aspect(deck)
    spread = float(g.get("spread", FAN_SPREAD)) * (n - 1)
    pivot = c + rot(theta) @ np.array([0.0, radius])
    out = []
    for k, f in enumerate(faces):
        phi = theta - spread / 2 + spread * k / max(1, n - 1)
        p = pivot + rot(phi) @ np.array([0.0, -radius])
        out.append(Placement(deck, f, (p[0], p[1]), phi, s))
    return out


def _light(rng: np.random.Generator, canvas: np.ndarray) -> None:
    """Gentle, even room light: a faint ramp and a little vignetting (in place)."""
    h, w = canvas.shape[:2]
    yy, xx = backgrounds.grid((w, h))
    ang = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.float32(np.cos(ang)) + yy * np.float32(np.sin(ang))) / np.float32(max(w, h))
    gain = 1 + np.float32(0.08) * (ramp - ramp.mean())
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / np.float32(0.25 * (w * w + h * h))
    gain *= 1 - np.float32(0.06) * r2
    canvas *= gain[..., None]


def _shoot(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """A camera straight above: slight optical blur, a little sensor noise."""
    img = cv2.GaussianBlur(canvas, (0, 0), 0.6)
    img += backgrounds.gauss(rng, img.shape, 2.0)
    return np.clip(img, 0, 255).astype(np.uint8)


def photograph(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """The mild look: `_light` on `canvas` (in place), then `_shoot`."""
    _light(rng, canvas)
    return _shoot(rng, canvas)


@dataclass
class Laid:
    """Cards pasted on a canvas: which card owns each pixel, the cards, each card's group."""

    owner: np.ndarray
    placed: list[PlacedCard]
    group_of: list[int]


def lay_cards(spec: list[dict[str, Any]], deck: Deck, canvas: np.ndarray, s: float,
              rng: np.random.Generator) -> Laid:
    """The cards of `spec` (groups bottom first, see the module docstring) pasted on
    `canvas`, a float32 BGR background of any surface (in place), `s` pixels a card's short
    side; their shadows fall one way, their brightness varies a little."""
    h, w = canvas.shape[:2]
    size = (w, h)
    laid = Laid(np.full((h, w), -1, np.int32), [], [])
    light_dir = rng.uniform(-1, 1, 2)
    for gi, g in enumerate(spec):
        for p in _group(g, deck, size, s):
            cid = len(laid.placed)
            img, m, k = _prepare(p)
            shadow = (light_dir[0] * 0.02 * s, light_dir[1] * 0.02 * s, 0.02 * s, 0.3)
            light = np.float32(rng.uniform(0.96, 1.02)) * np.ones(3, np.float32)
            _paste(canvas, laid.owner, img, m, cid, light, shadow)
            assert p.face is not None
            area = float((img[:, :, 3] > 127).sum()) * abs(np.linalg.det(m[:, :2]))
            quads = [_to_table(m, k, np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float))
                     for x1, y1, x2, y2 in p.face.index]
            fh, fw = p.face.image.shape[:2]
            outline = _to_table(m, k, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float))
            laid.placed.append(PlacedCard(cid, p.face.card, deck.name, area, quads, outline))
            laid.group_of.append(gi)
    return laid


def render_table(spec: list[dict[str, Any]], deck: Deck, size: Size = (1280, 960),
                 seed: int = 0, card_frac: float = CARD_FRAC,
                 surface: str = "felt") -> tuple[np.ndarray, dict[str, Any]]:
    """(BGR image, truth) for the table `spec` describes; see the module docstring.

    truth = {"size", "deck", "card_width", "groups": [{"kind", "cards"}],
             "cards": [{"card", "group", "outline", "box", "indices"}]} where `outline` is
    the card's four corners and `box` its axis-aligned bbox in image pixels, and
    `indices` the boxes of the corner indices that show (at least 60 % visible).
    """
    if surface not in ("felt", "wood"):
        raise ValueError(f"surface must be felt or wood, got {surface!r}")
    rng = np.random.default_rng(seed)
    w, h = size
    s = card_frac * min(size)
    canvas = getattr(backgrounds, surface)(rng, size).astype(np.float32)
    laid = lay_cards(spec, deck, canvas, s, rng)
    image = photograph(rng, canvas)
    labels = _labels(laid.owner, laid.placed, np.eye(3), size, LEGACY)
    cards = []
    for pc, gi in zip(laid.placed, laid.group_of, strict=True):
        out = pc.outline
        lo, hi = np.clip(out.min(0), 0, (w, h)), np.clip(out.max(0), 0, (w, h))
        cards.append({
            "card": pc.card, "group": gi,
            "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in out],
            "box": [round(float(v), 1) for v in (*lo, *hi)],
            "indices": [lab["box"] for lab in labels
                        if lab["card_id"] == pc.card_id and lab["kind"] == "index"],
        })
    truth = {"size": [w, h], "deck": deck.name, "card_width": round(s, 1),
             "groups": [{"kind": g["kind"], "cards": list(g["cards"])} for g in spec],
             "cards": cards}
    return image, truth


# ---- a joker for decks printed without a usable one ----------------------------------------

JOKER_RED = (30, 30, 200)


def _star_in_ring(d: int, colour: tuple[int, int, int]) -> np.ndarray:
    """A five-pointed star inside a ring, d × d BGRA (drawn 8× larger, then shrunk)."""
    k = 8
    big = np.zeros((d * k, d * k, 4), np.uint8)
    c = d * k / 2
    cv2.circle(big, (round(c), round(c)), round(c - k), (*colour, 255), round(d * k * 0.09),
               cv2.LINE_AA)
    a = -np.pi / 2 + np.arange(10) * np.pi / 5
    r = np.where(np.arange(10) % 2 == 0, 0.62 * c, 0.25 * c)
    pts = np.stack([c + r * np.cos(a), 1.04 * c + r * np.sin(a)], 1)
    cv2.fillPoly(big, [np.round(pts).astype(np.int32)], (*colour, 255), cv2.LINE_AA)
    return cv2.resize(big, (d, d), interpolation=cv2.INTER_AREA)


def with_joker(deck: Deck, art: np.ndarray | None = None, picture: float = 0.7) -> Deck:
    """`deck` plus a joker face, unchanged when it has one.

    The face is `art` (BGRA, e.g. `kennard_joker_art`; without it, a blank card of the deck's
    stock) with its picture shrunk by `picture` so it clears the corners, and a star in a
    ring printed in the top-left corner and, turned, in the bottom-right: the joker index of
    the GNOME anglo-modern, simplistic and plastic designs, which the reader has learned.
    """
    if deck.by_card.get("JK"):
        return deck
    ref = deck.faces[0].image
    h, w = ref.shape[:2]
    src = ref if art is None else cv2.resize(art, (w, h), interpolation=cv2.INTER_AREA)
    inside = cv2.erode((src[:, :, 3] > 127).astype(np.uint8), np.ones((15, 15), np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0  # within the frame
    face = src.copy()
    face[inside, :3] = 255
    if art is not None:
        inner = np.full((h, w, 3), 255, np.uint8)
        inner[inside] = src[inside, :3]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), 0, picture)
        pic = cv2.warpAffine(inner, m, (w, h), borderValue=(255, 255, 255))
        face[inside, :3] = np.minimum(face[inside, :3], pic[inside])
    x1, y1, _, _ = deck.faces[0].index[0]  # the deck's own corner position
    mark = _star_in_ring(round(w / 6), JOKER_RED)
    d = mark.shape[0]
    for img, (ox, oy) in ((mark, (x1, y1)), (cv2.rotate(mark, cv2.ROTATE_180),
                                             (w - x1 - d, h - y1 - d))):
        roi = face[oy:oy + d, ox:ox + d]
        alpha = img[:, :, 3:4].astype(np.float32) / 255
        roi[:, :, :3] = (roi[:, :, :3] * (1 - alpha) + img[:, :, :3] * alpha).astype(np.uint8)
    m_ = max(2, round(0.012 * w))
    tl = (max(0, x1 - m_), max(0, y1 - m_), min(w, x1 + d + m_), min(h, y1 + d + m_))
    br = (w - tl[2], h - tl[3], w - tl[0], h - tl[1])
    return Deck(deck.name, deck.back, [*deck.faces, Face("JK", face, [tl, br])])


def kennard_joker_art(npm_package: Path, design: str = "2color") -> np.ndarray | None:
    """The Kennard joker picture (react-playing-cards `2J.svg`, CC0 art), rasterised like
    the deck's other faces; None without the package or rsvg-convert."""
    from scorekeeper_lab.training.synth import raster

    path = npm_package / "src" / "images" / design / "2J.svg"
    if not path.exists() or not raster.have_rsvg():
        return None
    zoom = raster.zoom_for(str(path), None)
    img = raster.rasterize(str(path), None, zoom) if zoom else None
    return raster.to_face(img) if img is not None else None


# ---- the named tables behind tests/fixtures/layouts ---------------------------------------

def _meld(cards: str, x: float, y: float, angle: float = 0.0) -> dict[str, Any]:
    return {"kind": "meld", "cards": cards.split(), "at": [x, y], "angle": angle}


def _fan(cards: str, x: float, y: float, angle: float = 0.0) -> dict[str, Any]:
    return {"kind": "fan", "cards": cards.split(), "at": [x, y], "angle": angle}


def _single(card: str, x: float, y: float, angle: float = 0.0) -> dict[str, Any]:
    return {"kind": "single", "cards": [card], "at": [x, y], "angle": angle}


LAYOUTS: dict[str, dict[str, Any]] = {
    # Rummy: a run and a set laid down, three leftover cards fanned in the hand
    "melds-rummy": {"surface": "felt", "spec": [
        _meld("5H 6H 7H 8H", 0.28, 0.26),
        _meld("KC KD KS", 0.72, 0.26, 4),
        _fan("2C QS 9D", 0.5, 0.74),
    ]},
    # two decks of one design: the seven of spades twice, apart, beside a run
    "two-decks": {"surface": "wood", "spec": [
        _meld("4D 5D 6D", 0.28, 0.28),
        _single("7S", 0.72, 0.26, 8),
        _single("7S", 0.62, 0.74, -6),
        _single("JH", 0.25, 0.74, 3),
    ]},
    # Rummy 500: the joker stands in for the jack of clubs; two loose cards
    "joker": {"surface": "felt", "spec": [
        _meld("9C 10C JK QC", 0.3, 0.28),
        _single("3D", 0.74, 0.28, -5),
        _single("8S", 0.5, 0.74, 4),
    ]},
    # Chicago: a knocker shows eight cards, two melds and two deadwood cards
    "chicago-knock": {"surface": "wood", "spec": [
        _meld("4S 5S 6S", 0.27, 0.27),
        _meld("9H 9D 9C", 0.7, 0.27, -3),
        _single("KD", 0.35, 0.74, 2),
        _single("3C", 0.68, 0.74, -4),
    ]},
    # one hand of seven fanned as it is held
    "fan": {"surface": "felt", "spec": [
        _fan("3C 4C 5C 8H 10S JD KS", 0.5, 0.42),
    ]},
}
