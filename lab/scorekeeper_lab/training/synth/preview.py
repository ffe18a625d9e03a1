"""Scenes with their labels drawn, for a person to check that boxes sit on the indices."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorekeeper_lab.training.synth.compose import render_scene
from scorekeeper_lab.training.synth.deckset import Deck


def draw_labels(image: np.ndarray, labels: list[dict]) -> np.ndarray:
    out = image.copy()
    for lab in labels:
        x1, y1, x2, y2 = (round(v) for v in lab["box"])
        colour = (0, 255, 0) if lab["kind"] == "index" else (255, 0, 255)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 1)
        if lab["kind"] == "index":
            cv2.putText(out, lab["card"], (x1, max(8, y1 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                        (0, 255, 255), 1)
    return out


def write_previews(out: Path, decks: list[Deck], count: int, size: int, seed: int) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        image, labels = render_scene(np.random.default_rng([seed, i]), decks, (size, size))
        path = out / f"preview_{i:03d}.png"
        cv2.imwrite(str(path), draw_labels(image, labels))
        paths.append(path)
    return paths
