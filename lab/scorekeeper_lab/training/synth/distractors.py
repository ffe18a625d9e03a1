"""Printed things on a card table that are not card indices.

A newspaper, a score pad, the scan mat's own print, its ArUco markers, a ruler, chips and
coins all carry glyph-sized ink that a detector trained only on cards takes for an index,
and a classifier with no such examples reads as whatever class is nearest (the joker, whose
index is a word). They are drawn on the table under the cards; every glyph-sized mark is
also returned as a quad in table pixels, so the crops for the classifier include it as a
"not an index" example (the detector learns it from the absence of a label).
"""

from __future__ import annotations

import functools
import glob
from collections.abc import Callable

import cv2
import numpy as np

Quad = np.ndarray  # 4 × 2 table pixels
# card width → mm: a poker card is 63 mm wide, so the mat and rulers keep true proportions
CARD_MM = 63.0

# text in the scripts players write in: Latin with digits and the letters of card ranks,
# Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai, CJK, and symbols of score sheets
SCRIPTS = {
    "latin": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzÀÉÑÖÇß0123456789.,;:!?-+=%&",
    "rank-like": "AKQJ10987654321AKQJ",
    "digits": "0123456789+-=/()",
    "greek": "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρστυφχψω",
    "cyrillic": "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюя",
    "hebrew": "אבגדהוזחטיכלמנסעפצקרשת",
    "arabic": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "devanagari": "अआइईउऊएऐओऔकखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह",
    "thai": "กขคงจฉชซญดตถทนบปผพฟภมยรลวศษสหอฮ",
    "cjk": (
        "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着"
        "去之过家学对可她里后小么心多天而能好都然没日於起还发成事只作当想看文无开手十用主"
        "行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二"
        "理美点月明"),
}
# fonts that hold each script (file name patterns under /usr/share/fonts); fonts-noto-core
# and fonts-noto-cjk come with the card art (lab/install_card_art.sh)
FONT_PATTERNS = {
    "latin": ("DejaVu*", "Liberation*", "Free*", "Noto*Serif-*", "Noto*Sans-*", "*.otf"),
    "rank-like": ("DejaVu*", "Liberation*", "Free*", "Noto*Sans-*", "Noto*Serif-*"),
    "digits": ("DejaVu*", "Liberation*", "Free*", "Noto*Sans-*"),
    "greek": ("DejaVu*", "FreeS*", "NotoSans-*", "NotoSerif-*"),
    "cyrillic": ("DejaVu*", "FreeS*", "NotoSans-*", "NotoSerif-*"),
    "hebrew": ("NotoSansHebrew*", "NotoSerifHebrew*", "DejaVuSans.ttf", "FreeSans*"),
    "arabic": ("NotoSansArabic*", "NotoNaskhArabic*", "DejaVuSans.ttf"),
    "devanagari": ("NotoSansDevanagari*", "NotoSerifDevanagari*", "FreeSans*"),
    "thai": ("NotoSansThai*", "NotoSerifThai*"),
    "cjk": ("NotoSansCJK*", "NotoSerifCJK*"),
}


@functools.cache
def fonts_for(script: str) -> tuple[str, ...]:
    found: list[str] = []
    for pattern in FONT_PATTERNS[script]:
        for ext in ("", ".tt[fc]", ".otf"):
            found += glob.glob(f"/usr/share/fonts/**/{pattern}{ext}", recursive=True)
    return tuple(sorted({f for f in found if f.endswith((".ttf", ".otf", ".ttc"))}))


def _ink_colour(rng: np.random.Generator) -> np.ndarray:
    r = rng.random()
    if r < 0.55:
        return rng.uniform(0, 70, 3).astype(np.float32)  # black / grey
    if r < 0.8:
        red = [rng.uniform(0, 60), rng.uniform(0, 60), rng.uniform(150, 230)]
        return np.array(red, np.float32)
    return rng.uniform(0, 200, 3).astype(np.float32)


