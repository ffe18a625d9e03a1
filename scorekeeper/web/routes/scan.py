"""Camera and scan routes: aim the camera, scan a player's cards, fetch the annotated photo.

Thin by design: frames come from the camera supervisor or an upload, the reading is
`scorekeeper.vision.scan.scan_frame`, and the annotated pictures are kept in memory only
(web/vision.py: they are for checking the read, not a record; the hand that counts is in
the store). A refusal is raised (`ApiError`, a validation error) and web/errors.py answers.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, TypeVar

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from starlette.datastructures import UploadFile

from scorekeeper.camera.supervisor import CameraStatus
from scorekeeper.decks.learn import keep_frame
from scorekeeper.web.deps import (
    CameraDep,
    FramesDep,
    ScansDep,
    SettingsDep,
    StoreDep,
    VisionDep,
)
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.imagesize import image_size
from scorekeeper.web.http.limits import megabytes
from scorekeeper.web.models import (
    JPEG,
    ScanAnswer,
    ScanCamera,
    json_or_photo,
    photo_schema,
    refusals,
)
from scorekeeper.web.vision import KEEP_SCANS, Vision, reader_for

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

MAX_UPLOAD = 20 * 1024 * 1024
# A 50 MP phone photo (8160 × 6120) decodes to 150 MB; a few hundred KB of PNG can declare
# 20 000 × 20 000 (1.2 GB), so the size is read from the header and checked first.
MAX_PIXELS = 50_000_000
SCAN_PATH = "/api/games/{game_id}/scan"
# the photo plus the multipart framing and the player's name
BODY_LIMITS = {SCAN_PATH: MAX_UPLOAD + 64 * 1024}


class Jpeg(Response):
    media_type = "image/jpeg"


def is_upload(request: Request) -> bool:
    return request.headers.get("content-type", "").startswith("multipart/form-data")


def _calibration(path: Path) -> Any:
    """The table camera's calibration, or None: a file that cannot be used must not stop a
    scan (the frame is read as it is), but the log says why it was left out."""
    from scorekeeper.calibration.calibration import CalibrationError, load_calibration

    try:
        return load_calibration(path)
    except (CalibrationError, OSError) as exc:
        log.warning("scan without the calibration: %s", exc)
        return None


def _decode(data: bytes) -> Any:
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


async def decode_upload(data: bytes, name: str) -> Any:
    """The photo as a BGR frame; its pixel count is checked before decoding.

    Decoding a big photo takes a second or more on a Pi, so it runs in a worker thread.
    """
    if len(data) > MAX_UPLOAD:
        raise ApiError(413, f"the photo is over {megabytes(MAX_UPLOAD)}", code="photo_too_big",
                       size=megabytes(MAX_UPLOAD))
    size = image_size(data)
    if size is None:
        raise ApiError(415, f"{name} is not an image (JPEG, PNG, WebP or BMP expected)",
                       code="photo_not_image")
    if size.pixels > MAX_PIXELS:
        raise ApiError(413, f"{name} is {size.width} × {size.height} pixels; at most "
                            f"{MAX_PIXELS / 1e6:g} megapixels are read", code="photo_too_large",
                       width=size.width, height=size.height, max=MAX_PIXELS / 1e6)
    frame = await run_in_threadpool(_decode, data)
    if frame is None:
        raise ApiError(415, f"{name} is not a readable {size.format.upper()} image",
                       code="photo_unreadable", format=size.format.upper())
    return frame


async def photo_form(request: Request, missing: str) -> tuple[UploadFile, str | None]:
    """The uploaded photo (`missing` says what to send when there is none) and the player."""
    form = await request.form()
    upload, player = form.get("image"), form.get("player")
    if not isinstance(upload, UploadFile):
        raise ApiError(422, missing, code="photo_missing")
    if player is not None and not isinstance(player, str):
        raise ApiError(422, "player: must be text, not a file", code="request_invalid",
                       problems=[{"field": "player", "reason": "text"}])
    return upload, player or None


async def json_body(request: Request, model: type[M], malformed: str) -> M:
    """A JSON body read as `model`: refused as malformed, or by shape as any typed route's."""
    try:
        raw = await request.json()
    except (ValueError, RecursionError):  # RecursionError: JSON nested too deeply
        raise ApiError(422, f"malformed JSON: {malformed}", code="json_malformed") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False, include_input=False),
                                     body=raw) from None


