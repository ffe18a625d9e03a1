"""Procedural deck designs: corner indices printed in the fonts installed on this machine.

Twenty-odd art decks teach the classifier twenty-odd ways to print an index; a deck it never
saw still trips it (the held-out design is read ~93 % of the time even when boxed perfectly).
Real decks differ mostly in the index's font, weight, proportions, pip shape and colours,
so these decks vary exactly that, from every font file on the machine: each deck is one
font, weight, rank size, pip size and shape, gap, ink colours (some four-colour), paper
tint and border. The centre of the face is only roughly a card's (pips in columns, a framed
court picture): the index is what the reader reads. Each face's index boxes are known
exactly, since the index is drawn, not found.
"""

from __future__ import annotations

import functools
import glob

import cv2
import numpy as np

from scorekeeper_lab.training.synth.cards import RANKS, SUITS
from scorekeeper_lab.training.synth.deckset import Deck, Face

W, H = 200, 280  # face pixels (63 × 88 mm)
SUIT_GLYPHS = {"S": ("♠", "♤"), "H": ("♥", "♡"), "D": ("♦", "♢"), "C": ("♣", "♧")}
# pips per column for the number cards (left, middle, right)
PIP_COLUMNS = {1: (0, 1, 0), 2: (0, 2, 0), 3: (0, 3, 0), 4: (2, 0, 2), 5: (2, 1, 2),
               6: (3, 0, 3), 7: (3, 1, 3), 8: (3, 2, 3), 9: (4, 1, 4), 10: (4, 2, 4)}


@functools.cache
def index_fonts() -> tuple[str, ...]:
    """Latin fonts that also print the four suit symbols' code points or not (then the
    pip is drawn from a font that has them)."""
    files = [f for pattern in ("**/*.ttf", "**/*.otf")
             for f in glob.glob(f"/usr/share/fonts/{pattern}", recursive=True)]
    keep = ("DejaVu", "Liberation", "Free", "Nimbus", "URW", "C059", "P052", "Z003",
            "NotoSans-", "NotoSerif-", "NotoSansMono-", "NotoSerifDisplay-", "NotoSansDisplay-")
    return tuple(sorted(f for f in files if any(k in f for k in keep)
                        and "Oblique" not in f and "Italic" not in f and "Z003" not in f))


@functools.cache
def _symbol_font() -> str | None:
    for name in ("DejaVuSans.ttf", "FreeSerif.ttf", "FreeSans.ttf"):
        found = glob.glob(f"/usr/share/fonts/**/{name}", recursive=True)
        if found:
            return found[0]
    return None


def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, max(4, size))


def _style(rng: np.random.Generator, fonts: tuple[str, ...]) -> dict:
    four = rng.random() < 0.15
    red = (int(rng.uniform(0, 60)), int(rng.uniform(0, 50)), int(rng.uniform(150, 225)))
    black = tuple(int(v) for v in rng.uniform(0, 50, 3))
    colours = {"S": black, "C": black, "H": red, "D": red}
    if four:
        colours["C"] = (int(rng.uniform(30, 90)), int(rng.uniform(110, 160)), 20)
        colours["D"] = (int(rng.uniform(150, 210)), int(rng.uniform(60, 120)), 10)
    return {
        "font": fonts[int(rng.integers(len(fonts)))],
        "rank_px": int(rng.uniform(0.09, 0.16) * H),
        "pip_ratio": float(rng.uniform(0.5, 0.95)),
        "gap": float(rng.uniform(-0.05, 0.25)),
        "x": float(rng.uniform(0.03, 0.08)),
        "y": float(rng.uniform(0.02, 0.06)),
        "squeeze_10": float(rng.uniform(0.7, 1.0)),
        "outline_pip": rng.random() < 0.1,
        "colours": colours,
        "paper": tuple(int(v) for v in rng.uniform(225, 255, 3)),
        "border": rng.random() < 0.5,
        "back": tuple(int(v) for v in rng.uniform(20, 200, 3)),
    }


def _glyph(text: str, font_path: str, px: int, squeeze: float = 1.0) -> np.ndarray:
    """Tight 0..1 mask of `text` whose ink is about `px` tall."""
    from PIL import Image, ImageDraw

    font = _font(font_path, int(px * 1.4))
    box = font.getbbox(text)
    img = Image.new("L", (box[2] - box[0] + 4, box[3] - box[1] + 4), 0)
    ImageDraw.Draw(img).text((2 - box[0], 2 - box[1]), text, fill=255, font=font)
    mask = np.asarray(img, np.float32) / 255
    ys, xs = np.nonzero(mask > 0.1)
    if not len(xs):
        return np.zeros((px, px), np.float32)
    mask = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = mask.shape
    k = px / h
    return cv2.resize(mask, (max(1, round(w * k * squeeze)), px), interpolation=cv2.INTER_AREA)


def _put(face: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple) -> None:
    h, w = mask.shape
    x1, y1 = min(W, x + w), min(H, y + h)
    if x1 <= x or y1 <= y:
        return
    a = mask[:y1 - y, :x1 - x, None]
    roi = face[y:y1, x:x1, :3].astype(np.float32)
    face[y:y1, x:x1, :3] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _pip(style: dict, suit: str, px: int) -> np.ndarray:
    glyph = SUIT_GLYPHS[suit][1 if style["outline_pip"] else 0]
    font = style["font"]
    return _glyph(glyph, font if _has_glyph(font, glyph) else (_symbol_font() or font), px)


