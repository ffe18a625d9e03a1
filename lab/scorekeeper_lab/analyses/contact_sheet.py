"""Contact sheets of the real-photos-dev cards, for labelling their suits by eye.

    .venv/bin/python -m scorekeeper_lab.analyses.contact_sheet \
        --real ../shared/data/real-photos-dev \
        --out data/contact-sheets [--per-sheet 16] [--cell 300] [--photos]

The set's labels give each card's rank only; a person reads the suit off these sheets.
Each labelled whole-card box is cropped with a margin, scaled to one cell and numbered by
its row in labels.csv (1 = the first data row), so a sheet's number is a card's id:
`cards-000.png` holds cards 1-16 in four rows of four, each titled with its id, photo and
rank. `--photos` also draws whole photos, their boxes numbered the same way
(`photos-000.png`, 12 a sheet), to see whether a photo shows cards nobody labelled.
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

MARGIN = 0.12  # share of the box's size added on every side: the corner pips stay in view


def _photo(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return image


def read_rows(real: Path) -> list[dict[str, str]]:
    """labels.csv's rows in file order; a row's position (from 1) is its card id."""
    with open(real / "labels.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def _box(row: dict[str, str]) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = (int(float(row[k])) for k in ("xmin", "ymin", "xmax", "ymax"))
    return x1, y1, x2, y2


def _title(cell: np.ndarray, text: str) -> None:
    cv2.rectangle(cell, (0, 0), (cell.shape[1], 22), (255, 255, 255), -1)
    cv2.putText(cell, text, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)


def _fit(image: np.ndarray, w: int, h: int) -> np.ndarray:
    """`image` scaled to fit w×h, centred on grey."""
    scale = min(w / image.shape[1], h / image.shape[0])
    small = cv2.resize(image, (max(1, round(image.shape[1] * scale)),
                               max(1, round(image.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    cell = np.full((h, w, 3), 128, np.uint8)
    y, x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    cell[y:y + small.shape[0], x:x + small.shape[1]] = small
    return cell


def _tile(cells: list[np.ndarray], cols: int) -> np.ndarray:
    h, w = cells[0].shape[:2]
    rows = -(-len(cells) // cols)
    sheet = np.full((rows * (h + 4), cols * (w + 4), 3), 40, np.uint8)
    for k, cell in enumerate(cells):
        r, c = divmod(k, cols)
        sheet[r * (h + 4):r * (h + 4) + h, c * (w + 4):c * (w + 4) + w] = cell
    return sheet


def card_sheets(real: Path, rows: list[dict[str, str]], out: Path, per_sheet: int,
                cell: int) -> int:
    cells: list[np.ndarray] = []
    sheets = 0
    images: dict[str, np.ndarray] = {}
    for card_id, row in enumerate(rows, start=1):
        image = images.setdefault(row["filename"], _photo(real / "images" / row["filename"]))
        x1, y1, x2, y2 = _box(row)
        mx, my = round((x2 - x1) * MARGIN), round((y2 - y1) * MARGIN)
        crop = image[max(0, y1 - my):y2 + my, max(0, x1 - mx):x2 + mx]
        c = _fit(crop, cell, cell)
        _title(c, f"#{card_id} {Path(row['filename']).stem} {row['class']}")
        cells.append(c)
        if len(cells) == per_sheet or card_id == len(rows):
            cv2.imwrite(str(out / f"cards-{sheets:03d}.png"), _tile(cells, 4))
            cells, sheets = [], sheets + 1
    return sheets


def photo_sheets(real: Path, rows: list[dict[str, str]], out: Path, per_sheet: int = 12,
                 width: int = 320) -> int:
    by_photo: dict[str, list[tuple[int, dict[str, str]]]] = defaultdict(list)
    for card_id, row in enumerate(rows, start=1):
        by_photo[row["filename"]].append((card_id, row))
    cells: list[np.ndarray] = []
    sheets = 0
    names = list(by_photo)
    for k, name in enumerate(names):
        image = _photo(real / "images" / name)
        for card_id, row in by_photo[name]:
            x1, y1, x2, y2 = _box(row)
            cv2.rectangle(image, (x1, y1), (x2, y2), (0, 255, 255), 2)
            cv2.putText(image, str(card_id), (x1 + 4, y1 + 28), cv2.FONT_HERSHEY_SIMPLEX,
                        1.0, (0, 255, 255), 2, cv2.LINE_AA)
        c = _fit(image, width, width)
        _title(c, Path(name).stem)
        cells.append(c)
        if len(cells) == per_sheet or k == len(names) - 1:
            cv2.imwrite(str(out / f"photos-{sheets:03d}.png"), _tile(cells, 4))
            cells, sheets = [], sheets + 1
    return sheets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, required=True, help="the real-photos-dev folder")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--per-sheet", type=int, default=16)
    ap.add_argument("--cell", type=int, default=300, help="a crop's cell, pixels a side")
    ap.add_argument("--photos", action="store_true", help="also whole photos, boxes numbered")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = read_rows(args.real)
    n = card_sheets(args.real, rows, args.out, args.per_sheet, args.cell)
    print(f"{len(rows)} cards on {n} sheets in {args.out}")
    if args.photos:
        print(f"{photo_sheets(args.real, rows, args.out)} photo sheets")


if __name__ == "__main__":
    main()
