"""Picking the card reader: the generic one, or a deck's, each loaded on first use.

Loading waits for the first scan, so a server without a model still serves scores; a deck's
reader is kept while its model is the same one (each holds its own detector, so only a few).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.decks.profile import DeckProfile
    from scorekeeper.vision.reader import CardReader

KEEP_DECK_READERS = 2  # readers of named decks kept loaded (each holds its own detector)


class ReaderUnavailable(Exception):
    """No card reader: no model, or one that cannot be loaded; the message says why."""


class Vision:
    """The card reader, loaded on first use (a server without a model still serves scores)."""

    def __init__(self, models: Path | None = None, runtime: str | None = None) -> None:
        self.models = models
        self.runtime = runtime
        self._reader: CardReader | None = None
        self._decks: OrderedDict[tuple[str, str], CardReader] = OrderedDict()
        self._lock = threading.Lock()

    def reader(self) -> CardReader:
        from scorekeeper.vision.reader import MODELS, CardReader

        with self._lock:
            if self._reader is None:
                self._reader = CardReader(self.models or MODELS, self.runtime)
            return self._reader

    def for_deck(self, profile: DeckProfile) -> CardReader:
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


def reader_for(vision: Vision, data_dir: Path, deck: str | None
               ) -> tuple[CardReader, list[str]]:
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

