"""The card reader and the annotated scan pictures: the parts the scan routes share.

The reader is loaded on first use, so a server without a model still serves scores; the
pictures are kept in memory only (they are for checking a read, not a record).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

KEEP_SCANS = 40
KEEP_DECK_READERS = 2  # readers of named decks kept loaded (each holds its own detector)


class ScanImages:
    """The last few annotated scans, as JPEG bytes by id."""

    def __init__(self, keep: int = KEEP_SCANS) -> None:
        self._images: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.keep = keep

    def add(self, jpeg: bytes) -> str:
        key = uuid.uuid4().hex
        with self._lock:
            self._images[key] = jpeg
            while len(self._images) > self.keep:
                self._images.popitem(last=False)
        return key

    def get(self, key: str) -> bytes | None:
        with self._lock:
            return self._images.get(key)


class Vision:
    """The card reader, loaded on first use (a server without a model still serves scores)."""

    def __init__(self, models: Path | None = None, runtime: str | None = None) -> None:
        self.models = models
        self.runtime = runtime
        self._reader: Any = None
        self._decks: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._lock = threading.Lock()

    def reader(self) -> Any:
        from scorekeeper.vision.reader import MODELS, CardReader

        with self._lock:
            if self._reader is None:
                self._reader = CardReader(self.models or MODELS, self.runtime)
            return self._reader

    def for_deck(self, profile: Any) -> Any:
        """A reader with the deck's adapted classifier, loaded on first use and kept while
        the deck's model is the same one (a newly installed model gets a fresh reader)."""
        from scorekeeper.vision.reader import MODELS, CardReader

        installed = (profile.manifest.get("classifier") or {}).get("installed", "")
        key = (profile.name, str(installed))
        with self._lock:
            reader = self._decks.pop(key, None)
            if reader is None:
                reader = CardReader(self.models or MODELS, self.runtime, deck=profile)
            self._decks[key] = reader
            while len(self._decks) > KEEP_DECK_READERS:
                self._decks.popitem(last=False)
            return reader


def reader_for(vision: Any, data_dir: Path, deck: str | None) -> tuple[Any, list[str]]:
    """The reader for a game's deck and what to tell the players about it: a deck that is
    missing, not adapted yet or whose model cannot be loaded reads with the generic model,
    and the warnings say so. Raises what `Vision.reader` raises (no model at all)."""
    from scorekeeper.decks.profile import deck_for_reading

    profile, warning = deck_for_reading(data_dir, deck)
    warnings = [warning] if warning else []
    # the reader's own warnings too: a deck's model, or the generic second classifier, that
    # could not be loaded (it reads without it, and the players are told)
    reader = vision.reader() if profile is None else vision.for_deck(profile)
    return reader, warnings + list(getattr(reader, "warnings", []))
