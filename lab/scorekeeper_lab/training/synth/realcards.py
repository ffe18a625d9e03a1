"""A deck for the scene renderer cut from labelled real photographs: real print and paper.

Rendered card art is clean vector print; a photographed card has its own ink, paper, blur
and light. Each labelled whole-card box (`deck add --labels` format: one JSON object a
line, `{"image": ..., "cards": [{"card": "QD", "box": [x1, y1, x2, y2]}]}`) is searched for
the card's paper (the bright, grey-ish region filling most of the box); where that region
is one clean rectangle of a card's shape, free of the other labelled cards, it is warped
upright to a face, and its corner indices are found as on the rendered art
(`index_box.find_indices`). Faces that fail any test are left out and counted by reason,
never guessed. The faces serve `compose` as any deck's do: fans of a real deck's own print
(`synth fans --real`), measured by `scorekeeper-lab eval --fans`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorekeeper_lab.training.synth.deckset import Deck, Face
from scorekeeper_lab.training.synth.index_box import find_indices

W, H = 240, 336  # face pixels: 63 × 88 mm
ASPECT = (1.25, 1.55)  # long / short side of a card seen from above (88 / 63 = 1.40)
FILL = 0.9  # the paper region's share of its rotated rectangle: one whole card
MIN_SIDE = 60  # short side in photo pixels: smaller cards give no readable print
OVERLAP = 0.02  # another labelled card over this share of the box: its paper would merge
INDEX_H = (0.12, 0.32)  # index box height / card height
AGREE = 0.3  # the two corners' boxes, one turned onto the other: the same print found
CORNER = 0.1  # the top-left box starts this near the corner (share of the width)
EDGE = 0.04  # the face's outer strip (share of the width) must be the card's paper ...
EDGE_PAPER = 0.85  # ... in this share of its pixels: no table left in the cut
INK = 0.06  # an index box's ink share, in its rank part and in its pip part each
RED = 25.0  # mean red excess (R - max(G, B)) of an index's ink: a heart or a diamond


def clean_edge(face: np.ndarray) -> bool:
    """The strip along the face's outline looks like the paper of its middle."""
    bgr = face[:, :, :3]
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sat = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[:, :, 1]
    paper = np.percentile(grey, 75)
    m = max(2, int(EDGE * W))
    strip = np.zeros(grey.shape, bool)
    strip[:m], strip[-m:], strip[:, :m], strip[:, -m:] = True, True, True, True
    strip &= face[:, :, 3] > 0
    ok = (grey >= 0.8 * paper) & (sat < 90)
    return float(ok[strip].mean()) >= EDGE_PAPER


def index_ink_ok(face: np.ndarray, box: tuple[int, ...], card: str) -> bool:
    """The box holds print in its rank part (upper 60 %) and its pip part, of the
    card's suit colour: not blank paper, not the table."""
    from scorekeeper_lab.training.synth.index_box import ink_mask

    x1, y1, x2, y2 = box
    ink = ink_mask(face)[y1:y2, x1:x2].astype(bool)
    if not ink.size:
        return False
    cut = int(0.6 * ink.shape[0])
    if ink[:cut].mean() < INK or ink[cut:].mean() < INK:
        return False
    bgr = face[y1:y2, x1:x2, :3].astype(np.float32)[ink]
    red = float((bgr[:, 2] - np.maximum(bgr[:, 0], bgr[:, 1])).mean())
    return (red >= RED) == (card[-1] in "HD")


