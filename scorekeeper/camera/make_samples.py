"""How the shipped sample frames in samples/ were made (run once; not used at run time).

    .venv/bin/python -m scorekeeper.camera.make_samples PHOTOS

PHOTOS is the real-photos-dev folder that `scorekeeper-lab eval --real` reads (images/ and
labels.csv; where its photographs come from: samples/README.md). It is not in the
repository, so there is no default.

Real card photos (Apache-2.0, see samples/README.md) are cut out, straightened and laid
on a rendered A4 scan mat, which is then "photographed" from a random angle onto a felt
table. So the samples exercise the whole chain: camera replay → calibration → reader.
"""

from __future__ import annotations

import argparse
import csv
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorekeeper.calibration import synth
from scorekeeper.calibration.drawing import render
from scorekeeper.calibration.layout import mat_layout
from scorekeeper.calibration.mat import mat_page

OUT = Path(__file__).resolve().parent / "samples"
PPM = 4.0  # top-down render scale, px per mm
CARD_MM = (63.0, 88.0)
# (photo, xmin of its labelled box) → which card to cut out
TENS = [("IMG_2406.JPG", 189), ("IMG_2396.JPG", 126), ("IMG_2412.JPG", 40)]
SCENES = [
    {"seed": 3, "melds": TENS, "hand": [("IMG_2401.JPG", 105), ("IMG_2419.JPG", 118),
                                        ("IMG_2389.JPG", 118)]},
    {"seed": 11, "melds": TENS, "hand": [("IMG_2459.JPG", 92), ("IMG_2401.JPG", 105)]},
]
RAW = "cam_image48.jpg"


def cut_out_card(photo: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The card inside a labelled box, straightened to 63 × 88 mm at PPM."""
    m = 12
    x0, y0 = max(0, box[0] - m), max(0, box[1] - m)
    crop = photo[y0:box[3] + m, x0:box[2] + m]
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2]
    t, _ = cv2.threshold(v, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask: np.ndarray = ((v > max(t, 100)) & (hsv[..., 1] < 70)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(quad) != 4:
        quad = cv2.boxPoints(cv2.minAreaRect(hull))
    quad = quad.astype(np.float32)
    s, d = quad.sum(1), np.diff(quad, axis=1).ravel()
    ordered = np.array([quad[s.argmin()], quad[d.argmin()], quad[s.argmax()], quad[d.argmax()]])
    if np.linalg.norm(ordered[1] - ordered[0]) > np.linalg.norm(ordered[3] - ordered[0]):
        ordered = np.roll(ordered, -1, axis=0)
    w, h = round(CARD_MM[0] * PPM), round(CARD_MM[1] * PPM)
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m_warp = cv2.getPerspectiveTransform(ordered, target)
    return cv2.warpPerspective(crop, m_warp, (w, h))


def lay_card(mat: np.ndarray, card: np.ndarray, centre_mm: tuple[float, float],
             angle: float) -> None:
    """Paste a card with rounded corners and a soft shadow, rotated about its centre."""
    h, w = card.shape[:2]
    alpha = np.zeros((h, w), np.uint8)
    r = round(3.5 * PPM)
    cv2.rectangle(alpha, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(alpha, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (w - r, h - r), (r, h - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    cx, cy = centre_mm[0] * PPM, centre_mm[1] * PPM
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    rot[:, 2] += (cx - w / 2, cy - h / 2)
    size = (mat.shape[1], mat.shape[0])
    warped = cv2.warpAffine(card, rot, size, flags=cv2.INTER_CUBIC)
    a = cv2.warpAffine(alpha, rot, size).astype(np.float32)[..., None] / 255
    shadow = cv2.GaussianBlur(np.roll(a[..., 0], (8, 6), (0, 1)), (0, 0), 6)[..., None]
    base = mat.astype(np.float32) * (1 - 0.35 * shadow)
    mat[:] = np.clip(base * (1 - a) + warped * a, 0, 255).astype(np.uint8)


def felt(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    base = np.zeros((h, w, 3), np.float32)
    base[:] = (60, 105, 40)
    base += cv2.GaussianBlur(rng.normal(0, 18, (h, w, 1)).astype(np.float32), (0, 0), 2)[..., None]
    return np.clip(base, 0, 255).astype(np.uint8)


def scene(dataset: Path, spec: dict[str, Any], rows: list[dict[str, str]]) -> np.ndarray:
    rng = np.random.default_rng(spec["seed"])
    mat = cv2.cvtColor(render(mat_page("A4"), PPM * 25.4), cv2.COLOR_GRAY2BGR)
    zones = {z.name: z.polygon_mm for z in mat_layout("A4").zones}

    def card(name: str, xmin: int) -> np.ndarray:
        row = next(r for r in rows if r["filename"] == name and int(r["xmin"]) == xmin)
        box = tuple(int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        return cut_out_card(cv2.imread(str(dataset / "images" / name)), box)  # type: ignore[arg-type]

    for zone_name in ("melds", "hand"):
        (x0, y0), (x1, y1) = zones[zone_name][0], zones[zone_name][2]
        cards = spec[zone_name]
        step = min(40.0, (x1 - x0 - CARD_MM[0] - 10) / max(1, len(cards) - 1))
        for i, (name, xmin) in enumerate(cards):
            centre = (x0 + 5 + CARD_MM[0] / 2 + i * step, (y0 + y1) / 2 + rng.uniform(-4, 4))
            lay_card(mat, card(name, xmin), centre, rng.uniform(-6, 6))
    frame_size = (1280, 960)
    view = synth.random_view(rng, (297.0, 210.0), frame_size, fill=0.8, tilt=0.08)
    return synth.photograph(mat, PPM, view, felt(rng, frame_size), rng, noise=3.0, blur=0.6)


def main(dataset: Path) -> None:
    rows = list(csv.DictReader((dataset / "labels.csv").open()))
    OUT.mkdir(exist_ok=True)
    for i, spec in enumerate(SCENES, start=1):
        path = OUT / f"sample-{i}-mat-a4.jpg"
        cv2.imwrite(str(path), scene(dataset, spec, rows), [cv2.IMWRITE_JPEG_QUALITY, 88])
        print(path)
    raw = OUT / f"sample-{len(SCENES) + 1}-no-mat.jpg"
    shutil.copyfile(dataset / "images" / RAW, raw)
    print(raw)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(prog="python -m scorekeeper.camera.make_samples",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("photos", type=Path, help="real-photos-dev folder (images/, labels.csv)")
    main(ap.parse_args().photos)
