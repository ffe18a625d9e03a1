"""Labelled crops of a deck: cut from a photo, stored with room around them for augmentation.

A stored crop covers twice the reader's crop (`vision.classifier.crop_index`) at the same
resolution, so its middle 48 px are exactly what the reader would classify, and adaptation
can shift, scale and turn it without running out of picture.

The whole photo is kept too (`photos/`, named on each of its rows as `photo`): `deck adapt`
holds some photos back whole and reads them with the full reader before it installs a
model, which crops alone cannot tell (a detector that finds one index twice). A card the
photo shows whose place nobody marked (added by hand to a confirmed scan) has no crop; it
is listed on each of the photo's rows as `unboxed` (absent: none), so the check counts it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from scorekeeper.decks.profile import DeckProfile
from scorekeeper.vision.classifier import CROP, MARGIN, crop_index

STORE = 2 * CROP  # stored crop side, px
STORE_MARGIN = (2 * (1 + 2 * MARGIN) - 1) / 2  # twice the reader's crop, same px per unit
NONE = "none"
PHOTO_QUALITY = 92  # JPEG quality of a kept photo: the check reads it as the camera gave it
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Example:
    card: str  # a card code, or "none" for print that is no index
    box: Box  # in the photo's pixels
    group: str  # one physical card (its two corners): held back together


def cut(image: np.ndarray, box: Box) -> np.ndarray:
    return crop_index(image, box, margin=STORE_MARGIN, size=STORE)


def centre_crop(stored: np.ndarray) -> np.ndarray:
    """What the reader sees of a stored crop."""
    o = (STORE - CROP) // 2
    return stored[o:o + CROP, o:o + CROP]


def _overlaps(a: Box, b: Box, pad: float) -> bool:
    return not (a[2] + pad < b[0] or b[2] + pad < a[0] or a[3] + pad < b[1] or b[3] + pad < a[1])


def negatives(image: np.ndarray, avoid: list[Box], sizes: list[float], count: int,
              rng: random.Random) -> list[Box]:
    """Index-sized boxes clear of every index and card (`avoid`): the table, the mat's print,
    a card's middle. `none` examples, so an adapted model still says "no index" there."""
    h, w = image.shape[:2]
    out: list[Box] = []
    for _ in range(count * 20):
        if len(out) >= count or not sizes:
            break
        side = rng.choice(sizes) * rng.uniform(0.7, 1.5)
        x, y = rng.uniform(0, max(1.0, w - side)), rng.uniform(0, max(1.0, h - side))
        cand = (x, y, x + side * rng.uniform(0.5, 0.8), y + side)
        if not any(_overlaps(cand, b, 0.15 * side) for b in avoid):
            out.append(cand)
    return out


def _next_number(profile: DeckProfile) -> int:
    """The first free crop number: past every listed crop and every file (examples dropped
    from the list leave gaps, so the count alone could name a crop that is still listed)."""
    names = [r["file"] for r in profile.examples()]
    if profile.examples_dir.is_dir():
        names += [p.name for p in profile.examples_dir.glob("*.png")]
    numbers = [int(n[:-4]) for n in names if n.endswith(".png") and n[:-4].isdigit()]
    return max(numbers, default=-1) + 1


def store(profile: DeckProfile, image: np.ndarray, examples: list[Example],
          source: str, unboxed: list[str] | None = None) -> list[dict[str, Any]]:
    """Write each example's crop under the profile and list it, and keep the whole photo
    when it holds a card (named on its rows as `photo`, with the `unboxed` cards it shows
    too); returns the rows added."""
    start = _next_number(profile)
    profile.examples_dir.mkdir(parents=True, exist_ok=True)
    photo: dict[str, Any] = {}
    if any(ex.card != NONE for ex in examples):
        profile.photos_dir.mkdir(parents=True, exist_ok=True)
        name = f"{start:06d}.jpg"
        if not cv2.imwrite(str(profile.photos_dir / name), image,
                           [cv2.IMWRITE_JPEG_QUALITY, PHOTO_QUALITY]):
            raise OSError(f"cannot write {profile.photos_dir / name}")
        photo = {"photo": name, **({"unboxed": list(unboxed)} if unboxed else {})}
    rows = []
    for k, ex in enumerate(examples):
        name = f"{start + k:06d}.png"
        if not cv2.imwrite(str(profile.examples_dir / name), cut(image, ex.box)):
            raise OSError(f"cannot write {profile.examples_dir / name}")
        rows.append({"file": name, "card": ex.card, "group": ex.group, "source": source,
                     "box": [round(v, 1) for v in ex.box], **photo})
    profile.add_examples(rows)
    return rows


def kept_photos(profile: DeckProfile, rows: list[dict[str, Any]]) -> set[str]:
    """The whole photos `rows` name that are still on disk (a deck enrolled before photos
    were kept has none)."""
    names = {str(r["photo"]) for r in rows if r.get("photo")}
    return {n for n in names if (profile.photos_dir / n).is_file()}


def unboxed_cards(rows: list[dict[str, Any]], photo: str) -> list[str]:
    """The cards photo `photo` shows without a box (each of its rows lists them all; rows
    stored before they were kept have none)."""
    listed = next((r.get("unboxed") for r in rows if r.get("photo") == photo), None)
    return [str(c) for c in listed] if isinstance(listed, list) else []


def load_crops(profile: DeckProfile) -> tuple[list[np.ndarray], list[dict[str, Any]]]:
    """The stored crops (BGR, STORE × STORE) and their rows; unreadable files are skipped."""
    crops, rows = [], []
    for row in profile.examples():
        img = cv2.imread(str(profile.examples_dir / row["file"]), cv2.IMREAD_COLOR)
        if img is not None and img.shape[:2] == (STORE, STORE):
            crops.append(img)
            rows.append(row)
    return crops, rows


# ---- examples learned from play (confirmed scans) ---------------------------------------

LEARNED = "scan:"  # the source of every example a confirmed scan gave


def is_learned(row: dict[str, Any]) -> bool:
    return str(row.get("source", "")).startswith(LEARNED)


def _drop(profile: DeckProfile, keep: list[dict[str, Any]], drop: list[dict[str, Any]]) -> int:
    """Forget the `drop` rows, their crops, and each photo no kept row names any more."""
    profile.replace_examples(keep)
    for row in drop:
        (profile.examples_dir / str(row["file"])).unlink(missing_ok=True)
    named = {r.get("photo") for r in keep}
    for photo in {r.get("photo") for r in drop} - named - {None}:
        (profile.photos_dir / str(photo)).unlink(missing_ok=True)
    return len(drop)


def cap_learned(profile: DeckProfile, most: int) -> int:
    """Keep the newest `most` examples learned from play (the oldest go first); enrolled
    and labelled examples are never dropped. Returns how many were dropped."""
    rows = profile.examples()
    learned = [i for i, r in enumerate(rows) if is_learned(r)]
    over = set(learned[:max(0, len(learned) - most)])
    if not over:
        return 0
    return _drop(profile, [r for i, r in enumerate(rows) if i not in over],
                 [rows[i] for i in sorted(over)])


def delete_learned(profile: DeckProfile) -> int:
    """Forget every example learned from play; returns how many there were."""
    rows = profile.examples()
    return _drop(profile, [r for r in rows if not is_learned(r)],
                 [r for r in rows if is_learned(r)])
