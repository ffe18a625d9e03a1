"""Photos over HTTP, shared by the scan, knock and deck routes: a request's photo (or the
JSON body sent instead) read within the server's caps, and the JPEG reply.

The caps are checked before the work they bound: the body's size before it is read (the
routes' BODY_LIMITS, limits.py), the photo's size and its pixel count (from its header)
before it is decoded. Every photo is decoded by `decode_upload`, and only there.
"""

from __future__ import annotations

from typing import Any, TypeVar

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from starlette.datastructures import UploadFile

from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.imagesize import image_size
from scorekeeper.web.http.limits import megabytes

M = TypeVar("M", bound=BaseModel)

MAX_UPLOAD = 20 * 1024 * 1024
# A 50 MP phone photo (8160 × 6120) decodes to 150 MB; a few hundred KB of PNG can declare
# 20 000 × 20 000 (1.2 GB), so the size is read from the header and checked first.
MAX_PIXELS = 50_000_000
UPLOAD_BODY = MAX_UPLOAD + 64 * 1024  # a body with a photo: the multipart framing, a name


class Jpeg(Response):
    media_type = "image/jpeg"


def is_upload(request: Request) -> bool:
    return request.headers.get("content-type", "").startswith("multipart/form-data")


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