async def reader_of(vision: Vision) -> Any:
    """The card reader, or a 503 saying why there is none."""
    from scorekeeper.vision.reader import VisionError

    try:
        return await run_in_threadpool(vision.reader)
    except (VisionError, ImportError, OSError) as exc:
        raise ApiError(503, f"card reader unavailable: {exc}", code="reader_unavailable") from exc


async def _frame_and_player(request: Request, camera: CameraDep
                            ) -> tuple[Any, str | None, str | None]:
    """The frame, the player, and the camera it came from (None for a photo upload)."""
    if is_upload(request):
        upload, player = await photo_form(request, "a photo upload needs the file field 'image'")
        frame = await decode_upload(await upload.read(), upload.filename or "the upload")
        return frame, player, None
    body = await json_body(request, ScanCamera,
                           "send {\"player\": NAME} or a photo as 'image'")
    frame = await run_in_threadpool(camera.capture)
    if frame is None:
        status = camera.status()
        raise ApiError(503, f"camera {status.state}: {status.error or 'no frame'}",
                       code="camera_none" if status.state == "none" else "camera_unavailable",
                       state=status.state)
    return frame, body.player, "camera"


async def deck_reader_of(vision: Vision, data_dir: Path, deck: str | None
                         ) -> tuple[Any, list[str]]:
    """The reader for the game's deck and its warnings, or a 503 saying why there is none."""
    from scorekeeper.vision.reader import VisionError

    try:
        return await run_in_threadpool(reader_for, vision, data_dir, deck)
    except (VisionError, ImportError, OSError) as exc:
        raise ApiError(503, f"card reader unavailable: {exc}", code="reader_unavailable") from exc


router = APIRouter(route_class=GuardedRoute)


@router.post(SCAN_PATH, status_code=201, response_model=ScanAnswer,
             responses=refusals(400, 404, 413, 415, 422, 503),
             openapi_extra=json_or_photo(ScanCamera,
                                         photo_schema("whose cards (none: the whole table)")),
             response_model_exclude_unset=True)
async def scan(game_id: int, request: Request, store: StoreDep, camera: CameraDep,
               vision: VisionDep, scans: ScansDep, settings: SettingsDep,
               frames: FramesDep) -> dict[str, Any]:
    """Read a player's cards (or the whole table's) from the table's camera or a photo,
    with the game's deck when it names one."""
    import cv2

    from scorekeeper.vision.scan import scan_frame

    frame, player, source = await _frame_and_player(request, camera)
    game = store.game(game_id)
    deck = store.get(game_id).get("deck")
    if player is not None:
        player = game.player_name(player)
    reader, warnings = await deck_reader_of(vision, settings.data_dir, deck)
    # a calibration belongs to the table's camera: a phone's photo is read without it (the
    # scan mat, if the photo shows it, is still found in the photo itself)
    calibration = _calibration(settings.calibration_path) if source else None
    result = await run_in_threadpool(scan_frame, frame, reader, game, player, calibration,
                                     source)
    ok, jpeg = cv2.imencode(".jpg", result.annotated, [cv2.IMWRITE_JPEG_QUALITY, 85])
    key = scans.add(jpeg.tobytes() if ok else b"")
    learning = bool(deck and settings.learn_from_scans and result.cards)
    if deck and learning:
        kept = await run_in_threadpool(keep_frame, frame, calibration, result.cards, game_id,
                                       deck)
        learning = kept is not None
        if kept is not None:
            frames.add(key, kept)
    return {"player": player, **result.to_json(f"/api/scans/{key}.jpg"), "id": key,
            "deck": getattr(reader, "deck", None), "learn": learning, "warnings": warnings}


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


