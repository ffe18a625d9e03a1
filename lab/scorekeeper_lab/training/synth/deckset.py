"""Load rendered decks from the art cache into memory, split into train and test designs."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scorekeeper_lab import REPO
from scorekeeper_lab.training.synth import catalog
from scorekeeper_lab.training.synth.cards import card_of


def default_cards_dir() -> Path:
    """`$SCOREKEEPER_CARDS` or `<repo>/data/cards` (git-ignored: the art never enters git)."""
    return Path(os.environ.get("SCOREKEEPER_CARDS", REPO / "data" / "cards"))


@dataclass
class Face:
    """One printed face; `index` holds the corner boxes (x1, y1, x2, y2) in image pixels."""

    key: str
    image: np.ndarray  # BGRA
    index: list[tuple[int, int, int, int]]

    @property
    def card(self) -> str:
        return card_of(self.key)


@dataclass
class Deck:
    name: str
    back: np.ndarray
    faces: list[Face]
    by_card: dict[str, list[Face]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for f in self.faces:
            self.by_card.setdefault(f.card, []).append(f)


def cache_ready(root: Path | None = None) -> bool:
    return ((root or default_cards_dir()) / "decks.json").exists()


def _read(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise FileNotFoundError(f"bad card image {path}")
    return img


def load_deck(folder: Path) -> Deck:
    meta = json.loads((folder / "deck.json").read_text())
    faces = [Face(k, _read(folder / f["file"]), [tuple(b) for b in f["index"]])
             for k, f in meta["faces"].items() if f["index"]]
    return Deck(meta["name"], _read(folder / meta["back"]), faces)


def deck_names(split: str, root: Path | None = None, test_decks: str | None = None) -> list[str]:
    """Names of the installed decks in `split` ("train", "test" or "all")."""
    root = root or default_cards_dir()
    index = json.loads((root / "decks.json").read_text())
    names = [d["name"] for d in index["decks"]]
    families = {d["name"]: d["family"] for d in index["decks"]}
    override = test_decks or os.environ.get("SCOREKEEPER_TEST_DECKS")
    test = catalog.test_deck_names(override) if override else tuple(index["test_decks"])
    return catalog.split_names(names, families, split, test)


def load_decks(split: str, root: Path | None = None, test_decks: str | None = None) -> list[Deck]:
    root = root or default_cards_dir()
    names = deck_names(split, root, test_decks)
    if not names:
        raise ValueError(f"no installed decks in split {split!r} under {root}")
    return [load_deck(root / n) for n in names]