def _stamp(canvas: np.ndarray, mask: np.ndarray, centre: tuple[float, float], angle: float,
           colour: np.ndarray, opacity: float = 1.0) -> np.ndarray:
    """Ink `mask` (float 0..1, its own pixels) onto the canvas turned by `angle` about
    `centre`; returns the 2 × 3 affine from mask pixels to table pixels."""
    if mask.dtype == np.uint8:  # OpenCV draws text on 8-bit images only
        mask = mask.astype(np.float32) / 255.0
    h, w = mask.shape
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -angle, 1.0)
    m[:, 2] += np.array(centre) - ((w - 1) / 2, (h - 1) / 2)
    H, W = canvas.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) @ m[:, :2].T + m[:, 2]
    x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 1, (W, H))
    if x1 <= x0 or y1 <= y0:
        return m
    mr = m.copy()
    mr[:, 2] -= (x0, y0)
    a = cv2.warpAffine(mask.astype(np.float32), mr, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    a = (a * opacity)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi *= 1 - a
    roi += colour * a
    return m


def _sheet(rng: np.random.Generator, canvas: np.ndarray, mask: np.ndarray,
           paper: np.ndarray | None, ink: np.ndarray, centre: tuple[float, float] | None = None,
           angle: float | None = None, opacity: float = 1.0) -> np.ndarray:
    """`mask` printed in `ink` on a sheet of `paper` colour (None: straight on the table),
    somewhere on the table at some angle; the affine from mask pixels to table pixels."""
    H, W = canvas.shape[:2]
    if centre is None:
        centre = (float(rng.uniform(0, W)), float(rng.uniform(0, H)))
    if angle is None:
        angle = float(rng.uniform(0, 360))
    if paper is not None:
        _stamp(canvas, np.full(mask.shape, 255, np.uint8), centre, angle, paper)
    return _stamp(canvas, mask, centre, angle, ink, opacity)


def _quads(boxes: list[tuple[float, float, float, float]], m: np.ndarray) -> list[Quad]:
    return [np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], float) @ m[:, :2].T + m[:, 2]
            for x1, y1, x2, y2 in boxes]


def _glyph_boxes(mask: np.ndarray, rng: np.random.Generator, glyph_px: float,
                 keep: int = 12) -> list[tuple[float, float, float, float]]:
    """Index-sized boxes around ink: single glyphs and pairs, as a detector would box them."""
    ink = (mask > 0.4).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < 4 or max(w, h) > 3 * glyph_px:
            continue
        boxes.append((float(x), float(y), float(x + w), float(y + h)))
    rng.shuffle(boxes)
    out = []
    for b in boxes[:keep]:
        # pad to an index's shape: a glyph with room under it, as rank over pip
        w, h = b[2] - b[0], b[3] - b[1]
        side = max(w, h, glyph_px * 0.5)
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        out.append((cx - side * 0.4, cy - side * 0.55, cx + side * 0.4, cy + side * 0.55 +
                    side * rng.uniform(0, 0.8)))
    return out


def _text_mask(rng: np.random.Generator, glyph_px: float, lines: int
               ) -> np.ndarray | None:
    from PIL import Image, ImageDraw, ImageFont

    script = str(rng.choice(list(SCRIPTS)))
    fonts = fonts_for(script) or fonts_for("latin")
    if not fonts:
        return None
    size = max(6, int(glyph_px))
    try:
        font = ImageFont.truetype(str(fonts[int(rng.integers(len(fonts)))]), size)
    except OSError:
        return None
    chars = SCRIPTS[script]
    text_lines = []
    for _ in range(lines):
        words = [
            "".join(chars[int(i)] for i in rng.integers(0, len(chars), int(rng.integers(1, 8))))
            for _ in range(int(rng.integers(1, 6)))]
        text_lines.append(" ".join(words))
    pad = size
    width = int(max(font.getlength(t) for t in text_lines)) + 2 * pad
    height = int(lines * size * 1.35) + 2 * pad
    if width * height > 4_000_000:
        return None
    img = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(img)
    for k, t in enumerate(text_lines):
        draw.text((pad, pad + k * size * 1.35), t, fill=255, font=font)
    return np.asarray(img, np.float32) / 255.0


def text_block(rng: np.random.Generator, canvas: np.ndarray, s: float) -> list[Quad]:
    """A newspaper column, a menu, a rules sheet: lines of text in any script."""
    glyph = s * rng.uniform(0.08, 0.4)
    mask = _text_mask(rng, glyph, int(rng.integers(1, 8)))
    if mask is None:
        return []
    angle = float(rng.uniform(0, 360)) if rng.random() < 0.5 else float(
        rng.choice([0, 90, 180, 270]))
    # on its own sheet of paper, or printed on the cloth
    paper = rng.uniform(190, 250, 3).astype(np.float32) if rng.random() < 0.5 else None
    m = _sheet(rng, canvas, mask, paper, _ink_colour(rng), angle=angle,
               opacity=float(rng.uniform(0.7, 1)))
    return _quads(_glyph_boxes(mask, rng, glyph), m)


