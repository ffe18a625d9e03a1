"""One scan: a frame (camera or phone photo) → read cards → groups → the knock check.

The web route stays thin: it fetches the frame and the game, calls `scan_frame`, and
stores the annotated picture for the players to check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from scorekeeper.rules import Game
from scorekeeper.rules.settings import ChicagoSettings
from scorekeeper.vision.annotate import annotate
from scorekeeper.vision.layout import read_layout
from scorekeeper.vision.pairing import PhysicalCard
from scorekeeper.vision.reader import CardReader, ReadResult

Zone = str | None
OUTLINE_MM = 2.5  # an index this close to a zone's printed outline is read off the outline


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
    cards, zones = place_on_mat(view, result.cards, calibration)
    result = ReadResult(cards, result.ms, result.looks)
    layout = read_layout(result.cards, game.settings, zones)
    knock = None
    if isinstance(game.settings, ChicagoSettings) and player is not None and layout.hand \
            and not layout.impossible:
        knock = game.knock_check(player, layout.hand)
    return ScanResult(result.to_json(), layout.melds, layout.hand, layout.impossible, knock,
                      annotate(view, result.cards), result.ms)


def place_on_mat(frame: np.ndarray, cards: list[PhysicalCard], calibration: Any | None = None
                 ) -> tuple[list[PhysicalCard], list[Zone] | None]:
    """The cards that lie in the mat's zones, with their zones; all cards, and no zones,
    when there is no mat.

    The mat's own print (its markers, titles and scale bar) lies outside its zones, and the
    zone titles inside them are at known places, so on a mat only what lies in a zone and
    off its print is a card. `calibration` is the saved one
    (`frame` is then its rectified view); without it the scan mat is looked for in the
    frame itself, so a photo of the mat, or an uncalibrated camera over it, gets the same.
    With no mat in view, readings on an ArUco marker (a table-mode marker) are dropped.
    """
    from scorekeeper.calibration.detect import detect_markers
    from scorekeeper.calibration.mat import printed_text_mm

    def centre(c: PhysicalCard) -> tuple[float, float]:
        return (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2

    if calibration is not None:
        layout = calibration.layout
        s = calibration.px_per_mm

        def to_mm(p: tuple[float, float]) -> tuple[float, float]:
            return p[0] / s, p[1] / s
    elif (mat := _mat_in_view(frame)) is not None:
        layout = mat.layout
        size = (frame.shape[1], frame.shape[0])

        def to_mm(p: tuple[float, float]) -> tuple[float, float]:
            return mat.to_mat_mm(p, size)
    else:
        markers = [cv2.convexHull(q) for q in detect_markers(frame).values()] if cards else []
        return [c for c in cards if not any(
            cv2.pointPolygonTest(m, centre(c), False) >= 0 for m in markers)], None
    text = printed_text_mm(layout.name) if layout.kind == "mat" and layout.name in ("A4", "A3") \
        else []

    outlines = [np.float32(z.polygon_mm).reshape(-1, 1, 2) for z in layout.zones]

    def printed(x: float, y: float) -> bool:  # on a line of text or a zone's dashed outline
        return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in text) or any(
            abs(cv2.pointPolygonTest(o, (x, y), True)) < OUTLINE_MM for o in outlines)

    def on_print(c: PhysicalCard) -> bool:  # every index it was read from lies on print
        spots = [to_mm(r.det.centre) for r in c.indices] or [to_mm(centre(c))]
        return all(printed(x, y) for x, y in spots)

    zones = [None if on_print(c) else layout.zone_of_mm(to_mm(centre(c))) for c in cards]
    named = [z if isinstance(z, str) or z is None else z[-1] for z in zones]
    kept = [(c, z) for c, z in zip(cards, named, strict=True) if z is not None]
    return [c for c, _ in kept], [z for _, z in kept]


def _mat_in_view(frame: np.ndarray) -> Any | None:
    """The scan mat (A4 or A3) when at least three of its markers are in view."""
    from scorekeeper.calibration.calibration import CalibrationError, best_calibration
    from scorekeeper.calibration.layout import mat_layout

    try:
        return best_calibration(frame, [mat_layout("A4"), mat_layout("A3")], source="in view")
    except CalibrationError:
        return None
