"""`scorekeeper read`: one JSON line per image; a bad image is named and the rest still read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from scorekeeper.decks.profile import DeckProfile
    from scorekeeper.vision.pairing import PhysicalCard
    from scorekeeper.vision.unread import Unread

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def _annotate_path(target: Path, image: Path, many: bool) -> Path:
    if many or target.suffix.lower() not in IMAGE_SUFFIXES:
        target.mkdir(parents=True, exist_ok=True)
        return target / f"{image.stem}.annotated.jpg"
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def to_check(cards: list[PhysicalCard], maybe: list[PhysicalCard],
             unread: Sequence[Unread] = ()) -> dict[str, Any]:
    """What the review asks the players to check in this photo: the cards it shows unsure,
    the cards it offers ("maybe") and the cards it saw but could not read (their boxes), so
    the review can be measured outside the page."""
    return {"unsure": [c.card for c in cards if not c.sure], "offers": [c.card for c in maybe],
            "unread": [[round(v, 1) for v in u.box] for u in unread]}


def read_images(images: list[Path], *, as_json: bool, annotate: Path | None,
                runtime: str | None, out: TextIO, err: TextIO,
                models: Path | None = None, deck: DeckProfile | None = None) -> int:
    """Read each image; `models` is the model folder (None: the source tree's models/),
    `deck` a deck profile whose classifier reads the indices."""
    import cv2

    from scorekeeper.vision.annotate import annotate as draw
    from scorekeeper.vision.reader import MODELS, CardReader, VisionError, cards_json, load_image
    from scorekeeper.vision.scan import place_result_on_mat

    try:
        reader = CardReader(models or MODELS, runtime=runtime, deck=deck)
    except VisionError as exc:
        err.write(f"error: {exc}\n")
        return 2
    for warning in reader.warnings:
        err.write(f"warning: {warning}\n")
    status = 0
    for path in images:
        try:
            image = load_image(path)
        except VisionError as exc:
            err.write(f"error: {exc}\n")
            status = 2
            continue
        # as a scan reads it: on the scan mat, only what lies in its zones; `maybe` are the
        # cards a scan offers with a tap (read under the card threshold), never counted
        result = place_result_on_mat(image, reader.read(image))[0]
        if as_json:
            out.write(json.dumps({"image": str(path), "cards": result.to_json(),
                                  "maybe": cards_json(result.maybe),
                                  "unread": [u.to_json() for u in result.unread],
                                  "check": to_check(result.cards, result.maybe,
                                                    result.unread),
                                  "ms": round(result.ms)}) + "\n")
        else:
            cards = " ".join(c.card for c in result.cards) or "(no cards)"
            maybe = "".join(f" {c.card}?" for c in result.maybe)
            seen = f" +{len(result.unread)} seen, not read" if result.unread else ""
            out.write(f"{path}: {cards}{maybe}{seen}  [{result.ms:.0f} ms]\n")
        if annotate is not None:
            cv2.imwrite(str(_annotate_path(annotate, path, len(images) > 1)),
                        draw(image, result.cards, result.unread))
    return status
