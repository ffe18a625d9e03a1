"""Indices a deck has no crop of, composed from its own glyphs: the rank cut from a card of
that rank, the suit pip from a card of that suit, both in the deck's print.

A 53-way classifier fine-tuned on one photo of a deck learns the deck's "7" from the 7♠ it
saw and does not carry it to the 7♥ it did not (measured: docs/decks.md, the gain
in the cards trained on, none in the held-back ones). So every card of the deck without a
training crop (the cards the install check holds back, a card the photo showed unboxed) is
composed: a crop of its rank in another suit, its pip erased (inpainted from the paper
around it) and the pip of a crop of its suit laid in its place, turned and scaled to the
rank's index; the rank's ink is recoloured to the pip's where the two suits differ in
colour. The crop keeps the rank donor's paper, light and neighbours, so the composed index
sits in a real fan of the deck. No pixel of a card held back is used, so the check still
measures the adapted model on cards it never saw.

Which end of an index is its pip is told by the deck itself: the pip end of a card matches
an end of every other card of its suit (the same symbol), its rank end matches none of
them (another rank). An index whose split is unsure (a covered pip, a single blob, an end
no card of its suit resembles) gives no glyph.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scorekeeper.decks.examples import STORE
from scorekeeper_lab.training.covered import Lie, index_lie, paper

Box = tuple[float, float, float, float]
PATCH = 20  # side of an end's normalised ink patch, for telling pip from rank
MIN_MATCH = 0.35  # least mean similarity of a pip to its suit's other pips
MIN_MARGIN = 0.08  # least lead of the pip end over the rank end
RED_SUITS = frozenset("DH")


@dataclass(frozen=True)
class Glyphs:
    """One index crop split into its rank and its pip (both boolean masks of the crop), with
    `up` the unit vector from pip to rank, `length` the index's extent along it, and the
    colours of its paper and its pip's ink."""

    crop: np.ndarray
    card: str
    box: Box
    rank: np.ndarray
    pip: np.ndarray
    up: np.ndarray
    pip_centre: np.ndarray
    length: float
    paper: np.ndarray
    ink: np.ndarray


@dataclass(frozen=True)
class _Ends:
    """An index's ink cut at its rank/pip gap: the masks of its two ends along the lie's
    `v` (first: lower `v`) and their normalised patches."""

    lie: Lie
    ink: np.ndarray
    masks: tuple[np.ndarray, np.ndarray]
    patches: tuple[np.ndarray, np.ndarray]


