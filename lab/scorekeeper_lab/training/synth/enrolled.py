"""A deck for the scene renderer, made from one enrolled deck's stored index crops.

The table's deck is known only by its corner indices as the enrolment photos showed them
(`decks/examples.py`: a crop twice the reader's, the index box in its middle). Each such
crop becomes a card face: the index cut from the photo, its light evened out so its paper
takes the face's paper colour (the median paper seen around the deck's indices), printed
at the top-left corner and turned at the bottom-right, with pips cut from the index's own
suit symbol in the middle (a framed picture for court cards and jokers). The faces are
what `compose` needs: an image and exact index boxes, so `training/synth` renders harsh
scenes of this deck (fans, meld rows, small, blurred, tilted, dim) as it does of any deck.

A card enrolled from several photos gets several faces: more ways of seeing its index.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scorekeeper_lab.training.synth.deckset import Deck, Face

W, H = 200, 280  # face pixels (63 × 88 mm), as the procedural decks
INDEX_OF_CARD = 0.27  # index height / card height: kde_standard 24.5 / 88 mm; most decks 0.2-0.3
INDEX_AT = (6.0 / 63, 13.0 / 88)  # the index's centre on the card (the enrolment layout's guess)
PAPER_MAX = 245.0  # the paper's brightest channel on a face (the scenes relight it)
PAD = 0.12  # photo kept around the index box, as a share of its height
# pips per column for the number cards (left, middle, right), as synth/fontdeck.py
PIP_COLUMNS = {1: (0, 1, 0), 2: (0, 2, 0), 3: (0, 3, 0), 4: (2, 0, 2), 5: (2, 1, 2),
               6: (3, 0, 3), 7: (3, 1, 3), 8: (3, 2, 3), 9: (4, 1, 4), 10: (4, 2, 4)}


@dataclass(frozen=True)
class IndexArt:
    """One enrolled index: the photo patch around it and where its box lies in the patch."""

    card: str
    patch: np.ndarray  # BGR float32, light evened out: paper ~ `paper`
    box: tuple[float, float, float, float]  # the index box in patch pixels


def index_box_in_crop(stored: np.ndarray, photo_box: tuple[float, ...]) -> tuple[float, ...]:
    """Where a stored crop's index box lies in it: centred, its long side the crop's side
    over (1 + 2 × the stored margin), its aspect the photo box's."""
    from scorekeeper.decks.examples import STORE_MARGIN

    side = stored.shape[0] / (1 + 2 * STORE_MARGIN)
    bw, bh = photo_box[2] - photo_box[0], photo_box[3] - photo_box[1]
    w, h = (side, side * bh / bw) if bw >= bh else (side * bw / bh, side)
    c = stored.shape[0] / 2
    return c - w / 2, c - h / 2, c + w / 2, c + h / 2


def paper_colour(stored: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
    """The median of the brightest quarter of the index box: the card's paper between
    the glyphs (ink is darker or more coloured than paper)."""
    x1, y1, x2, y2 = (round(v) for v in box)
    roi = stored[max(0, y1):y2, max(0, x1):x2].reshape(-1, 3).astype(np.float32)
    if not len(roi):
        return np.array([235, 235, 235], np.float32)
    light = roi.sum(1)
    return np.asarray(np.median(roi[light >= np.percentile(light, 75)], axis=0), np.float32)


def index_art(stored: np.ndarray, card: str, photo_box: tuple[float, ...],
              paper: np.ndarray) -> IndexArt:
    """The patch around one index, relit so its local paper is `paper` (the photo's uneven
    light and the photo's white balance taken out; the scenes add their own)."""
    box = index_box_in_crop(stored, photo_box)
    pad = PAD * (box[3] - box[1])
    x1, y1 = max(0, int(box[0] - pad)), max(0, int(box[1] - pad))
    x2, y2 = min(stored.shape[1], int(np.ceil(box[2] + pad))), \
        min(stored.shape[0], int(np.ceil(box[3] + pad)))
    patch = stored[y1:y2, x1:x2].astype(np.float32)
    # the local paper level: a wide max filter follows a light ramp across the patch
    k = max(3, (min(patch.shape[:2]) // 2) | 1)
    local = cv2.dilate(cv2.GaussianBlur(patch, (0, 0), 1.0), np.ones((k, k), np.uint8))
    local = cv2.GaussianBlur(local, (0, 0), k / 2)
    relit = np.clip(patch / np.maximum(local, 20) * paper, 0, 255)
    _erase_lines(relit, paper)
    return IndexArt(card, relit,
                    (box[0] - x1, box[1] - y1, box[2] - x1, box[3] - y1))


def _erase_lines(patch: np.ndarray, paper: np.ndarray) -> None:
    """Paint out (in place) the straight edges a photo shows beside an index (its own card's
    edge, the next card's, the row below): long thin lines no index glyph has."""
    ink = (_ink(patch, paper) > 0.4).astype(np.uint8)
    h, w = ink.shape
    vertical = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((max(3, int(0.5 * h)), 1), np.uint8))
    flat = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, max(3, int(0.7 * w))), np.uint8))
    lines = cv2.dilate(np.maximum(vertical, flat), np.ones((3, 3), np.uint8))
    patch[lines > 0] = paper


