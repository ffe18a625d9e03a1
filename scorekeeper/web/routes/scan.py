"""Camera and scan routes: aim the camera, scan a player's cards, fetch the annotated photo.

Thin by design: the frame comes from an upload (web/uploads.py) or the table camera, and the
scan service (scorekeeper/scanning) reads it for the game and keeps its annotated picture,
in memory only (it is for checking the read, not a record; the hand that counts is in the
store). A refusal is raised (`ApiError`, a validation error) and http/errors.py answers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool

from scorekeeper.camera.supervisor import CameraStatus
from scorekeeper.scanning import KEEP_SCANS, ScanService
from scorekeeper.web.deps import CameraDep, PhotosDep, ScannerDep, ScansDep, StoreDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.decodes import DecodeGate, frame_cost
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.models import (
    JPEG,
    ScanAnswer,
    ScanCamera,
    json_or_photo,
    photo_schema,
    refusals,
)
from scorekeeper.web.scanner import scanning
from scorekeeper.web.uploads import (
    UPLOAD_BODY,
    Jpeg,
    decode_upload,
    is_upload,
    json_body,
    photo_form,
)

SCAN_PATH = "/api/games/{game_id}/scan"
BODY_LIMITS = {SCAN_PATH: UPLOAD_BODY}  # the photo plus the multipart framing and the player


@asynccontextmanager
async def _frame_and_player(request: Request, scanner: ScanService, photos: DecodeGate
                            ) -> AsyncIterator[tuple[Any, str | None, str | None]]:
    """The frame, the player, and the camera it came from (None for a photo upload); the
    frame is held within the decode gate while the block reads it."""
    if is_upload(request):
        upload, player = await photo_form(request, "a photo upload needs the file field 'image'")
        async with decode_upload(photos, upload, upload.filename or "the upload",
                                 request) as photo:
            yield photo.frame, player, None
        return
    body = await json_body(request, ScanCamera,
                           "send {\"player\": NAME} or a photo as 'image'")
    frame = await scanning(scanner.capture)
    async with photos.hold(frame_cost(frame.shape[1], frame.shape[0])):
        yield frame, body.player, "camera"


router = APIRouter(route_class=GuardedRoute)


@router.post(SCAN_PATH, status_code=201, response_model=ScanAnswer,
             responses=refusals(400, 404, 413, 415, 422, 503),
             openapi_extra=json_or_photo(ScanCamera,
                                         photo_schema("whose cards (none: the whole table)")),
             response_model_exclude_unset=True)
async def scan(game_id: int, request: Request, store: StoreDep,
               scanner: ScannerDep, photos: PhotosDep) -> dict[str, Any]:
    """Read a player's cards (or the whole table's) from the table's camera or a photo,
    with the game's deck when it names one."""
    async with _frame_and_player(request, scanner, photos) as (frame, player, source):
        game = store.game(game_id)
        deck = store.get(game_id).get("deck")
        if player is not None:
            player = game.player_name(player)
        done = await scanning(scanner.scan, frame, game, game_id, player, source, deck)
        del frame  # the frame and its annotated copy go before the gate lets the next in
        answer = {"player": player, **done.result.to_json(f"/api/scans/{done.key}.jpg"),
                  "id": done.key, "deck": done.deck, "learn": done.learn,
                  "warnings": done.warnings}
        del done
    return answer


@router.get("/api/scans/{key}.jpg", response_class=Jpeg, responses={**JPEG, **refusals(404)})
@public
def scan_image(key: str, scans: ScansDep) -> Response:
    jpeg = scans.get(key)
    if jpeg is None:
        raise ApiError(404, f"no scan {key} (only the last {KEEP_SCANS} are kept)",
                       code="scan_unknown", keep=KEEP_SCANS)
    return Jpeg(jpeg, headers={"Cache-Control": "no-store"})


@router.get("/api/camera", response_model=CameraStatus)
@public
def camera_status(camera: CameraDep) -> CameraStatus:
    return camera.status()


@router.get("/api/camera/snapshot", response_class=Jpeg, responses=JPEG)
async def camera_snapshot(camera: CameraDep) -> Response:
    """Admin only: the table may show cards that are not everyone's to see."""
    jpeg = await run_in_threadpool(camera.snapshot)
    return Jpeg(jpeg, headers={"Cache-Control": "no-store"})


