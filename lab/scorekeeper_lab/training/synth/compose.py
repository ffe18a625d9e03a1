"""Compose one table scene and its labels, tracking exactly what of each card is visible.

Cards are pasted bottom-first into the flat table plane; `owner` records, per table pixel,
which card (or occluder, -2) is on top, so the visible share of a card or of one of its
corner indices is a pixel count, not a guess. The camera then views the table through a
mild homography; a box is the axis-aligned bbox of the visible part of the index (or card)
after that homography. Only the ROI a card covers is ever touched, which keeps a 640 px
scene with twenty cards in the tens of milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from scorekeeper_lab.training.synth import backgrounds, camera, distractors
from scorekeeper_lab.training.synth.deckset import Deck
from scorekeeper_lab.training.synth.layout import Placement, layout, rot
from scorekeeper_lab.training.synth.wear import wear_print

Size = tuple[int, int]
OCCLUDER = -2


@dataclass
class PlacedCard:
    card_id: int
    card: str | None  # None for a face-down card
    deck: str
    area: float  # full card area in table px (inside or outside the frame)
    quads: list[np.ndarray]  # corner index quads (4x2, table px)
    outline: np.ndarray  # card corners (4x2, table px)


@dataclass
class Scene:
    image: np.ndarray
    labels: list[dict[str, Any]]
    owner: np.ndarray  # int32 table plane: card_id on top, -1 table/outside view, -2 occluder
    to_image: np.ndarray  # 3x3 table → image homography
    cards: list[PlacedCard] = field(default_factory=list)


def _prepare(p: Placement) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """Card image at about its table size (INTER_AREA shrink), its affine to the table, and
    the factor from source-face pixels to that image's pixels."""
    src = p.face.image if p.face is not None else p.deck.back
    h0, w0 = src.shape[:2]
    f = p.width / w0
    if f < 1:
        img = cv2.resize(src, (max(2, round(w0 * f)), max(2, round(h0 * f))),
                         interpolation=cv2.INTER_AREA)
        k = (img.shape[1] / w0, img.shape[0] / h0)
        lin = rot(p.angle)
    else:
        img, k, lin = src, (1.0, 1.0), rot(p.angle) * f
    h, w = img.shape[:2]
    ctr = np.array([(w - 1) / 2, (h - 1) / 2])
    m = np.hstack([lin, (np.array(p.centre) - lin @ ctr)[:, None]])
    return img, m, k


def _to_table(m: np.ndarray, k: tuple[float, float], edges: np.ndarray) -> np.ndarray:
    """Source-face pixel-edge coordinates → table coordinates (pixel centres at integers)."""
    return _apply(m, edges * k - 0.5)


