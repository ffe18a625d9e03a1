"""The live count while aiming: how many cards the table camera (GET) or a phone's small
viewfinder frame (POST, a photo) shows now, so the players fix the layout before the shot.

Thin: the camera's counts are shared by every phone aiming it (scanning/counts.py), a photo
goes through the decode gate as any other, and the scan service reads the frame.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from scorekeeper.scanning import ScanService
from scorekeeper.scanning.counts import LiveCount
from scorekeeper.web.deps import CountsDep, PhotosDep, ScannerDep, StoreDep
from scorekeeper.web.http.auth import GuardedRoute
from scorekeeper.web.http.decodes import DecodeGate, frame_cost
from scorekeeper.web.models import CountAnswer, photo_schema, refusals
from scorekeeper.web.scanner import scanning
from scorekeeper.web.uploads import UPLOAD_BODY, decode_upload, photo_form

COUNT_PATH = "/api/games/{game_id}/count"
CAMERA = "camera"  # the table camera's name, as its scans read it (one scale for its frames)
BODY_LIMITS = {COUNT_PATH: UPLOAD_BODY}
PHOTO_FORM = photo_schema("not used: the count is the frame's")

router = APIRouter(route_class=GuardedRoute)


def _answer(counted: LiveCount, source: str, fresh: bool, response: Response) -> CountAnswer:
    response.headers["Cache-Control"] = "no-store"
    return CountAnswer(count=counted.count, unsure=counted.unsure, unread=counted.unread,
                       ms=round(counted.ms), source=source, fresh=fresh)


@router.get(COUNT_PATH, response_model=CountAnswer, responses=refusals(404, 503))
async def camera_count(game_id: int, response: Response, store: StoreDep,
                       scanner: ScannerDep, photos: PhotosDep, counts: CountsDep
                       ) -> CountAnswer:
    """The table camera's latest count, read with the game's deck: at most one read a
    second whatever the number of phones asking (a later one gets the last count)."""
    store.game(game_id)  # an unknown game is a 404 before any read
    deck = store.get(game_id).get("deck")

    async def read(frame: Any) -> LiveCount:
        async with photos.hold(frame_cost(frame.shape[1], frame.shape[0])):
            return await scanning(scanner.count, frame, CAMERA, deck)

    counted, fresh = await counts.count(CAMERA, deck, lambda: scanning(scanner.capture), read)
    return _answer(counted, "camera", fresh, response)


@router.post(COUNT_PATH, response_model=CountAnswer,
             responses=refusals(400, 404, 413, 415, 422, 503),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "multipart/form-data": {"schema": PHOTO_FORM}}}})
async def photo_count(game_id: int, request: Request, response: Response, store: StoreDep,
                      scanner: ScannerDep, photos: PhotosDep) -> CountAnswer:
    """The count of a phone's viewfinder frame (multipart `image`, small: about 640 px),
    decoded within the decode gate and read as a photo; nothing kept."""
    store.game(game_id)
    deck = store.get(game_id).get("deck")
    counted = await _read_photo(request, scanner, photos, deck)
    return _answer(counted, "photo", True, response)


async def _read_photo(request: Request, scanner: ScanService, photos: DecodeGate,
                      deck: str | None) -> LiveCount:
    upload, _ = await photo_form(request, "send the viewfinder's frame as the file 'image'")
    async with decode_upload(photos, upload, upload.filename or "the frame", request) as photo:
        return await scanning(scanner.count, photo.frame, None, deck)
