"""Regenerate this folder: `.venv/bin/python benchmarks/frames/make.py`.

Renders `scorekeeper bench vision`'s tables (the held-out design, `kde_standard`: needs
`lab/install_card_art.sh`), copies the real photographs from
`shared/data/real-photos-dev/` with their card-by-card labels (`models/eval/`), and writes
`frames.json`, the labels every frame is scored against. The frames are shipped so that
every machine times the same pixels; rerunning this changes them only if the renderer did.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import cv2

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REAL = ROOT.parent / "shared" / "data" / "real-photos-dev" / "images"
REAL_LABELS = ROOT / "models" / "eval" / "real-photos-dev-cards.jsonl"
# two real photographs with five cards each, every card labelled: a webcam frame, a phone shot
PHOTOS = [("cam_image48.jpg", "960x540 webcam photo"), ("IMG_2616.JPG", "378x504 phone photo")]
CLOSEUP = "../../tests/fixtures/reading/closeup-two.jpg"  # CC0, see its README
ASKED = "index"  # label kinds: an index to read; these show but no label asks for them
UNASKED = ("partial", "covered", "readable")


def table_entry(name: str, labels: list[dict[str, Any]]) -> dict[str, Any]:
    cards: dict[Any, dict[str, Any]] = {}
    for o in labels:
        if o["kind"] == ASKED:
            cards.setdefault(o["card_id"], {"card": o["card"], "boxes": []})["boxes"].append(
                [round(v, 1) for v in o["box"]])
    ignore = [{"card": o["card"], "box": [round(v, 1) for v in o["box"]]}
              for o in labels if o["kind"] in UNASKED]
    return {"cards": list(cards.values()), "ignore": ignore}


def main() -> None:
    from scorekeeper_lab.training.bench import CASES, table_with_cards
    from scorekeeper_lab.training.synth.deckset import cache_ready

    if not cache_ready():
        raise SystemExit("the card art is not installed: run lab/install_card_art.sh")
    frames = []
    for size, n, tiles in CASES:
        image, labels = table_with_cards(size, n, tiles=tiles)
        small = " small" if tiles > 1 else ""
        name = f"table-{size[0]}x{size[1]}-{n}{small.replace(' ', '-')}.jpg"
        cv2.imwrite(str(HERE / name), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        frames.append({"image": name, "case": f"{size[0]}x{size[1]}, {n}{small} cards",
                       "camera": True, **table_entry(name, labels)})
    rows = {r["image"]: r for r in map(json.loads, REAL_LABELS.read_text().splitlines()) if r}
    for photo, what in PHOTOS:
        name = "real-" + photo.lower()
        shutil.copyfile(REAL / photo, HERE / name)
        cards = [{"card": c["card"], "boxes": [c["box"]]} for c in rows[photo]["cards"]]
        frames.append({"image": name, "case": f"{what}, {len(cards)} cards", "camera": False,
                       "cards": cards, "ignore": []})
    truth = json.loads((HERE / CLOSEUP).with_suffix(".json").read_text())
    frames.append({"image": CLOSEUP, "case": "3000x2250 close-up, 2 cards", "camera": False,
                   "cards": [], "ignore": [], "unboxed": [c["card"] for c in truth["cards"]]})
    (HERE / "frames.json").write_text(json.dumps({"frames": frames}, indent=1) + "\n")


if __name__ == "__main__":
    main()
