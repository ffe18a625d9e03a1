"""The scan service: every read of a frame for play, from picking the reader to what is kept.

A scan (the table's camera or a phone's photo), the private knock check and the deck routes
that need the reader all come here: which reader (the generic one or the game's deck's),
the table camera's frame, the reading laid out for the game (`vision.scan.scan_frame`:
melds and hand per player, and the knock check on a whole hand), the annotated picture, and
the frame kept to learn the deck from. It knows nothing of HTTP: a route parses the request,
calls it in a worker thread (reading takes a second on a Pi) and shapes the answer; the two
refusals here (`ReaderUnavailable`, `NoFrame`) it says in its own words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from scorekeeper.decks.learn import ScanFrames, keep_frame
from scorekeeper.scanning.counts import LiveCount
from scorekeeper.scanning.pictures import ScanImages, jpeg, preview
from scorekeeper.scanning.readers import ReaderUnavailable, Vision, reader_for
from scorekeeper.settings import Settings

if TYPE_CHECKING:
    import numpy as np

    from scorekeeper.camera import CameraStatus, CameraSupervisor
    from scorekeeper.rules import Game
    from scorekeeper.vision.reader import CardReader
    from scorekeeper.vision.scan import ScanResult

log = logging.getLogger(__name__)
T = TypeVar("T")


class NoFrame(Exception):
    """The table camera gave no frame; `status` says why (none configured, lost, busy)."""

    def __init__(self, status: CameraStatus) -> None:
        super().__init__(f"camera {status.state}: {status.error or 'no frame'}")
        self.status = status


@dataclass(frozen=True)
class Scan:
    """A scan as read: `key` names its annotated picture (and its kept frame, if any)."""

    result: ScanResult
    key: str
    deck: str | None  # the deck whose model read it; None: the generic model
    learn: bool  # its frame is kept, to learn the deck from once its hand is saved
    warnings: list[str]


@dataclass(frozen=True)
class KnockRead:
    """A photo of one player's hand, read and judged: `check` is None unless the cards
    read make a whole hand and no card was seen but not read (`unread`: a count that takes
    in such a card is no whole read); `limit` is the player's limit all the same."""

    player: str
    check: dict[str, Any] | None
    limit: int
    cards: list[str]
    impossible: list[str]
    maybe: list[str]
    preview: bytes | None  # the photo with its cards marked, small (JPEG)
    unread: list[dict[str, Any]] = field(default_factory=list)  # `ScanResult.unread`


class ScanService:
    """Reads frames for play with the app's reader, camera and settings, and keeps what a
    scan leaves: its annotated picture (`pictures`) and its frame to learn from (`frames`).

    Each method blocks (loading a model, reading a frame): call it from a worker thread.
    """

    def __init__(self, vision: Vision, settings: Settings, camera: CameraSupervisor,
                 pictures: ScanImages, frames: ScanFrames) -> None:
        self.vision = vision
        self.settings = settings
        self.camera = camera
        self.pictures = pictures
        self.frames = frames

    def reader(self) -> CardReader:
        """The generic reader (enrolling and learning read with it, whatever the deck)."""
        return _loaded(self.vision.reader)

    def deck_reader(self, deck: str | None) -> tuple[CardReader, list[str]]:
        """The reader for a game's deck, and what to tell the players about it."""
        return _loaded(lambda: reader_for(self.vision, self.settings.data_dir, deck))

    def capture(self) -> np.ndarray:
        """A fresh frame from the table camera; `NoFrame` when it has none."""
        frame = self.camera.capture()
        if frame is None:
            raise NoFrame(self.camera.status())
        return frame

    def scan(self, frame: np.ndarray, game: Game, game_id: int, player: str | None,
             camera: str | None, deck: str | None) -> Scan:
        """Read `frame` for the game (`camera` names the fixed camera it came from; None for
        a photo), keep its annotated picture, and its frame when the deck learns from play."""
        from scorekeeper.vision.scan import scan_frame

        reader, warnings = self.deck_reader(deck)
        # a calibration belongs to the table's camera: a phone's photo is read without it (the
        # scan mat, if the photo shows it, is still found in the photo itself)
        calibration = self._calibration() if camera else None
        result = scan_frame(frame, reader, game, player, calibration, camera)
        if camera:
            self.camera.advance()  # a replay's next scan reads its next shot
        key = self.pictures.add(jpeg(result.annotated) or b"")
        learn = self._keep_frame(key, frame, calibration, result.cards, game_id, deck)
        return Scan(result, key, getattr(reader, "deck", None), learn, warnings)

    def count(self, frame: np.ndarray, camera: str | None, deck: str | None) -> LiveCount:
        """How many cards `frame` shows and how many of them are unsure, for the live count
        while aiming: read as a scan reads it (the same reader, the camera's calibration and
        scale, only the mat's zones) but with no layout, picture or frame kept."""
        from scorekeeper.vision.reader import is_sure
        from scorekeeper.vision.scan import read_on_mat

        reader, _ = self.deck_reader(deck)
        _, result, _ = read_on_mat(frame, reader, self._calibration() if camera else None,
                                   camera)
        return LiveCount(len(result.cards), sum(not is_sure(c) for c in result.cards),
                         len(result.unread), result.ms)

    def knock(self, frame: np.ndarray, game: Game, player: str, deck: str | None) -> KnockRead:
        """Read a photo of `player`'s hand and judge it. Nothing of it is kept: no picture
        stored, no frame to learn from (the hand is still secret)."""
        from scorekeeper.vision.scan import scan_frame

        reader, _ = self.deck_reader(deck)  # the game's deck, if any
        result = scan_frame(frame, reader, game, player)
        check = result.knock
        limit = check["limit"] if check else _limit(game, player)
        return KnockRead(player, check, limit, list(result.hand), list(result.impossible),
                         [c["card"] for c in result.maybe], preview(result.annotated),
                         list(result.unread))

    def _calibration(self) -> Any:
        """The table camera's calibration, or None: a file that cannot be used must not stop
        a scan (the frame is read as it is), but the log says why it was left out."""
        from scorekeeper.calibration.calibration import CalibrationError, load_calibration

        try:
            return load_calibration(self.settings.calibration_path)
        except (CalibrationError, OSError) as exc:
            log.warning("scan without the calibration: %s", exc)
            return None

    def _keep_frame(self, key: str, frame: np.ndarray, calibration: Any,
                    cards: list[dict[str, Any]], game_id: int, deck: str | None) -> bool:
        """Keep the frame as read, to learn the game's deck from; whether it was kept."""
        if not (deck and self.settings.learn_from_scans and cards):
            return False
        kept = keep_frame(frame, calibration, cards, game_id, deck)
        if kept is None:
            return False
        self.frames.add(key, kept)
        return True


def _loaded(load: Callable[[], T]) -> T:
    """`load()`, a reader that cannot be loaded raised as `ReaderUnavailable` (only the
    loading: a fault while reading a frame is no missing reader)."""
    from scorekeeper.vision.reader import VisionError

    try:
        return load()
    except (VisionError, ImportError, OSError) as exc:
        raise ReaderUnavailable(str(exc)) from exc


def _limit(game: Game, player: str) -> int:
    """The player's limit when no cards gave a check (the verdict is then "no answer")."""
    from scorekeeper.rules import chicago

    total = next(p["total"] for p in game.snapshot()["players"] if p["name"] == player)
    return chicago.knock_limit(total)