def _apply(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    out: np.ndarray = pts @ m[:, :2].T + m[:, 2]
    return out


def _paste(canvas: np.ndarray, owner: np.ndarray, img: np.ndarray, m: np.ndarray,
           cid: int, light: np.ndarray, shadow: tuple[float, float, float, float]) -> None:
    """Alpha-blend one card (with a soft shadow under it) into its ROI; mark `owner`."""
    H, W = owner.shape
    h, w = img.shape[:2]
    corners = _apply(m, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
    dx, dy, sigma, strength = shadow
    pad = int(3 * sigma + abs(dx) + abs(dy)) + 2
    x0, y0 = (np.floor(corners.min(0)) - pad).astype(int)
    x1, y1 = (np.ceil(corners.max(0)) + pad).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    mr = m.copy()
    mr[:, 2] -= (x0, y0)
    patch = cv2.warpAffine(img, mr, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = patch[:, :, 3].astype(np.float32) / 255.0
    roi = canvas[y0:y1, x0:x1]
    if strength > 0:
        shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        sh = cv2.warpAffine(alpha, shift, alpha.shape[::-1])
        sh = cv2.GaussianBlur(sh, (0, 0), sigma)
        roi *= (1 - strength * sh)[..., None]
    a = alpha[..., None]
    roi *= 1 - a
    roi += patch[:, :, :3].astype(np.float32) * light * a
    owner[y0:y1, x0:x1][alpha > 0.5] = cid


def _occluders(rng: np.random.Generator, canvas: np.ndarray, owner: np.ndarray,
               s: float) -> None:
    """A pen, a finger, a coin or a glass base lying over some cards."""
    H, W = owner.shape
    for _ in range(int(rng.integers(1, 3))):
        mask = np.zeros((H, W), np.uint8)
        c = (float(rng.uniform(0, W)), float(rng.uniform(0, H)))
        if rng.random() < 0.5:
            size = (float(rng.uniform(0.8, 3) * s), float(rng.uniform(0.08, 0.4) * s))
            pts = cv2.boxPoints((c, size, float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillConvexPoly(mask, pts, 1)
        else:
            axes = (int(rng.uniform(0.1, 0.5) * s), int(rng.uniform(0.1, 0.5) * s))
            cv2.ellipse(mask, (int(c[0]), int(c[1])), axes, float(rng.uniform(0, 180)), 0, 360,
                        1, -1)
        colour = rng.uniform(10, 240, 3).astype(np.float32)
        shade = 1 + 0.3 * backgrounds.smooth_noise(rng, (W, H), 3)[..., None]
        sel = mask.astype(bool)
        canvas[sel] = (colour * shade)[sel]
        owner[sel] = OCCLUDER


def _visible_box(sel: np.ndarray, x0: int, y0: int, to_image: np.ndarray,
                 size: Size) -> list[float] | None:
    """Image-space bbox of the selected table pixels (their outer pixel edges)."""
    ys, xs = np.nonzero(sel)
    if xs.size == 0:
        return None
    corners = [np.stack([xs + dx, ys + dy], 1) for dx in (-0.5, 0.5) for dy in (-0.5, 0.5)]
    pts = np.concatenate(corners).astype(np.float64) + np.array([x0, y0], np.float64)
    img = cv2.perspectiveTransform(pts[None], to_image)[0]
    w, h = size
    x1, y1 = np.clip(img.min(0), 0, (w, h))
    x2, y2 = np.clip(img.max(0), 0, (w, h))
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return [round(float(v), 2) for v in (x1, y1, x2, y2)]


def quad_fraction(owner: np.ndarray, quad: np.ndarray, cid: int,
                  area: float | None = None) -> tuple[float, np.ndarray, int, int]:
    """Visible share of a convex quad that belongs to card `cid`, with its pixel selection."""
    H, W = owner.shape
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 2, (W, H))
    area = area if area is not None else abs(cv2.contourArea(quad.astype(np.float32)))
    if x1 <= x0 or y1 <= y0 or area <= 0:
        return 0.0, np.zeros((0, 0), bool), 0, 0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round((quad - (x0, y0)) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 1, lineType=cv2.LINE_8, shift=4)
    sel = mask.astype(bool) & (owner[y0:y1, x0:x1] == cid)
    return min(1.0, float(sel.sum()) / area), sel, int(x0), int(y0)


def _view(rng: np.random.Generator, size: Size) -> np.ndarray:
    """Image → table homography: the camera sees a slightly skewed part of the table."""
    w, h = size
    img = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    if rng.random() < 0.25:
        return np.eye(3)
    j = rng.uniform(0, 0.1) * min(w, h)
    inward = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32)
    table = img + inward * rng.uniform(0, 1, (4, 2)).astype(np.float32) * j
    return np.asarray(cv2.getPerspectiveTransform(img, table))


@dataclass(frozen=True)
class Style:
    """What a scene holds beyond cards, and how strictly an index is labelled.

    The defaults are the generator as it trains today; `Style(distractors=0, pip_min_visible=0)`
    draws exactly the scenes of the earlier generator (the old held-out set).
    """

    index_min_visible: float = 0.6  # share of the index box that must show
    # share of the suit pip (the index's lower 40 %) that must show: a camera cannot tell
    # the suit of an index whose pip lies under the next card
    pip_min_visible: float = 0.5
    card_min_visible: float = 0.9
    distractors: float = 0.4  # share of scenes with printed matter that is not a card
    mat: float = 0.25  # of those, share drawn on the project's scan mat
    # label a corner the two rules above refuse by what a person can still read of it
    # (`readable_kind`): "readable" (its card) or "covered" (`none`); off for the held-out
    # sets, so their figures stay comparable
    readable: bool = False
    tight_fans: float = 0.0  # share of fanned hands drawn tight (indices half hidden)
    print_wear: float = 0.0  # share of face-up cards printed as a real deck is (`wear.py`)


DEFAULT = Style()
LEGACY = Style(distractors=0.0, pip_min_visible=0.0)
# the training scenes: covered corners taught by what shows, more tight fans
READABLE = Style(readable=True, tight_fans=0.5)
# what a person needs of a covered corner to read it: half of its rank glyph and half of its
# suit pip (a 3 and a diamond each half hidden read at a glance; a third of a pip seen from
# the side leaves a club and a spade alike); under a quarter of the rank or a tenth
# of the pip nobody can, in between it is left untaught
READ_RANK, READ_PIP = 0.5, 0.5
UNREAD_RANK, UNREAD_PIP = 0.25, 0.1
COVERED_MIN_VISIBLE = 0.3  # less of a corner than this is a sliver no detector boxes


def compose_scene(rng: np.random.Generator, decks: list[Deck], size: Size = (640, 640),
                  style: Style = DEFAULT, places: list[Placement] | None = None) -> Scene:
    """Render one table; see the module docstring for how visibility is measured.
    `places`: the cards to lay (a benchmark's), instead of a random layout."""
    w, h = size
    canvas = backgrounds.table(rng, size).astype(np.float32)
    owner = np.full((h, w), -1, np.int32)
    if places is None:
        places = layout(rng, decks, size, style.tight_fans)
    negatives: list[np.ndarray] = []
    if style.distractors and rng.random() < style.distractors:
        negatives = distractors.draw(rng, canvas, float(np.mean([p.width for p in places])),
                                     mat=style.mat)
    light_dir = rng.uniform(-1, 1, 2)
    placed: list[PlacedCard] = []
    for cid, p in enumerate(places):
        if style.print_wear and p.face is not None and rng.random() < style.print_wear:
            p = replace(p, face=replace(p.face, image=wear_print(rng, p.face.image)))
        img, m, k = _prepare(p)
        s = p.width
        shadow = (light_dir[0] * 0.03 * s, light_dir[1] * 0.03 * s,
                  max(0.6, rng.uniform(0.01, 0.04) * s), float(rng.uniform(0.0, 0.45)))
        light = np.float32(rng.uniform(0.85, 1.08)) * rng.uniform(0.96, 1.04, 3).astype(
            np.float32)
        _paste(canvas, owner, img, m, cid, light, shadow)
        area = float((img[:, :, 3] > 127).sum()) * abs(np.linalg.det(m[:, :2]))
        quads = [_to_table(m, k, np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float))
                 for x1, y1, x2, y2 in (p.face.index if p.face is not None else [])]
        sh, sw = (p.face.image if p.face is not None else p.deck.back).shape[:2]
        outline = _to_table(m, k, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], float))
        placed.append(PlacedCard(cid, p.face.card if p.face else None, p.deck.name, area, quads,
                                  outline))
    if rng.random() < 0.15:
        _occluders(rng, canvas, owner, float(np.mean([p.width for p in places])))
    to_table = _view(rng, size)
    to_image = np.linalg.inv(to_table)
    view = np.zeros((h, w), np.uint8)
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), to_table)[0]
    cv2.fillConvexPoly(view, np.round(corners * 16).astype(np.int32), 1, shift=4)
    owner[view == 0] = -1
    camera.light_table(rng, canvas)
    image = camera.shoot(rng, canvas, to_table, size)
    labels = _labels(owner, placed, to_image, size, style)
    labels += _negatives(owner, negatives, to_image, size)
    return Scene(image, labels, owner, to_image, placed)


