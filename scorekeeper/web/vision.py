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
        self._lock = threading.Lock()

    def reader(self) -> Any:
        from scorekeeper.vision.reader import MODELS, CardReader

        with self._lock:
            if self._reader is None:
                self._reader = CardReader(self.models or MODELS, self.runtime)
            return self._reader
