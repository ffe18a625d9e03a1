"""The live count while aiming: how many cards the table camera's latest frame shows, and
how many of them are unsure, asked for about once a second by every phone aiming it.

A read takes a second on a Pi, so the phones share it: per camera one read at a time, none
sooner than `EVERY_S` after the last, and a frame already read is not read again. A phone
that asks meanwhile gets the last count (or waits for the one in flight), so two phones
aiming cost what one does.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

EVERY_S = 1.0  # the least time between two reads of one camera


@dataclass(frozen=True)
class LiveCount:
    """The cards read in a frame (`count`), how many of them the review would dash
    (`unsure`), and the cards seen there but not read at all (`unread`)."""

    count: int
    unsure: int
    unread: int
    ms: float  # the read's own time


@dataclass
class _Last:
    frame: Any  # kept only to know it again: the camera holds it anyway
    deck: str | None
    count: LiveCount
    at: float


class CameraCounts:
    """The last count of each camera, shared by the phones that ask for it."""

    def __init__(self, every_s: float = EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every_s = every_s
        self.clock = clock
        self.reads = 0  # reads made, for the health of the rate (tests, the log)
        self._locks: dict[str, asyncio.Lock] = {}
        self._last: dict[str, _Last] = {}

    async def count(self, camera: str, deck: str | None,
                    capture: Callable[[], Awaitable[Any]],
                    read: Callable[[Any], Awaitable[LiveCount]]) -> tuple[LiveCount, bool]:
        """The camera's count with the `deck`'s reader and whether it was read for this
        call: a fresh one (`capture`, then `read`) when the last is older than `every_s`
        and its frame is new, else the last (a count with another deck waits its turn)."""
        lock = self._locks.setdefault(camera, asyncio.Lock())
        async with lock:  # one read per camera at a time: the others wait for it
            last = self._last.get(camera)
            wait = self.every_s - (self.clock() - last.at) if last is not None else 0.0
            if last is not None and wait > 0:
                if last.deck == deck:
                    return last.count, False
                await asyncio.sleep(wait)  # another deck's count: its own read, in its turn
            frame = await capture()
            if last is not None and last.deck == deck and frame is last.frame:
                last.at = self.clock()
                return last.count, False
            counted = await read(frame)
            self.reads += 1
            self._last[camera] = _Last(frame, deck, counted, self.clock())
            return counted, True
