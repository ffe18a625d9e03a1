"""QR codes as SVG, drawn here so the page needs no CDN to show one."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

import qrcode
import qrcode.image.svg
from fastapi.concurrency import run_in_threadpool

QR_MAX_TEXT = 512  # the table's address, even with an admin token, is under 100 characters
QR_CACHE = 64


def _draw_qr(text: str) -> bytes:
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return bytes(image.to_string())


class QrCodes:
    """QR codes as SVG, drawn once per text and kept (least recently used out).

    Drawing is pure Python (75 ms for 512 characters), so a new one is drawn in a worker
    thread, one at a time: a stream of distinct texts then holds one thread of the pool,
    not all of them, and health checks and scoreboards keep theirs.
    """

    def __init__(self, size: int = QR_CACHE) -> None:
        self._svgs: OrderedDict[str, bytes] = OrderedDict()
        self._size = size
        self._drawing = asyncio.Lock()

    def _cached(self, text: str) -> bytes | None:
        svg = self._svgs.get(text)
        if svg is not None:
            self._svgs.move_to_end(text)
        return svg

    async def svg(self, text: str) -> bytes:
        svg = self._cached(text)
        if svg is not None:
            return svg
        async with self._drawing:
            svg = self._cached(text)
            if svg is None:
                svg = await run_in_threadpool(_draw_qr, text)
        self._svgs[text] = svg
        while len(self._svgs) > self._size:
            self._svgs.popitem(last=False)
        return svg
