"""One scan: a frame (camera or phone photo) → read cards → groups → the knock check.

The scan service (scorekeeper/scanning) calls `scan_frame` with the reader it picked, and
keeps the annotated picture for the players to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from scorekeeper.rules import Game, KnockHandSize
from scorekeeper.rules.cards import CardError, parse_card
from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.scoring import deck_for
from scorekeeper.vision.annotate import annotate
from scorekeeper.vision.layout import read_layout
from scorekeeper.vision.pairing import PhysicalCard
from scorekeeper.vision.reader import CardReader, ReadResult, cards_json

Zone = str | None


@dataclass
class ScanResult:
    cards: list[dict[str, Any]]
    melds: list[list[str]]
    hand: list[str]
    impossible: list[str]
    knock: dict[str, Any] | None
    annotated: np.ndarray
    ms: float
    maybe: list[dict[str, Any]] = field(default_factory=list)  # `ReadResult.maybe`
    sure_line: float | None = None  # `ReadResult.sure_line`: the review's legend says it
    # `ReadResult.unread`: cards seen but not read, which the review asks the players for
    unread: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self, image_url: str) -> dict[str, Any]:
        return {"cards": self.cards, "melds": self.melds, "hand": self.hand,
                "impossible": self.impossible, "image": image_url, "knock": self.knock,
                "ms": round(self.ms), "maybe": self.maybe, "sure_line": self.sure_line,
                "unread": self.unread}


def scan_frame(frame: np.ndarray, reader: CardReader, game: Game, player: str | None,
               calibration: Any | None = None, camera: str | None = None) -> ScanResult:
    """Read a frame for `game`; Chicago with a player also answers "may I knock?" when the
    cards read make a whole hand (7, or 8 with the card just drawn): never on a partial one.

    `camera` names the fixed camera the frame came from (None for a photo upload).
    """
    view, result, zones = read_on_mat(frame, reader, calibration, camera)
    layout = read_layout(result.cards, game.settings, zones)
    knock = None
    # a card seen but not read: the hand read is not the whole hand, whatever its count
    if game.rules.knock is not None and player is not None and layout.hand \
            and not layout.impossible and not result.unread:
        try:
            knock = game.knock_check(player, layout.hand)
        except KnockHandSize:
            knock = None
    offers = held_offers(result.maybe, deck_for(game.settings))
    return ScanResult(result.to_json(), layout.melds, layout.hand, layout.impossible, knock,
                      annotate(view, result.cards, result.unread), result.ms,
                      cards_json(offers), result.sure_line, [u.to_json() for u in result.unread])


def held_offers(maybe: list[PhysicalCard], deck: DeckSpec) -> list[PhysicalCard]:
    """The reader's offers (`ReadResult.maybe`) that the game's decks hold at all: the
    reader knows no game, so it may offer a joker to a game without jokers, and a player
    would only be asked about a card that cannot be there. How many copies the hand
    already has is the review's check, not a reason to hide an offer."""
    def held(card: PhysicalCard) -> bool:
        try:
            return deck.holds(parse_card(card.card))
        except CardError:
            return False

    return [c for c in maybe if held(c)]


def read_on_mat(frame: np.ndarray, reader: CardReader, calibration: Any | None = None,
                camera: str | None = None
                ) -> tuple[np.ndarray, ReadResult, list[Zone] | None]:
    """(the view read, its reading, the cards' zones): `frame` rectified by the mat's
    `calibration` where there is one, read, and its cards placed in the mat's zones."""
    view = calibration.rectify(frame) if calibration is not None else frame
    result, zones = place_result_on_mat(view, reader.read(view, camera), calibration)
    return view, result, zones


def place_result_on_mat(frame: np.ndarray, result: ReadResult, calibration: Any | None = None
                        ) -> tuple[ReadResult, list[Zone] | None]:
    """`place_on_mat` for a whole reading: the cards it offers (`maybe`) and the cards seen
    but not read (`unread`, placed by their box) go through the mat's zones with the read
    ones, in one look for its markers; the zones are the read cards'."""
    bodies = [PhysicalCard("?", u.conf, u.box, ()) for u in result.unread]
    seen = {id(b): u for b, u in zip(bodies, result.unread, strict=True)}
    placed, zones = place_on_mat(frame, [*result.cards, *result.maybe, *bodies], calibration)
    offered = {id(c) for c in result.maybe}
    counted = [i for i, c in enumerate(placed) if id(c) not in offered and id(c) not in seen]
    placed_result = ReadResult([placed[i] for i in counted], result.ms, result.looks,
                               [c for c in placed if id(c) in offered], result.sure_line,
                               [seen[id(c)] for c in placed if id(c) in seen])
    return placed_result, [zones[i] for i in counted] if zones is not None else None


def place_on_mat(frame: np.ndarray, cards: list[PhysicalCard], calibration: Any | None = None
                 ) -> tuple[list[PhysicalCard], list[Zone] | None]:
    """The cards that lie in the mat's zones, with their zones; all cards, and no zones,
    when there is no mat.

    On a mat only what lies in a zone, off the mat's own print, is a card: its markers,
    titles and scale bar lie outside the zones, and the zone titles and outlines inside them
    are at known places. `calibration` is the saved one (`frame` is then its rectified
    view); without it the scan mat is looked for in the frame itself. With no mat in view,
    readings on an ArUco marker (a table-mode marker) are dropped.
    """
    from scorekeeper.calibration.calibration import mat_in_view
    from scorekeeper.calibration.detect import detect_markers
    from scorekeeper.calibration.mat import on_print

    def centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
        return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2

    size = (frame.shape[1], frame.shape[0])
    markers = detect_markers(frame) if calibration is None and cards else {}
    if calibration is not None:
        s = calibration.px_per_mm

        def to_mm(p: tuple[float, float]) -> tuple[float, float]:
            return p[0] / s, p[1] / s
    elif markers and (calibration := mat_in_view(frame, markers)) is not None:
        def to_mm(p: tuple[float, float]) -> tuple[float, float]:
            return calibration.to_mat_mm(p, size)
    else:
        hulls = [cv2.convexHull(q) for q in markers.values()]
        return [c for c in cards if not any(
            cv2.pointPolygonTest(h, centre(c.box), False) >= 0 for h in hulls)], None
    layout = calibration.layout
    kept: list[tuple[PhysicalCard, str]] = []
    for card in cards:
        spots = [to_mm(r.det.centre) for r in card.indices] or [to_mm(centre(card.box))]
        if all(on_print(layout, p) for p in spots):  # every index it was read from
            continue
        zone = layout.zone_of_mm(to_mm(centre(card.box)))
        if zone is not None:
            kept.append((card, zone if isinstance(zone, str) else zone[-1]))
    return [c for c, _ in kept], [z for _, z in kept]