def paper_mask(crop: np.ndarray) -> np.ndarray:
    """Bright, low-saturation pixels (Otsu on the grey level among the unsaturated),
    closed over the print so the card is one region."""
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    level, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = ((grey >= level) & (hsv[:, :, 1] < 90)).astype(np.uint8)
    k = max(3, min(crop.shape[:2]) // 8) | 1
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return np.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)))


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise from the one starting a long side, so the warp makes a portrait."""
    quad = quad[np.argsort(np.arctan2(*(quad - quad.mean(0)).T[::-1]))]  # clockwise in image
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)  # first edge short: top of a portrait card
    return quad.astype(np.float32)


def cut_card(image: np.ndarray, box: list[float],
             others: list[list[float]]) -> tuple[np.ndarray | None, str]:
    """The card in `box` warped upright (BGRA, W × H), or None and why."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (round(v) for v in box)
    if min(x2 - x1, y2 - y1) < MIN_SIDE:
        return None, "small"
    for o in others:  # another labelled card over this one's box: its paper would merge
        ix = min(x2, o[2]) - max(x1, o[0])
        iy = min(y2, o[3]) - max(y1, o[1])
        if ix > 0 and iy > 0 and ix * iy > OVERLAP * (x2 - x1) * (y2 - y1):
            return None, "overlapped"
    m = int(0.06 * max(x2 - x1, y2 - y1))
    cx1, cy1, cx2, cy2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    crop = image[cy1:cy2, cx1:cx2]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(paper_mask(crop), connectivity=4)
    if n < 2:
        return None, "no paper"
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    region = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea)
    (rw, rh) = cv2.minAreaRect(contour)[1]
    if rw * rh < 0.35 * (x2 - x1) * (y2 - y1):
        return None, "paper too small"
    if cv2.contourArea(contour) < FILL * rw * rh:
        return None, "not one rectangle"
    if not ASPECT[0] <= max(rw, rh) / max(1.0, min(rw, rh)) <= ASPECT[1]:
        return None, "not a card's shape"
    hull = cv2.convexHull(contour)
    quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(quad) != 4:
        quad = cv2.boxPoints(cv2.minAreaRect(contour))
    src = _order(quad.astype(np.float32) + np.array([cx1, cy1], np.float32))
    dst = np.array([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1]], np.float32)
    face = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (W, H),
                               flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    alpha = np.zeros((H, W), np.uint8)  # rounded corners, as printed
    r = int(0.05 * W)
    cv2.rectangle(alpha, (r, 0), (W - 1 - r, H - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (W - 1, H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1)
    return np.dstack([face, alpha]), "ok"


@dataclass(frozen=True)
class Origin:
    """Where a cut face came from: its photo, and the short side (px) of its labelled box
    there (how much print the cut had to work with)."""

    photo: str
    side: float


def faces_from_labels(labels: Path, images: Path | None = None,
                      skip: set[str] | None = None) -> tuple[list[Face], Counter[str]]:
    """Every clean card of the labelled photos as a face (photos named in `skip` left out),
    and how many cards each test turned away."""
    faces, _, why = faces_with_origins(labels, images, skip)
    return faces, why


def faces_with_origins(labels: Path, images: Path | None = None,
                       skip: set[str] | None = None
                       ) -> tuple[list[Face], list[Origin], Counter[str]]:
    """`faces_from_labels`, and each face's `Origin` (the same order)."""
    faces: list[Face] = []
    origins: list[Origin] = []
    why: Counter[str] = Counter()
    for line in labels.read_text().splitlines():
        if not line.strip():
            continue
        photo = json.loads(line)
        name = str(photo["image"])
        if skip and Path(name).name in skip:
            continue
        path = (images or labels.parent) / name
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(path)
        cards = photo["cards"]
        for k, c in enumerate(cards):
            others = [o["box"] for j, o in enumerate(cards) if j != k]
            face, reason = cut_card(image, c["box"], others)
            if face is not None:
                boxes, agree = find_indices(face)
                if len(boxes) != 2 or agree < AGREE or not all(
                        INDEX_H[0] <= (b[3] - b[1]) / H <= INDEX_H[1] for b in boxes) \
                        or max(boxes[0][:2]) > CORNER * W:
                    face, reason = None, "no index found"
                elif not clean_edge(face):
                    face, reason = None, "table in the cut"
                elif not all(index_ink_ok(face, b, str(c["card"])) for b in boxes):
                    face, reason = None, "index print unclear"
                else:
                    faces.append(Face(str(c["card"]), face,
                                      [(int(b[0]), int(b[1]), int(b[2]), int(b[3]))
                                       for b in boxes]))
                    x1, y1, x2, y2 = c["box"]
                    origins.append(Origin(name, float(min(x2 - x1, y2 - y1))))
            why[reason] += 1
    return faces, origins, why


def skip_names(jsonl: Path) -> set[str]:
    """The photo file names of a labels file (the enrolment photos a test leaves out)."""
    return {Path(json.loads(line)["image"]).name
            for line in jsonl.read_text().splitlines() if line.strip()}


def real_deck(name: str, faces: list[Face]) -> Deck:
    """The faces as a deck; its back a plain blue card (fans show no backs)."""
    back = np.zeros((H, W, 4), np.uint8)
    back[:, :] = (150, 60, 30, 255)
    return Deck(name, back, faces)
