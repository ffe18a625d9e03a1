"""One scan: a frame (camera or phone photo) → read cards → groups → the knock check.

The web route stays thin: it fetches the frame and the game, calls `scan_frame`, and
stores the annotated picture for the players to check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scorekeeper.rules import Game
from scorekeeper.rules.settings import ChicagoSettings
from scorekeeper.vision.annotate import annotate
from scorekeeper.vision.layout import read_layout
from scorekeeper.vision.reader import CardReader


@dataclass
class ScanResult:
    cards: list[dict[str, Any]]
    melds: list[list[str]]
    hand: list[str]
    impossible: list[str]
    knock: dict[str, Any] | None
    annotated: np.ndarray
    ms: float

    def to_json(self, image_url: str) -> dict[str, Any]:
        return {"cards": self.cards, "melds": self.melds, "hand": self.hand,
                "impossible": self.impossible, "image": image_url, "knock": self.knock,
                "ms": round(self.ms)}


def scan_frame(frame: np.ndarray, reader: CardReader, game: Game, player: str | None,
               calibration: Any | None = None, camera: str | None = None) -> ScanResult:
    """Read a frame for `game`; Chicago with a player also answers "may I knock?".

    `camera` names the fixed camera the frame came from (None for a photo upload).
    """
    view = calibration.rectify(frame) if calibration is not None else frame
    result = reader.read(view, camera)
    zones: list[str | None] | None = None
    if calibration is not None:
        s = calibration.px_per_mm
        zones = []
        for c in result.cards:
            mm = ((c.box[0] + c.box[2]) / 2 / s, (c.box[1] + c.box[3]) / 2 / s)
            zone = calibration.layout.zone_of_mm(mm)
            zones.append(zone if isinstance(zone, str) or zone is None else zone[-1])
    layout = read_layout(result.cards, game.settings, zones)
    knock = None
    if isinstance(game.settings, ChicagoSettings) and player is not None and layout.hand \
            and not layout.impossible:
        knock = game.knock_check(player, layout.hand)
    return ScanResult(result.to_json(), layout.melds, layout.hand, layout.impossible, knock,
                      annotate(view, result.cards), result.ms)