def pip_quad(quad: np.ndarray, corner: int) -> np.ndarray:
    """The part of an index quad that holds its suit pip: the lower 40 % of the top-left
    index; the bottom-right index is printed turned, so there it is the upper 40 %."""
    q0, q1, q2, q3 = quad
    if corner == 0:
        return np.array([q0 + 0.6 * (q3 - q0), q1 + 0.6 * (q2 - q1), q2, q3])
    return np.array([q0, q1, q1 + 0.4 * (q2 - q1), q0 + 0.4 * (q3 - q0)])


def rank_quad(quad: np.ndarray, corner: int) -> np.ndarray:
    """The part of an index quad that holds its rank: the upper 60 % of the top-left index,
    the lower 60 % of the turned bottom-right one."""
    q0, q1, q2, q3 = quad
    if corner == 0:
        return np.array([q0, q1, q1 + 0.6 * (q2 - q1), q0 + 0.6 * (q3 - q0)])
    return np.array([q0 + 0.4 * (q3 - q0), q1 + 0.4 * (q2 - q1), q2, q3])


def readable_kind(visible: float, rank: float, pip: float) -> str:
    """The label of a corner that is no full `index`, by what of it shows: "readable" (a
    person tells its card: the classifier learns it as that card, the evaluation asks
    nothing of it), "covered" (nobody can: the classifier's `none`) or "partial" (between,
    or a sliver: taught nothing)."""
    if rank >= READ_RANK and pip >= READ_PIP:
        return "readable"
    if visible >= COVERED_MIN_VISIBLE and (rank < UNREAD_RANK or pip < UNREAD_PIP):
        return "covered"
    return "partial"


