"""Debug pictures of the index boxes, meant to be looked at after every art install.

`<deck>.png` shows whole faces with both boxes; `<deck>_corners.png` shows each face's
top-left corner at full resolution so a box that clips a `10` or misses a pip is obvious.
Green: top-left box; red: bottom-right box; yellow frame: the two corners disagreed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

GREY = 96


def _on_grey(img: np.ndarray) -> np.ndarray:
    a = img[:, :, 3:4].astype(np.float32) / 255.0
    return (img[:, :, :3] * a + GREY * (1 - a)).astype(np.uint8)


def _grid(tiles: list[np.ndarray], cols: int) -> np.ndarray:
    th = max(t.shape[0] for t in tiles)
    tw = max(t.shape[1] for t in tiles)
    rows = []
    for r in range(0, len(tiles), cols):
        row = [cv2.copyMakeBorder(t, 0, th - t.shape[0], 0, tw - t.shape[1] + 4,
                                  cv2.BORDER_CONSTANT, value=(GREY, GREY, GREY))
               for t in tiles[r:r + cols]]
        row += [np.full((th, tw + 4, 3), GREY, np.uint8)] * (cols - len(row))
        rows.append(np.hstack(row))
    return np.vstack(rows)


def write_deck_montages(folder: Path, name: str, images: dict[str, np.ndarray],
                        faces: dict[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    whole, corners = [], []
    for key, img in images.items():
        tile = _on_grey(img)
        boxes = faces.get(key, {}).get("index", [])
        for box, colour in zip(boxes, ((0, 200, 0), (0, 0, 230)), strict=False):
            cv2.rectangle(tile, box[:2], (box[2] - 1, box[3] - 1), colour, 2)
        if key in faces and faces[key]["corner_agreement"] < 0.5:
            cv2.rectangle(tile, (0, 0), (tile.shape[1] - 1, tile.shape[0] - 1), (0, 220, 220), 6)
        cv2.putText(tile, key, (tile.shape[1] // 3, tile.shape[0] // 2),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 0, 255), 2)
        h, w = tile.shape[:2]
        corners.append(tile[: int(0.42 * h), : int(0.32 * w)].copy())
        whole.append(cv2.resize(tile, (w // 2, h // 2), interpolation=cv2.INTER_AREA))
    cv2.imwrite(str(folder / f"{name}.png"), _grid(whole, 14))
    cv2.imwrite(str(folder / f"{name}_corners.png"), _grid(corners, 14))