def _ink(crop: np.ndarray, lie: Lie) -> np.ndarray:
    """The index's ink: pixels darker than the paper within the lie's extent (a margin
    around it), so a neighbour's print beyond it is left out."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ys, xs = np.mgrid[0:STORE, 0:STORE].astype(np.float32) + 0.5
    a, b = lie.frame(xs, ys)
    m = 0.12 * max(lie.width, 1.0)
    inside = ((a >= lie.across[0] - m) & (a <= lie.across[1] + m)
              & (b >= lie.along[0] - m) & (b <= lie.along[1] + m))
    if not inside.any():
        return inside
    hi, lo = float(np.quantile(grey[inside], 0.9)), float(np.quantile(grey[inside], 0.05))
    return inside & (grey < hi - max(25.0, 0.4 * (hi - lo)))


def _patch(mask: np.ndarray, lie: Lie) -> np.ndarray:
    """An end's ink in the index's own frame, centred on its ink and scaled to the index's
    width: comparable across crops whatever their turn and scale."""
    ys, xs = np.nonzero(mask)
    out = np.zeros((PATCH, PATCH), np.float32)
    if xs.size == 0:
        return out
    a, b = lie.frame(xs.astype(np.float32) + 0.5, ys.astype(np.float32) + 0.5)
    scale = PATCH / (1.1 * max(lie.width, 1.0))
    u = np.clip(((a - a.mean()) * scale + PATCH / 2).astype(int), 0, PATCH - 1)
    v = np.clip(((b - b.mean()) * scale + PATCH / 2).astype(int), 0, PATCH - 1)
    out[v, u] = 1.0
    return cv2.GaussianBlur(out, (0, 0), 0.8)


def _similar(p: np.ndarray, q: np.ndarray) -> float:
    """Normalised correlation of two patches, the better of as they are and one turned
    half round (an index's frame has no known sign)."""
    def ncc(x: np.ndarray, y: np.ndarray) -> float:
        x, y = x - x.mean(), y - y.mean()
        d = float(np.sqrt((x * x).sum() * (y * y).sum()))
        return float((x * y).sum() / d) if d > 0 else 0.0

    return max(ncc(p, q), ncc(p, q[::-1, ::-1]))


def _ends(crop: np.ndarray, box: Box) -> _Ends | None:
    """The index's ink parted into its two ends (rank and pip) at the widest gap along its
    lie between its blobs; card edges (long thin blobs) are left out. None where its lie is
    unknown or no blob-free gap parts it."""
    lie = index_lie(crop, box, np.random.default_rng(0))
    if not lie.known:
        return None
    ink = _ink(crop, lie)
    # a card's edge line is thinner than a glyph's stroke: opened away, it joins no glyph
    opened = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(np.asarray(opened, np.uint8),
                                                               connectivity=8)
    yy, xx = np.mgrid[0:STORE, 0:STORE].astype(np.float32) + 0.5
    aa, bb = lie.frame(xx, yy)
    length = lie.along[1] - lie.along[0]
    found = []
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_AREA] < 4:
            continue
        mask = labels == k
        a, b = aa[mask], bb[mask]
        found.append((float(b.min()), float(b.max()), float(a.min()), float(a.max()), mask))
    if not found:
        return None
    # the index's own glyphs lie in one column along its lie; a neighbour's lie beside it
    main = max(found, key=lambda t: int(t[4].sum()))
    def beside_main(t: tuple) -> bool:
        overlap = min(t[3], main[3]) - max(t[2], main[2])
        return overlap >= 0.3 * min(t[3] - t[2], main[3] - main[2])

    blobs = [(t[0], t[1], t[4]) for t in found if beside_main(t)]
    if len(blobs) < 2:
        return None
    blobs.sort(key=lambda t: t[0] + t[1])
    best, cut = 0.0, -1
    for k in range(1, len(blobs)):
        gap = min(t[0] for t in blobs[k:]) - max(t[1] for t in blobs[:k])
        if gap > best:
            best, cut = gap, k
    if cut < 0 or best < 0.04 * length:
        return None
    masks = (np.logical_or.reduce([t[2] for t in blobs[:cut]]),
             np.logical_or.reduce([t[2] for t in blobs[cut:]]))
    if min(m.sum() for m in masks) < 8:
        return None
    return _Ends(lie, ink, masks, (_patch(masks[0], lie), _patch(masks[1], lie)))


def split_deck(crops: list[np.ndarray], cards: list[str], boxes: list[Box]
               ) -> dict[int, Glyphs]:
    """The glyphs of every index crop (position → Glyphs) whose pip end the deck's other
    cards of its suit tell surely (module docstring)."""
    ends = {i: e for i, (c, b, card) in enumerate(zip(crops, boxes, cards, strict=True))
            if card not in ("none", "JK") and (e := _ends(c, b)) is not None}
    out: dict[int, Glyphs] = {}
    for i, e in ends.items():
        suit = cards[i][-1]
        mates = [ends[j] for j in ends if j != i and cards[j][-1] == suit
                 and cards[j][:-1] != cards[i][:-1]]
        if not mates:
            continue
        score = [float(np.mean([max(_similar(p, m.patches[0]), _similar(p, m.patches[1]))
                                for m in mates])) for p in e.patches]
        pip_end = int(score[1] > score[0])
        if score[pip_end] < MIN_MATCH or score[pip_end] - score[1 - pip_end] < MIN_MARGIN:
            continue
        out[i] = _glyphs(crops[i], cards[i], boxes[i], e, pip_end)
    return out


def _glyphs(crop: np.ndarray, card: str, box: Box, e: _Ends, pip_end: int) -> Glyphs:
    pip, rank = e.masks[pip_end], e.masks[1 - pip_end]
    up = e.lie.v * (1.0 if pip_end == 0 else -1.0)  # v grows from end 0 to end 1
    ys, xs = np.nonzero(pip)
    centre = np.array([xs.mean() + 0.5, ys.mean() + 0.5], np.float32)
    return Glyphs(crop, card, box, rank, pip, up.astype(np.float32), centre,
                  e.lie.along[1] - e.lie.along[0], paper(crop),
                  np.median(crop[pip].reshape(-1, 3).astype(np.float32), axis=0))