def _labels(owner: np.ndarray, placed: list[PlacedCard], to_image: np.ndarray, size: Size,
            style: Style) -> list[dict[str, Any]]:
    labels: list[dict[str, Any]] = []
    for pc in placed:
        if pc.card is None:
            continue
        for corner, quad in enumerate(pc.quads):
            frac, sel, x0, y0 = quad_fraction(owner, quad, pc.card_id)
            if style.readable and frac > 0:
                labels += _readable_label(owner, pc, corner, quad, (frac, sel, x0, y0),
                                          to_image, size, style)
                continue
            if frac < style.index_min_visible:
                # too little shows to ask for a reading, but what shows is this card's: a
                # reading of it there is neither right nor false (`evaluate.match_reads`)
                box = _visible_box(sel, x0, y0, to_image, size) if frac > 0 else None
                if box:
                    labels.append({"card": pc.card, "box": box, "kind": "partial",
                                   "visible": round(frac, 3), "card_id": pc.card_id,
                                   "deck": pc.deck})
                continue
            # a joker's index is a word with no pip
            pip = 1.0 if pc.card == "JK" else quad_fraction(
                owner, pip_quad(quad, corner), pc.card_id)[0]
            box = _visible_box(sel, x0, y0, to_image, size)
            if box:
                # an index whose pip is covered names no card a camera could tell: it is
                # labelled "covered", which the detector's dataset and the evaluation leave
                # out and the classifier learns as `none` (see `crops._crops_of`)
                kind = "index" if pip >= style.pip_min_visible else "covered"
                labels.append({"card": pc.card, "box": box, "kind": kind,
                               "visible": round(frac, 3), "pip": round(pip, 3),
                               "card_id": pc.card_id, "deck": pc.deck})
        frac, sel, x0, y0 = quad_fraction(owner, pc.outline, pc.card_id, pc.area)
        if frac >= style.card_min_visible:
            box = _visible_box(sel, x0, y0, to_image, size)
            if box:
                labels.append({"card": pc.card, "box": box, "kind": "card",
                               "visible": round(frac, 3), "card_id": pc.card_id,
                               "deck": pc.deck})
    return labels


def _readable_label(owner: np.ndarray, pc: PlacedCard, corner: int, quad: np.ndarray,
                    shown: tuple[float, np.ndarray, int, int], to_image: np.ndarray,
                    size: Size, style: Style) -> list[dict[str, Any]]:
    """One corner's label under `Style.readable`: "index" by the usual two rules, else by
    `readable_kind`; it records the visible share of the rank as well as of the pip."""
    frac, sel, x0, y0 = shown
    assert pc.card is not None
    box = _visible_box(sel, x0, y0, to_image, size)
    if not box:
        return []
    if pc.card == "JK":  # a joker's index is a word with no pip
        rank, pip = frac, 1.0
    else:
        rank = quad_fraction(owner, rank_quad(quad, corner), pc.card_id)[0]
        pip = quad_fraction(owner, pip_quad(quad, corner), pc.card_id)[0]
    full = frac >= style.index_min_visible and pip >= style.pip_min_visible
    kind = "index" if full else readable_kind(frac, rank, pip)
    return [{"card": pc.card, "box": box, "kind": kind, "visible": round(frac, 3),
             "rank": round(rank, 3), "pip": round(pip, 3), "card_id": pc.card_id,
             "deck": pc.deck}]


def _negatives(owner: np.ndarray, quads: list[np.ndarray], to_image: np.ndarray,
               size: Size) -> list[dict[str, Any]]:
    """Glyph-sized print that is no card index and still shows: the classifier's hard
    negatives (the detector's dataset leaves them out; see `dataset.yolo_lines`)."""
    out: list[dict[str, Any]] = []
    for quad in quads:
        frac, sel, x0, y0 = quad_fraction(owner, quad, -1)
        if frac < 0.7:
            continue
        box = _visible_box(sel, x0, y0, to_image, size)
        if box and min(box[2] - box[0], box[3] - box[1]) >= 3:
            out.append({"card": None, "box": box, "kind": "negative"})
    return out


def render_scene(rng: np.random.Generator, decks: list[Deck], size: Size = (640, 640),
                 style: Style = DEFAULT) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """(BGR uint8 image, labels) for one random table; labels as in the dataset's JSON."""
    scene = compose_scene(rng, decks, size, style)
    return scene.image, scene.labels