def _ink(patch: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """0..1: how much of each pixel is ink, by its distance in colour from the paper."""
    d = np.linalg.norm(patch - paper, axis=2)
    return np.clip((d - 25) / 80, 0, 1).astype(np.float32)


def _blank(paper: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    face = np.zeros((H, W, 4), np.uint8)
    r = int(0.06 * W)
    colour = (*[int(v) for v in paper], 255)
    cv2.rectangle(face, (r, 0), (W - 1 - r, H - 1), colour, -1)
    cv2.rectangle(face, (0, r), (W - 1, H - 1 - r), colour, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(face, (cx, cy), r, colour, -1, cv2.LINE_AA)
    # the paper's own grain, faint
    grain = rng.normal(0, 2.0, (H, W, 1)).astype(np.float32)
    face[:, :, :3] = np.clip(face[:, :, :3].astype(np.float32) + grain, 0, 255).astype(np.uint8)
    return face


def _put(face: np.ndarray, img: np.ndarray, alpha: np.ndarray, x: int, y: int) -> None:
    h, w = alpha.shape
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - y:y1 - y, x0 - x:x1 - x, None]
    roi = face[y0:y1, x0:x1, :3].astype(np.float32)
    face[y0:y1, x0:x1, :3] = np.clip(roi * (1 - a) + img[y0 - y:y1 - y, x0 - x:x1 - x] * a,
                                     0, 255).astype(np.uint8)


def _centre(face: np.ndarray, art: IndexArt, patch: np.ndarray, ink: np.ndarray,
            box: tuple[int, int, int, int], rng: np.random.Generator) -> None:
    """Pips cut from the index's suit symbol (its lower 40 %), or a framed picture."""
    rank = art.card[:-1]
    x1, y1, x2, y2 = box
    if art.card == "JK" or rank in ("J", "Q", "K"):
        colour = patch[ink > 0.5].mean(0) if (ink > 0.5).any() else np.zeros(3)
        c = tuple(int(v) for v in colour)
        cv2.rectangle(face, (int(0.22 * W), int(0.16 * H)), (int(0.78 * W), int(0.84 * H)),
                      (*c, 255), 2)
        for _ in range(int(rng.integers(4, 10))):
            centre = (int(rng.uniform(0.25, 0.75) * W), int(rng.uniform(0.2, 0.8) * H))
            fill = tuple(int(v) for v in rng.uniform(0, 255, 3))
            cv2.circle(face, centre, int(rng.integers(4, 20)), (*fill, 255), -1)
        return
    top = y1 + int(0.6 * (y2 - y1))
    pip, pip_ink = patch[top:y2, x1:x2], ink[top:y2, x1:x2].copy()
    if pip.size == 0 or pip_ink.max() < 0.3:
        return
    # the suit symbol: the largest blob of ink (not a stray piece of the rank above it)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((pip_ink > 0.3).astype(np.uint8))
    if count > 1:
        biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        near = cv2.dilate((labels == biggest).astype(np.uint8), np.ones((3, 3), np.uint8))
        pip_ink *= near
    n = 1 if rank == "A" else int(rank) if rank.isdigit() else 1
    side = int(0.28 * H) if n == 1 else int(0.13 * H)
    k = side / max(pip.shape[:2])
    size = (max(2, round(pip.shape[1] * k)), max(2, round(pip.shape[0] * k)))
    big, big_ink = cv2.resize(pip, size), cv2.resize(pip_ink, size)
    for col, count in zip((0.32, 0.5, 0.68), PIP_COLUMNS[n], strict=True):
        for j in range(count):
            cy = 0.5 if count == 1 else 0.24 + 0.52 * j / (count - 1)
            img, a = (big, big_ink) if cy <= 0.5 else (big[::-1, ::-1], big_ink[::-1, ::-1])
            _put(face, img, a, int(col * W - a.shape[1] / 2), int(cy * H - a.shape[0] / 2))


def make_face(art: IndexArt, paper: np.ndarray, key: str, rng: np.random.Generator,
              index_of_card: float = INDEX_OF_CARD) -> Face:
    """One card face carrying this index at its top-left corner and turned at the
    bottom-right; its index boxes are exact (they are where the patch was put)."""
    face = _blank(paper, rng)
    bx1, by1, bx2, by2 = art.box
    k = index_of_card * H / (by2 - by1)  # patch pixels → face pixels
    ph, pw = art.patch.shape[:2]
    size = (max(2, round(pw * k)), max(2, round(ph * k)))
    patch = cv2.resize(art.patch, size, interpolation=cv2.INTER_AREA if k < 1 else
                       cv2.INTER_CUBIC)
    ink = _ink(patch, paper)
    # the index box in face pixels, its centre where the deck's index sits on a card
    bw, bh = (bx2 - bx1) * k, (by2 - by1) * k
    cx = max(INDEX_AT[0] * W, bw / 2 + 0.02 * W)
    cy = max(INDEX_AT[1] * H, bh / 2 + 0.015 * H)
    ox, oy = round(cx - bw / 2 - bx1 * k), round(cy - bh / 2 - by1 * k)  # patch origin
    _centre(face, art, patch, ink, (round(bx1 * k), round(by1 * k), round(bx2 * k),
                                    round(by2 * k)), rng)
    # the patch's paper is the face's; ink comes from the photo: a soft edge hides the seam
    m = max(1, round(0.06 * min(ink.shape)))
    inside = cv2.erode(np.pad(np.ones(ink.shape, np.float32), 1),
                       np.ones((2 * m + 1, 2 * m + 1), np.uint8))[1:-1, 1:-1]
    edge = cv2.GaussianBlur(inside, (0, 0), m / 2 + 0.1)
    alpha = np.clip(np.maximum(ink, 0.85) * edge, 0, 1)
    _put(face, patch, alpha, ox, oy)
    turned, turned_a = patch[::-1, ::-1], alpha[::-1, ::-1]
    _put(face, turned, turned_a, W - ox - patch.shape[1], H - oy - patch.shape[0])
    tl = (int(ox + bx1 * k), int(oy + by1 * k), int(np.ceil(ox + bx2 * k)),
          int(np.ceil(oy + by2 * k)))
    tl = (max(0, tl[0]), max(0, tl[1]), min(W, tl[2]), min(H, tl[3]))
    br = (W - tl[2], H - tl[3], W - tl[0], H - tl[1])
    return Face(key, face, [tl, br])


def _back(paper: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    colour = tuple(int(v) for v in rng.uniform(20, 200, 3))
    back = _blank(paper, rng)
    inner = back.copy()
    cv2.rectangle(inner, (8, 8), (W - 9, H - 9), (*colour, 255), -1)
    for k in range(0, W + H, 12):
        cv2.line(inner, (k, 8), (k - H, H), (*[int(v) for v in paper], 255), 2)
    inner[:, :, 3] = back[:, :, 3]
    return inner


def deck_from_examples(crops: list[np.ndarray], rows: list[dict], name: str = "enrolled",
                       seed: int = 0, cards: set[str] | None = None) -> Deck:
    """The renderer's Deck of an enrolled deck: one face per stored index crop (`none`
    crops and, when `cards` is given, other cards left out). Raises ValueError when no
    crop holds a card."""
    picked = [(c, r) for c, r in zip(crops, rows, strict=True) if r["card"] != "none"
              and (cards is None or r["card"] in cards) and r.get("box")]
    if not picked:
        raise ValueError("no enrolled index crops to make a deck of")
    colours = [paper_colour(c, index_box_in_crop(c, r["box"])) for c, r in picked]
    paper = np.median(np.array(colours), axis=0).astype(np.float32)
    # the room's light dims paper in a photo: keep its hue, at a printed card's brightness
    paper = np.clip(paper * (PAPER_MAX / max(1.0, float(paper.max()))), 0, 255)
    rng = np.random.default_rng(seed)
    faces = []
    for c, r in picked:
        faces.append(make_face(index_art(c, r["card"], tuple(r["box"]), paper), paper,
                               r["card"], rng))
    return Deck(name, _back(paper, rng), faces)