@functools.cache
def _has_glyph(font: str, glyph: str) -> bool:
    """Whether the font draws `glyph` itself, not its missing-glyph box."""
    from PIL import ImageFont

    try:
        f = ImageFont.truetype(font, 24)
    except OSError:
        return False
    drawn = bytes(f.getmask(glyph))
    return bool(drawn.strip(b"\0")) and drawn != bytes(f.getmask("\U0010fffd"))


def _index(style: dict, rank: str, suit: str) -> np.ndarray:
    """The corner index (rank over pip) as a mask, tight."""
    rank_px = style["rank_px"]
    if rank == "JK":
        letters = [_glyph(c, style["font"], int(rank_px * 0.6)) for c in "JOKER"]
        width = max(m.shape[1] for m in letters)
        gap = max(1, int(rank_px * 0.08))
        out = np.zeros((sum(m.shape[0] + gap for m in letters), width), np.float32)
        y = 0
        for m in letters:
            out[y:y + m.shape[0], (width - m.shape[1]) // 2:][:, :m.shape[1]] = m
            y += m.shape[0] + gap
        return out
    r = _glyph(rank, style["font"], rank_px, style["squeeze_10"] if rank == "10" else 1.0)
    p = _pip(style, suit, int(rank_px * style["pip_ratio"]))
    gap = int(rank_px * style["gap"])
    width = max(r.shape[1], p.shape[1])
    out = np.zeros((r.shape[0] + max(0, gap) + p.shape[0], width), np.float32)
    out[:r.shape[0], (width - r.shape[1]) // 2:][:, :r.shape[1]] = r
    y = r.shape[0] + max(0, gap)
    out[y:y + p.shape[0], (width - p.shape[1]) // 2:][:, :p.shape[1]] = np.maximum(
        out[y:y + p.shape[0], (width - p.shape[1]) // 2:][:, :p.shape[1]], p)
    return out


def _centre(face: np.ndarray, style: dict, rank: str, suit: str,
            rng: np.random.Generator) -> None:
    colour = style["colours"].get(suit, (0, 0, 0))
    if rank in ("J", "Q", "K", "JK"):  # a court picture: a frame and shapes
        x0, y0, x1, y1 = int(0.22 * W), int(0.16 * H), int(0.78 * W), int(0.84 * H)
        cv2.rectangle(face, (x0, y0), (x1, y1), (*colour, 255), 2)
        for _ in range(int(rng.integers(4, 10))):
            c = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
            fill = tuple(int(v) for v in rng.uniform(0, 255, 3))
            cv2.circle(face, c, int(rng.integers(4, 20)), (*fill, 255), -1)
        return
    n = 1 if rank == "A" else int(rank)
    px = int(0.28 * H) if n == 1 else int(0.11 * H)
    pip = _pip(style, suit, px)
    for col, count in zip((0.32, 0.5, 0.68), PIP_COLUMNS[n], strict=True):
        for k in range(count):
            cy = 0.5 if count == 1 else 0.24 + 0.52 * k / (count - 1)
            m = pip if cy <= 0.5 else pip[::-1, ::-1]
            _put(face, m, int(col * W - m.shape[1] / 2), int(cy * H - m.shape[0] / 2), colour)


def _blank(style: dict, colour: tuple) -> np.ndarray:
    face = np.zeros((H, W, 4), np.uint8)
    r = int(0.06 * W)
    cv2.rectangle(face, (r, 0), (W - 1 - r, H - 1), (*colour, 255), -1)
    cv2.rectangle(face, (0, r), (W - 1, H - 1 - r), (*colour, 255), -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(face, (cx, cy), r, (*colour, 255), -1, cv2.LINE_AA)
    return face


def make_face(style: dict, code: str, rng: np.random.Generator) -> Face:
    rank, suit = ("JK", "") if code.startswith("JK") else (code[:-1], code[-1])
    face = _blank(style, style["paper"])
    if style["border"]:
        m = int(0.035 * W)
        cv2.rectangle(face, (m, m), (W - 1 - m, H - 1 - m), (150, 150, 150, 255), 1)
    colour = style["colours"].get(suit, style["colours"]["H" if code == "JK" else "S"])
    _centre(face, style, rank, suit, rng)
    index = _index(style, rank, suit)
    x, y = int(style["x"] * W), int(style["y"] * H)
    h, w = index.shape
    _put(face, index, x, y, colour)
    turned = index[::-1, ::-1]
    _put(face, turned, W - x - w, H - y - h, colour)
    tl = (x - 1, y - 1, x + w + 1, y + h + 1)
    br = (W - x - w - 1, H - y - h - 1, W - x + 1, H - y + 1)
    return Face(code, face, [tl, br])


def make_deck(seed: int, fonts: tuple[str, ...] | None = None) -> Deck:
    fonts = fonts or index_fonts()
    if not fonts:
        raise FileNotFoundError("no fonts under /usr/share/fonts for procedural decks")
    rng = np.random.default_rng([seed, 52])
    style = _style(rng, fonts)
    faces = [make_face(style, f"{r}{s}", rng) for s in SUITS for r in RANKS]
    faces.append(make_face(style, "JK", rng))
    back = _blank(style, style["back"])
    for k in range(0, W + H, 12):
        cv2.line(back, (k, 0), (k - H, H), (*style["paper"], 255), 2)
    back[:, :, 3] = _blank(style, (0, 0, 0))[:, :, 3]
    return Deck(f"font_{seed:03d}", back, faces)


def make_decks(count: int, seed: int = 0) -> list[Deck]:
    """`count` procedural designs; the same seed always gives the same decks."""
    return [make_deck(seed * 1000 + i) for i in range(count)]
