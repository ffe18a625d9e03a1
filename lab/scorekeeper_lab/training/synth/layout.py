"""Where cards lie on the table: singles, melds, fanned hands, piles, face-down stock.

A layout is a z-ordered list of `Placement`s (bottom first) in table-plane pixels. Geometry is
chosen the way people put cards down: a meld is a row in which every card hides all but the
left index strip of the card below; a fanned hand turns each card a little more clockwise
about a pivot under the cards, so only the top-left index of the under-cards shows; a pile is
a heap of loosely turned cards. Any group may be turned upside down (the far player's melds),
and all cards of a scene share one size, as they do under one camera.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorekeeper_lab.training.synth.deckset import Deck, Face

Size = tuple[int, int]


@dataclass
class Placement:
    deck: Deck
    face: Face | None  # None: lying face down (its back shows)
    centre: tuple[float, float]
    angle: float  # degrees, clockwise on screen (image y points down)
    width: float  # card short side in table pixels


def rot(deg: float) -> np.ndarray:
    t = np.deg2rad(deg)
    return np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])


class _Pool:
    """Cards still in the box: one or two physical decks of one or two designs."""

    def __init__(self, rng: np.random.Generator, decks: list[Deck]) -> None:
        self.rng = rng
        pick = rng.choice(len(decks), size=min(len(decks), 2 if rng.random() < 0.2 else 1),
                          replace=False)
        copies = 2 if rng.random() < 0.5 else 1
        self.cards = [(decks[int(i)], f) for i in pick for f in decks[int(i)].faces
                      for _ in range(copies)]
        self.used: list[tuple[Deck, Face]] = []
        self.decks = [decks[int(i)] for i in pick]

    def draw(self) -> tuple[Deck, Face]:
        r = self.rng.random()
        if r < 0.06 and self.used:  # an identical twin of a card already down (two decks)
            card = self.used[int(self.rng.integers(len(self.used)))]
        elif r < 0.10:  # jokers are wild in rummy: show them more often than 2 in 108
            deck = self.decks[int(self.rng.integers(len(self.decks)))]
            jokers = deck.by_card.get("JK") or deck.faces
            card = (deck, jokers[int(self.rng.integers(len(jokers)))])
        else:
            card = self.cards.pop(int(self.rng.integers(len(self.cards)))) if self.cards \
                else self.used[0]
        self.used.append(card)
        return card

    def back(self) -> Deck:
        return self.decks[int(self.rng.integers(len(self.decks)))]


def _angle(rng: np.random.Generator) -> float:
    """Mostly squared to the table edge (any side), sometimes anything."""
    if rng.random() < 0.35:
        return float(rng.uniform(0, 360))
    return float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 8))


def _aspect(deck: Deck) -> float:
    h, w = deck.back.shape[:2]
    return float(h / w)


def single(rng: np.random.Generator, pool: _Pool, c: np.ndarray, s: float) -> list[Placement]:
    deck, face = pool.draw()
    return [Placement(deck, face, (c[0], c[1]), float(rng.uniform(0, 360)), s)]


def meld(rng: np.random.Generator, pool: _Pool, c: np.ndarray, s: float) -> list[Placement]:
    n = int(rng.integers(3, 7))
    theta = _angle(rng)
    vertical = rng.random() < 0.25  # cascaded down the table: the top index strip shows
    step = rng.uniform(0.2, 0.38) * s * (_aspect(pool.decks[0]) if vertical else 1.0)
    axis = rot(theta) @ (np.array([0.0, 1.0]) if vertical else np.array([1.0, 0.0]))
    start = c - axis * step * (n - 1) / 2
    out = []
    for k in range(n):
        deck, face = pool.draw()
        p = start + axis * step * k + rng.normal(0, 0.01 * s, 2)
        out.append(Placement(deck, face, (p[0], p[1]), theta + rng.normal(0, 1.5), s))
    return out


def fan(rng: np.random.Generator, pool: _Pool, c: np.ndarray, s: float,
        tight: float = 0.0) -> list[Placement]:
    """A hand held fanned; with probability `tight`, 2–6° a card instead of 6–14°, so each
    card hides part of the index of the one under it (a player's hand in one fist)."""
    n = int(rng.integers(4, 12))
    theta = _angle(rng)
    height = s * _aspect(pool.decks[0])
    radius = rng.uniform(0.7, 1.3) * height
    close = bool(tight) and rng.random() < tight  # no draw when off: scenes stay the same
    spread = rng.uniform(2, 6) * (n - 1) if close else rng.uniform(6, 14) * (n - 1)
    pivot = c + rot(theta) @ np.array([0.0, radius])
    out = []
    for k in range(n):
        phi = theta - spread / 2 + spread * k / max(1, n - 1) + rng.normal(0, 0.8)
        p = pivot + rot(phi) @ np.array([0.0, -radius])
        deck, face = pool.draw()
        out.append(Placement(deck, face, (p[0], p[1]), phi, s))
    return out


def pile(rng: np.random.Generator, pool: _Pool, c: np.ndarray, s: float) -> list[Placement]:
    out = []
    base = float(rng.uniform(0, 360))
    for _ in range(int(rng.integers(2, 7))):
        deck, face = pool.draw()
        p = c + rng.normal(0, 0.12 * s, 2)
        out.append(Placement(deck, face, (p[0], p[1]), base + rng.normal(0, 25), s))
    return out


def face_down(rng: np.random.Generator, pool: _Pool, c: np.ndarray, s: float) -> list[Placement]:
    deck = pool.back()
    theta = _angle(rng)
    n = 1 if rng.random() < 0.5 else int(rng.integers(2, 10))
    spread = rng.uniform(0, 0.02) * s
    return [Placement(deck, None, (c[0] + k * spread, c[1] - k * spread),
                      theta + rng.normal(0, 2), s) for k in range(n)]


GROUPS = (single, meld, fan, pile, face_down)
WEIGHTS = np.array([0.25, 0.33, 0.2, 0.1, 0.12])


def card_scale(rng: np.random.Generator, size: Size) -> float:
    """Card short side in pixels: mostly 8–25 % of the image's short side, some smaller, and
    a few close-ups (the real development photos have cards up to ~45 %)."""
    short = min(size)
    r = rng.random()
    if r < 0.15:
        return short * rng.uniform(0.05, 0.08)
    if r < 0.25:
        return short * rng.uniform(0.25, 0.45)
    return short * rng.uniform(0.08, 0.25)


def layout(rng: np.random.Generator, decks: list[Deck], size: Size,
           tight_fans: float = 0.0) -> list[Placement]:
    """Z-ordered placements for one table; `tight_fans`: the share of fans drawn tight."""
    w, h = size
    s = card_scale(rng, size)
    pool = _Pool(rng, decks)
    room = (w * h) / (s * s * 1.4)  # how many cards would tile the table
    groups = int(np.clip(rng.integers(1, 8) * min(1.0, room / 25), 1, 7))
    out: list[Placement] = []
    for _ in range(groups):
        kind = GROUPS[int(rng.choice(len(GROUPS), p=WEIGHTS / WEIGHTS.sum()))]
        edge = 0.05 if rng.random() < 0.2 else -0.15  # most groups lie well inside the view
        c = np.array([rng.uniform(-edge, 1 + edge) * w, rng.uniform(-edge, 1 + edge) * h])
        scale = s * rng.uniform(0.96, 1.04)
        group = fan(rng, pool, c, scale, tight_fans) if kind is fan else kind(rng, pool, c, scale)
        if kind is not fan and rng.random() < 0.15:  # upside down: the other corner reads
            group = [Placement(p.deck, p.face, p.centre, p.angle + 180, p.width) for p in group]
        out.extend(group)
    return out