def aruco(rng: np.random.Generator, canvas: np.ndarray, s: float) -> list[Quad]:
    """A scan-mat or table marker, with its white margin."""
    side = int(max(8, s * rng.uniform(0.25, 0.8)))
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    marker = cv2.aruco.generateImageMarker(dictionary, int(rng.integers(50)), side)
    pad = max(2, side // 6)
    mask = 1.0 - np.pad(marker, pad, constant_values=255).astype(np.float32) / 255.0
    m = _sheet(rng, canvas, mask, rng.uniform(200, 250, 3).astype(np.float32),
               rng.uniform(0, 50, 3).astype(np.float32))
    h, w = mask.shape
    cells = [(pad + side * (i / 6), pad + side * (j / 6), pad + side * ((i + 2) / 6),
              pad + side * ((j + 2.5) / 6)) for i in range(0, 5, 2) for j in range(0, 4, 2)]
    return _quads([(0, 0, w, h), *cells], m)


def ruler(rng: np.random.Generator, canvas: np.ndarray, s: float) -> list[Quad]:
    """A ruler or the mat's scale bar: ticks every millimetre, a number every centimetre."""
    px_mm = s / CARD_MM
    length = int(rng.uniform(80, 300) * px_mm)
    height = int(max(8, rng.uniform(12, 30) * px_mm))
    if length < 20:
        return []
    mask = np.zeros((height, length), np.uint8)
    boxes = []
    font = cv2.FONT_HERSHEY_SIMPLEX
    for mm in range(int(length / px_mm)):
        x = int(mm * px_mm)
        tick = 0.45 if mm % 10 == 0 else 0.3 if mm % 5 == 0 else 0.18
        cv2.line(mask, (x, 0), (x, int(height * tick)), 255, 1)
        if mm % 10 == 0 and mm:
            label = str(mm // 10)
            scale = height * 0.3 / 22
            (tw, th), _ = cv2.getTextSize(label, font, scale, 1)
            org = (x - tw // 2, int(height * 0.85))
            cv2.putText(mask, label, org, font, scale, 255, 1, cv2.LINE_AA)
            boxes.append((org[0] - 2.0, org[1] - th - 2.0, org[0] + tw + 2.0, org[1] + 3.0))
    m = _sheet(rng, canvas, mask, rng.uniform(150, 250, 3).astype(np.float32),
               rng.uniform(0, 60, 3).astype(np.float32))
    return _quads(boxes, m)


def score_pad(rng: np.random.Generator, canvas: np.ndarray, s: float) -> list[Quad]:
    """A score sheet: ruled columns, names and handwritten running totals."""
    px_mm = s / CARD_MM
    w, h = int(rng.uniform(70, 150) * px_mm), int(rng.uniform(90, 200) * px_mm)
    if w < 20 or h < 20:
        return []
    mask = np.zeros((h, w), np.uint8)
    cols = int(rng.integers(2, 5))
    row = max(6, int(rng.uniform(6, 10) * px_mm))
    for x in np.linspace(0, w, cols + 1)[1:-1]:
        cv2.line(mask, (int(x), 0), (int(x), h), 150, 1)
    for y in range(row, h, row):
        cv2.line(mask, (0, y), (w, y), 100, 1)
    font = int(rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
                           cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SIMPLEX]))
    scale = row * 0.7 / 22
    boxes = []
    for y in range(row, h - row // 3, row):
        for c in range(cols):
            if rng.random() < 0.3:
                continue
            text = str(int(rng.integers(0, 200)))
            (tw, th), _ = cv2.getTextSize(text, font, scale, 1)
            org = (int(c * w / cols + rng.uniform(2, max(3, w / cols - tw))), y - 2)
            cv2.putText(mask, text, org, font, scale, 255, max(1, int(row / 12)), cv2.LINE_AA)
            boxes.append((org[0] - 2.0, org[1] - th - 2.0, org[0] + tw + 2.0, org[1] + 3.0))
    m = _sheet(rng, canvas, mask, rng.uniform(215, 255, 3).astype(np.float32),
               _ink_colour(rng))
    keep = rng.permutation(len(boxes))[:10]
    return _quads([boxes[i] for i in keep], m)


def chips(rng: np.random.Generator, canvas: np.ndarray, s: float) -> list[Quad]:
    """Poker chips and coins, some with a value printed on them."""
    H, W = canvas.shape[:2]
    out: list[Quad] = []
    c0 = np.array([rng.uniform(0, W), rng.uniform(0, H)])
    for _ in range(int(rng.integers(1, 7))):
        r = s * rng.uniform(0.15, 0.35)
        c = c0 + rng.normal(0, r * 1.5, 2)
        size = int(2 * r + 4)
        if size < 6:
            continue
        disc = np.zeros((size, size), np.uint8)
        ctr = (size // 2, size // 2)
        cv2.circle(disc, ctr, int(r), 255, -1, cv2.LINE_AA)
        colour = rng.uniform(20, 230, 3).astype(np.float32)
        m = _stamp(canvas, disc, (float(c[0]), float(c[1])), 0.0, colour)
        mark = np.zeros_like(disc)
        if rng.random() < 0.5:  # edge spots of a chip
            for k in range(6):
                t = k * np.pi / 3
                p = (int(ctr[0] + 0.85 * r * np.cos(t)), int(ctr[1] + 0.85 * r * np.sin(t)))
                cv2.circle(mark, p, max(1, int(r * 0.12)), 255, -1)
        cv2.circle(mark, ctr, int(r * 0.65), 255, max(1, int(r * 0.06)), cv2.LINE_AA)
        if rng.random() < 0.6:
            text = str(rng.choice(["1", "5", "10", "25", "50", "100", "2", "€1", "20"]))
            scale = r * 0.5 / 22
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 1)
            cv2.putText(mark, text, (ctr[0] - tw // 2, ctr[1] + th // 2),
                        cv2.FONT_HERSHEY_DUPLEX, scale, 255, max(1, int(r / 15)), cv2.LINE_AA)
        ink = np.clip(colour * rng.uniform(0.2, 1.8), 0, 255).astype(np.float32)
        angle = float(rng.uniform(0, 360))
        _stamp(canvas, mark, (float(c[0]), float(c[1])), angle, ink)
        out += _quads([(0, 0, size, size)], m)
        out += _quads([(size * 0.25, size * 0.25, size * 0.75, size * 0.75)],
                      cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), -angle, 1.0)
                      + np.array([[0, 0, c[0] - size / 2 + 0.5], [0, 0, c[1] - size / 2 + 0.5]]))
    return out


@functools.cache
def _mat_image(size: str, px_mm: float) -> np.ndarray:
    from scorekeeper.calibration.drawing import render
    from scorekeeper.calibration.mat import mat_page

    return render(mat_page(size), px_mm * 25.4)  # type: ignore[arg-type]


def scan_mat(rng: np.random.Generator, canvas: np.ndarray, s: float) -> list[Quad]:
    """The project's own scan mat under the cards: markers, dashed zones, titles, scale bar."""
    size = "A4" if rng.random() < 0.7 else "A3"
    px_mm = round(s / CARD_MM * rng.uniform(0.95, 1.05), 2)
    page = _mat_image(size, px_mm)
    mask = 1.0 - page.astype(np.float32) / 255.0
    H, W = canvas.shape[:2]
    centre = (float(rng.uniform(0.3, 0.7) * W), float(rng.uniform(0.3, 0.7) * H))
    angle = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 6))
    m = _sheet(rng, canvas, mask, rng.uniform(200, 250, 3).astype(np.float32),
               rng.uniform(0, 50, 3).astype(np.float32), centre, angle)
    glyph = 4.0 * px_mm
    return _quads(_glyph_boxes(mask, rng, glyph, keep=24), m)


Drawer = Callable[[np.random.Generator, np.ndarray, float], list[Quad]]
KINDS: tuple[Drawer, ...] = (text_block, text_block, text_block, aruco, ruler, score_pad, chips)


def draw(rng: np.random.Generator, canvas: np.ndarray, s: float, mat: float = 0.1,
         count: tuple[int, int] = (1, 4)) -> list[Quad]:
    """Some distractors on a float32 BGR table `canvas` whose cards are `s` px wide."""
    quads: list[Quad] = []
    if rng.random() < mat:
        quads += scan_mat(rng, canvas, s)
    for _ in range(int(rng.integers(*count))):
        quads += KINDS[int(rng.integers(len(KINDS)))](rng, canvas, s)
    return quads
