"""Learning from play: a scan the players confirmed is a labelled photo of the game's deck.

A scan of a game that names a deck keeps its frame (as read: rectified by the calibration
when the table's camera took it) and the reader's cards in memory for a while. When the
admin saves the hand, the page confirms the scan with the cards as the review left them
(a read card corrected keeps the reader's box; a card added by hand is sent by its code
alone); those become examples of the deck (`decks.examples.store`), exactly as
`scorekeeper deck add` makes them from a labelled photo, and the next `deck adapt` learns
from them. A card added by hand gives no crop: it is kept with the photo as `unboxed`, so
the install check counts it there (a model that finds it reads it, and is not charged a
false card). The examples learned from play are capped per deck, the oldest dropped first.

The table's `learn_from_scans` setting turns it on or off; the admin's switch on the decks
sheet changes it while the server runs and keeps the choice in <data dir>/learning.json,
which wins over the setting from then on (the config file's value is only the default).
"""

from __future__ import annotations

import json
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.files import write_atomic
from scorekeeper.settings import Settings

KEEP_FRAMES = 12  # scans whose frames wait for their hand to be saved
KEEP_BYTES = 64 * 1024 * 1024  # and at most this much JPEG in all
JPEG_QUALITY = 95
LEARNING = "learning.json"  # the admin's switch, once used: {"learn_from_scans": bool}

write_lock = threading.Lock()  # one writer of deck examples at a time in this server

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class KeptScan:
    game_id: int
    deck: str
    jpeg: bytes
    cards: list[tuple[str, Box]]  # the reader's cards: code and box, in the frame's pixels


class ScanFrames:
    """The frames of the last few scans of games that name a deck, by scan id."""

    def __init__(self, keep: int = KEEP_FRAMES, keep_bytes: int = KEEP_BYTES) -> None:
        self._kept: OrderedDict[str, KeptScan] = OrderedDict()
        self._lock = threading.Lock()
        self.keep, self.keep_bytes = keep, keep_bytes

    def add(self, key: str, scan: KeptScan) -> None:
        with self._lock:
            self._kept[key] = scan
            while len(self._kept) > self.keep or (
                    len(self._kept) > 1
                    and sum(len(k.jpeg) for k in self._kept.values()) > self.keep_bytes):
                self._kept.popitem(last=False)

    def get(self, key: str) -> KeptScan | None:
        with self._lock:
            return self._kept.get(key)

    def take(self, key: str) -> KeptScan | None:
        """The scan's frame, handed out once (a scan is learned from at most once)."""
        with self._lock:
            return self._kept.pop(key, None)


def keep_frame(frame: Any, calibration: Any, cards: list[dict[str, Any]], game_id: int,
               deck: str) -> KeptScan | None:
    """The frame as the reader saw it, JPEG-encoded, with the cards it read."""
    import cv2

    view = calibration.rectify(frame) if calibration is not None else frame
    ok, jpeg = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        return None
    read = [(str(c["card"]), (float(c["box"][0]), float(c["box"][1]), float(c["box"][2]),
                              float(c["box"][3]))) for c in cards]
    return KeptScan(game_id, deck, jpeg.tobytes(), read)


def learn(data_dir: Path, reader: Any, scan: KeptScan, key: str,
          confirmed: list[tuple[int, str]], most: int,
          added: list[str] | None = None) -> dict[str, Any]:
    """Store the confirmed cards of `scan` as examples of its deck; `confirmed` holds
    (the reader's card number, the card as the players confirmed it), `added` the cards
    the players added by hand (kept with the photo, without a box). Returns what was
    learned. DeckError when the deck is gone."""
    import cv2
    import numpy as np

    from scorekeeper.decks.examples import NONE, cap_learned, store
    from scorekeeper.decks.labels import LabelledPhoto, photo_examples
    from scorekeeper.decks.profile import DeckError, open_deck

    image = cv2.imdecode(np.frombuffer(scan.jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:  # it was encoded here; only a fault in memory could break it
        raise DeckError("the scan's frame cannot be decoded")
    cards = [(card, scan.cards[n][1]) for n, card in confirmed]
    photo = LabelledPhoto(0, Path(f"scan-{key}"), cards, list(added or []))
    dets, _ = reader.detect(image)
    examples = photo_examples(image, photo, dets, random.Random(key))
    with write_lock:
        profile = open_deck(data_dir, scan.deck)
        store(profile, image, examples, f"scan:{scan.game_id}:{key}", photo.unboxed)
        dropped = cap_learned(profile, most)
        total = len(profile.examples())
    indices = sum(e.card != NONE for e in examples)
    return {"deck": scan.deck, "learned": indices, "cards": len(cards),
            "unboxed": len(photo.unboxed), "dropped": dropped, "examples": total}


def forget(data_dir: Path, deck: str) -> int:
    """Delete every example the deck learned from play; how many there were."""
    from scorekeeper.decks.examples import delete_learned
    from scorekeeper.decks.profile import open_deck

    with write_lock:
        return delete_learned(open_deck(data_dir, deck))


# ---- the admin's switch -------------------------------------------------------------------

def saved_learning(data_dir: Path) -> bool | None:
    """The switch as the admin last left it, or None: never used (or its file unreadable,
    when the table's setting holds, as it would without the file)."""
    try:
        value = json.loads((Path(data_dir) / LEARNING).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    on = value.get("learn_from_scans") if isinstance(value, dict) else None
    return on if isinstance(on, bool) else None


def apply_saved_learning(settings: Settings) -> None:
    """At start: the admin's last choice replaces the configured `learn_from_scans`."""
    saved = saved_learning(settings.data_dir)
    if saved is not None:
        settings.learn_from_scans = saved


def set_learning(settings: Settings, on: bool) -> bool:
    """Turn learning from play on or off now, and keep the choice for the next start. The
    scan and confirm routes read `settings.learn_from_scans` on each request."""
    write_atomic(Path(settings.data_dir) / LEARNING,
                 json.dumps({"learn_from_scans": on}) + "\n")
    settings.learn_from_scans = on
    return on
