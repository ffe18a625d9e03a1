"""Photos over HTTP, shared by the scan, knock and deck routes: a request's photo (or the
JSON body sent instead) read within the server's caps, and the JPEG reply.

The caps are checked before the work they bound: the body's size before it is read (the
routes' BODY_LIMITS, limits.py), the photo's size and its pixel count (from its header)
before it is decoded, and its memory by the decode gate (decodes.py) before it is decoded
and until it has been read. Every photo is decoded by `decode_upload`, and only there.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from starlette.datastructures import UploadFile
from starlette.requests import ClientDisconnect

from scorekeeper.web.http.decodes import DecodeGate
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.imagesize import ImageSize, image_size
from scorekeeper.web.http.limits import megabytes

M = TypeVar("M", bound=BaseModel)

MAX_UPLOAD = 20 * 1024 * 1024
# A 50 MP phone photo (8160 × 6120) decodes to 150 MB; a few hundred KB of PNG can declare
# 20 000 × 20 000 (1.2 GB), so the size is read from the header and checked first.
MAX_PIXELS = 50_000_000
UPLOAD_BODY = MAX_UPLOAD + 64 * 1024  # a body with a photo: the multipart framing, a name
HEAD_BYTES = 256 * 1024  # a photo's start, enough for its size past EXIF and colour profile


class Jpeg(Response):
    media_type = "image/jpeg"


def is_upload(request: Request) -> bool:
    return request.headers.get("content-type", "").startswith("multipart/form-data")


_REDUCED = {1: "IMREAD_COLOR", 2: "IMREAD_REDUCED_COLOR_2", 4: "IMREAD_REDUCED_COLOR_4",
            8: "IMREAD_REDUCED_COLOR_8"}


def _decode(data: bytes, reduce: int) -> Any:
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, np.uint8), getattr(cv2, _REDUCED[reduce]))


@dataclass(frozen=True)
class Photo:
    """An uploaded photo decoded: its BGR `frame` (1/`reduce` of its size), its bytes as
    sent and the size its header declares."""

    frame: Any
    data: bytes
    size: ImageSize
    reduce: int


async def _declared_size(upload: UploadFile, name: str) -> ImageSize:
    """The photo's size from its header, checked against the caps before it is decoded."""
    sent = upload.size if upload.size is not None else len(await upload.read())
    if sent > MAX_UPLOAD:
        raise ApiError(413, f"the photo is over {megabytes(MAX_UPLOAD)}", code="photo_too_big",
                       size=megabytes(MAX_UPLOAD))
    await upload.seek(0)
    size = image_size(await upload.read(HEAD_BYTES))
    if size is None and sent > HEAD_BYTES:  # a header past the usual metadata: read it all
        await upload.seek(0)
        size = image_size(await upload.read())
    await upload.seek(0)
    if size is None:
        raise ApiError(415, f"{name} is not an image (JPEG, PNG, WebP or BMP expected)",
                       code="photo_not_image")
    if size.pixels > MAX_PIXELS:
        raise _too_large(name, size, MAX_PIXELS)
    return size


def _too_large(name: str, size: ImageSize, most: int) -> ApiError:
    places = max(0, 2 - math.floor(math.log10(most / 1e6)))  # 3 digits: 22.3, 0.03
    megapixels = math.floor(most / 1e6 * 10**places) / 10**places  # never overstated
    return ApiError(413, f"{name} is {size.width} × {size.height} pixels; at most "
                         f"{megapixels:g} megapixels are read", code="photo_too_large",
                    width=size.width, height=size.height, max=megapixels)


@asynccontextmanager
async def decode_upload(gate: DecodeGate, upload: UploadFile, name: str,
                        request: Request | None = None) -> AsyncIterator[Photo]:
    """The photo decoded, held within the decode gate (http/decodes.py) while the block
    reads it; its size and pixel count are checked from its header first.

    Its bytes are read only once it has its place: a photo waiting for one stays in the
    upload's file. A client that went away while it waited costs no decoding
    (`ClientDisconnect`). Decoding takes a second or more on a Pi, so it runs in a worker
    thread.
    """
    size = await _declared_size(upload, name)
    plan = gate.plan(size)
    if plan is None:
        raise _too_large(name, size, gate.max_pixels)
    async with gate.hold(plan.cost + (upload.size or 0)):
        if request is not None and await request.is_disconnected():
            raise ClientDisconnect()
        data = await upload.read()
        frame = await run_in_threadpool(_decode, data, plan.reduce)
        if frame is None:
            raise ApiError(415, f"{name} is not a readable {size.format.upper()} image",
                           code="photo_unreadable", format=size.format.upper())
        yield Photo(frame, data, size, plan.reduce)


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
