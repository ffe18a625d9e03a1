"""The decode gate: how many photos are decoded and read at once, and how much memory their
pixels may hold together.

A photo's memory follows its pixels, known from its header before a byte of it is decoded
(imagesize.py): six PNGs of 146 KB that each declare 7071 × 7071 pixels decode to 150 MB
apiece, and sent at once they took the server from 100 MiB to over 2 GiB. So every photo
asks the gate for its cost before it is decoded and gives it back once it has been read. A
request that finds no room waits its turn (first come, first served, so a big photo is not
passed over for ever) for a few seconds, then is refused with 503 and Retry-After; the
count also bounds the card reader's own buffers, which grow with each read running at once.

A single photo that costs more than the whole budget is never decoded at full size: a JPEG
is decoded at a half, a quarter or an eighth of its size (the JPEG decoder scales while it
decodes, so the full frame never exists), any other format is refused as too large (PNG,
WebP and BMP decoders hold the whole frame before any shrinking could start).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from scorekeeper.settings import Settings
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.imagesize import ImageSize

# Bytes held per pixel of the frame (3 channels of 8 bits, three times over): the decoders
# hold about twice the frame while they work, and a read holds the frame, its annotated
# copy and the reader's grey copy, crops and inputs (measured: 2–2.5 times the frame).
BYTES_PER_PIXEL = 9
REDUCTIONS = (1, 2, 4, 8)  # the sizes a JPEG can be decoded at (cv2.IMREAD_REDUCED_*)
WAIT_S = 20.0  # a photo's longest wait for room: a read takes about a second on a Pi
MAX_WAITING = 32  # photos waiting at once; more are refused without waiting
RETRY_AFTER_S = 5


@dataclass(frozen=True)
class Plan:
    """How a photo is decoded: at 1/`reduce` of its size, holding `cost` bytes."""

    reduce: int
    cost: int


def frame_cost(width: int, height: int) -> int:
    """Bytes a frame of `width` × `height` holds from decoding to the end of its read."""
    return width * height * BYTES_PER_PIXEL


def photo_gate(settings: Settings) -> DecodeGate:
    """The server's gate, sized by its settings (`photo_memory_mb`, `photo_reads`)."""
    return DecodeGate(settings.photo_memory_mb * 2**20, settings.photo_reads)


class DecodeGate:
    """At most `at_once` photos decoded or read at a time, costing at most `budget` bytes
    together. Used from the event loop only."""

    def __init__(self, budget: int, at_once: int, wait_s: float = WAIT_S,
                 max_waiting: int = MAX_WAITING) -> None:
        self.budget = budget
        self.at_once = at_once
        self.wait_s = wait_s
        self.max_waiting = max_waiting
        self.used = 0
        self.running = 0
        self.refused = 0
        self._waiting: deque[tuple[int, asyncio.Future[None]]] = deque()

    @property
    def max_pixels(self) -> int:
        """The most pixels a photo decoded at full size may have."""
        return self.budget // BYTES_PER_PIXEL

    def plan(self, size: ImageSize) -> Plan | None:
        """How to decode a photo of `size` within the budget; None: it cannot be."""
        reductions = REDUCTIONS if size.format == "jpeg" else (1,)
        for reduce in reductions:
            cost = frame_cost(-(-size.width // reduce), -(-size.height // reduce))
            if cost <= self.budget:
                return Plan(reduce, cost)
        return None

    @asynccontextmanager
    async def hold(self, cost: int) -> AsyncIterator[None]:
        """Hold `cost` bytes and one of the places while the block runs; waits for them, or
        raises the 503 that asks the phone to send it again later."""
        cost = min(cost, self.budget)  # a frame of a camera larger than the budget: alone
        await self._acquire(cost)
        try:
            yield
        finally:
            self.used -= cost
            self.running -= 1
            self._wake()

    def _fits(self, cost: int) -> bool:
        return self.running < self.at_once and self.used + cost <= self.budget

    def _take(self, cost: int) -> None:
        self.used += cost
        self.running += 1

    async def _acquire(self, cost: int) -> None:
        if not self._waiting and self._fits(cost):
            self._take(cost)
            return
        if len(self._waiting) >= self.max_waiting:
            raise self._busy()
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (cost, turn)
        self._waiting.append(entry)
        try:
            await asyncio.wait_for(asyncio.shield(turn), self.wait_s)
        except BaseException as exc:  # timed out, or the request was cancelled
            if turn.done() and not turn.cancelled():  # given its place as time ran out
                self.used -= cost
                self.running -= 1
            else:
                turn.cancel()
                self._waiting.remove(entry)
            self._wake()
            if isinstance(exc, TimeoutError):
                raise self._busy() from None
            raise

    def _wake(self) -> None:
        """Hand places to the waiting photos in their order, as far as they fit."""
        while self._waiting and self._fits(self._waiting[0][0]):
            cost, turn = self._waiting.popleft()
            self._take(cost)
            turn.set_result(None)

    def _busy(self) -> ApiError:
        self.refused += 1
        return ApiError(503, f"the scorekeeper is reading other photos; send this one again "
                             f"in {RETRY_AFTER_S} s", {"Retry-After": str(RETRY_AFTER_S)},
                        code="photo_busy", wait=RETRY_AFTER_S)
