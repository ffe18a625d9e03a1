"""Camera and scan routes: aim the camera, scan a player's cards, fetch the annotated photo.

Thin by design: frames come from the camera supervisor or an upload, the reading is
`scorekeeper.vision.scan.scan_frame`, and the annotated pictures are kept in memory only
(they are for checking the read, not a record; the hand that counts is in the store).
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from scorekeeper.web.auth import public
from scorekeeper.web.imagesize import image_size
from scorekeeper.web.limits import megabytes

MAX_UPLOAD = 20 * 1024 * 1024
# A 50 MP phone photo (8160 × 6120) decodes to 150 MB; a few hundred KB of PNG can declare
# 20 000 × 20 000 (1.2 GB), so the size is read from the header and checked first.
MAX_PIXELS = 50_000_000
SCAN_PATH = "/api/games/{game_id}/scan"
# the photo plus the multipart framing and the player's name
BODY_LIMITS = {SCAN_PATH: MAX_UPLOAD + 64 * 1024}
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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


def _calibration(request: Request) -> Any:
    from scorekeeper.calibration.calibration import load_calibration

    try:
        return load_calibration(request.app.state.settings.calibration_path)
    except Exception:  # a broken calibration file must not stop scans: read frames as they are
        return None


def _decode(data: bytes) -> Any:
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


async def _decode_upload(data: bytes, name: str) -> Any:
    """The photo as a BGR frame, or the error: its pixel count is checked before decoding.

    Decoding a big photo takes a second or more on a Pi, so it runs in a worker thread.
    """
    if len(data) > MAX_UPLOAD:
        return _error(413, f"the photo is over {megabytes(MAX_UPLOAD)}")
    size = image_size(data)
    if size is None:
        return _error(415, f"{name} is not an image (JPEG, PNG, WebP or BMP expected)")
    if size.pixels > MAX_PIXELS:
        return _error(413, f"{name} is {size.width} × {size.height} pixels; at most "
                           f"{MAX_PIXELS / 1e6:g} megapixels are read")
    frame = await run_in_threadpool(_decode, data)
    if frame is None:
        return _error(415, f"{name} is not a readable {size.format.upper()} image")
    return frame


async def _frame_and_player(request: Request
                            ) -> tuple[Any, str | None, str | None] | JSONResponse:
    """The frame, the player, and the camera it came from (None for a photo upload)."""
    ctype = request.headers.get("content-type", "")
    if ctype.startswith("multipart/form-data"):
        form = await request.form()
        upload = form.get("image")
        player = form.get("player")
        if upload is None or isinstance(upload, str):
            return _error(422, "a photo upload needs the file field 'image'")
        frame = await _decode_upload(await upload.read(), upload.filename or "the upload")
        if isinstance(frame, JSONResponse):
            return frame
        return frame, (str(player) if player else None), None
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # RecursionError: JSON nested too deeply
        return _error(422, "malformed JSON: send {\"player\": NAME} or a photo as 'image'")
    if not isinstance(body, dict) or set(body) - {"player"}:
        return _error(422, "a camera scan takes {\"player\": NAME} and nothing else")
    player = body.get("player")
    if player is not None and not isinstance(player, str):
        return _error(422, f"player must be a name, got {player!r}")
    camera = request.app.state.camera
    frame = await run_in_threadpool(camera.capture)
    if frame is None:
        status = camera.status()
        return _error(503, f"camera {status.state}: {status.error or 'no frame'}")
    return frame, player, "camera"


async def scan(game_id: int, request: Request) -> Response:
    import cv2

    from scorekeeper.vision.reader import VisionError
    from scorekeeper.vision.scan import scan_frame

    got = await _frame_and_player(request)
    if isinstance(got, JSONResponse):
        return got
    frame, player, camera = got
    game = request.app.state.store.game(game_id)
    if player is not None:
        player = game.player_name(player)
    try:
        reader = await run_in_threadpool(request.app.state.vision.reader)
    except (VisionError, ImportError, OSError) as exc:
        return _error(503, f"card reader unavailable: {exc}")
    # a calibration belongs to the table's camera: a phone's photo is read without it (the
    # scan mat, if the photo shows it, is still found in the photo itself)
    calibration = _calibration(request) if camera else None
    result = await run_in_threadpool(scan_frame, frame, reader, game, player, calibration,
                                     camera)
    ok, jpeg = cv2.imencode(".jpg", result.annotated, [cv2.IMWRITE_JPEG_QUALITY, 85])
    key = request.app.state.scans.add(jpeg.tobytes() if ok else b"")
    body = {"player": player, **result.to_json(f"/api/scans/{key}.jpg")}
    return JSONResponse(body, status_code=201)


@public
def scan_image(key: str, request: Request) -> Response:
    jpeg = request.app.state.scans.get(key)
    if jpeg is None:
        return _error(404, f"no scan {key} (only the last {KEEP_SCANS} are kept)")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@public
def camera_status(request: Request) -> Response:
    return JSONResponse(request.app.state.camera.status().model_dump(mode="json"))


async def camera_snapshot(request: Request) -> Response:
    """Admin only: the table may show cards that are not everyone's to see."""
    jpeg = await run_in_threadpool(request.app.state.camera.snapshot)
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


def register(app: FastAPI) -> None:
    app.add_api_route(SCAN_PATH, scan, methods=["POST"], status_code=201)
    app.add_api_route("/api/scans/{key}.jpg", scan_image, methods=["GET"])
    app.add_api_route("/api/camera", camera_status, methods=["GET"])
    app.add_api_route("/api/camera/snapshot", camera_snapshot, methods=["GET"])