def compose(rank: Glyphs, pip: Glyphs, rng: np.random.Generator) -> np.ndarray:
    """`rank`'s crop with its pip replaced by `pip`'s, turned and scaled to `rank`'s index
    and relit to its paper; its rank recoloured to the pip's ink where their suits differ in
    colour. A stored crop (STORE × STORE) of the card `rank`'s rank of `pip`'s suit."""
    out = rank.crop.copy()
    hole = cv2.dilate(rank.pip.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=1)
    out = cv2.inpaint(out, hole, 3, cv2.INPAINT_TELEA)
    light = rank.paper / np.maximum(pip.paper, 1.0)
    ink = np.clip(pip.ink * light, 0, 255)
    if (rank.card[-1] in RED_SUITS) != (pip.card[-1] in RED_SUITS):
        out = _recolour(out, rank, ink)
    # the pip donor's crop mapped so its pip centre and `up` meet the rank's
    # the same symbol at the rank's scale: the two pips' ink areas (an index's length would
    # take in a neighbour's ink)
    s = math.sqrt(rank.pip.sum() / max(pip.pip.sum(), 1)) * float(rng.uniform(0.95, 1.05))
    turn = math.atan2(float(rank.up[1]), float(rank.up[0])) - \
        math.atan2(float(pip.up[1]), float(pip.up[0]))
    c, sn = math.cos(turn) * s, math.sin(turn) * s
    m = np.array([[c, -sn, 0.0], [sn, c, 0.0]], np.float32)
    m[:, 2] = rank.pip_centre - m[:, :2] @ pip.pip_centre
    soft = np.clip(1.3 * _inkness(pip.crop, pip.paper, pip.ink), 0, 1) * cv2.dilate(
        pip.pip.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(np.float32)
    alpha = cv2.warpAffine(soft, m, (STORE, STORE), flags=cv2.INTER_LINEAR)[..., None]
    drawn = cv2.warpAffine(pip.crop, m, (STORE, STORE), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE).astype(np.float32) * light
    mixed = out.astype(np.float32) * (1 - alpha) + drawn * alpha
    return np.clip(mixed, 0, 255).astype(np.uint8)


def _inkness(crop: np.ndarray, paper_bgr: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """How much of each pixel is ink, 0 (paper) to 1 (ink), along paper → ink."""
    d = ink - paper_bgr
    t = ((crop.astype(np.float32) - paper_bgr) @ d) / max(float(d @ d), 1.0)
    return np.clip(t, 0.0, 1.0).astype(np.float32)


def _recolour(out: np.ndarray, rank: Glyphs, ink: np.ndarray) -> np.ndarray:
    """The rank's ink in the other colour: each pixel's inkness kept, its ink swapped."""
    own_ink = np.median(rank.crop[rank.rank].reshape(-1, 3).astype(np.float32), axis=0)
    mask = cv2.dilate(rank.rank.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    t = _inkness(out, rank.paper, own_ink)[..., None]
    swapped = rank.paper * (1 - t) + ink * t
    res = out.astype(np.float32)
    res[mask] = swapped[mask]
    return np.clip(res, 0, 255).astype(np.uint8)


@dataclass(frozen=True)
class Composed:
    """A composed stored crop of `card`, its index where the rank donor's box was, and
    the two donors' cards."""

    crop: np.ndarray
    box: Box
    card: str
    rank_from: str
    pip_from: str


def composed_crops(glyphs: dict[int, Glyphs], wanted: list[str], per_card: int,
                   rng: np.random.Generator) -> list[Composed]:
    """Up to `per_card` composed crops of each `wanted` card, each from a fresh pair of
    donors: a rank of another suit (the same colour first) and a pip of its suit. A card
    whose rank or suit no glyph shows gets none."""
    out: list[Composed] = []
    for card in wanted:
        r, s = card[:-1], card[-1]
        ranks = [g for g in glyphs.values() if g.card[:-1] == r and g.card != card]
        pips = [g for g in glyphs.values() if g.card[-1] == s and g.card != card]
        if not ranks or not pips:
            continue
        same = [g for g in ranks if (g.card[-1] in RED_SUITS) == (s in RED_SUITS)]
        for _ in range(per_card):
            pool = same if same and rng.random() < 0.7 else ranks
            donor = pool[int(rng.integers(len(pool)))]
            pip = pips[int(rng.integers(len(pips)))]
            out.append(Composed(compose(donor, pip, rng), donor.box, card, donor.card,
                                pip.card))
    return out
