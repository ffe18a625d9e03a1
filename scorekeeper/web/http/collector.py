"""The cyclic garbage collector's full passes, run when the server is quiet.

A full pass walks every object Python tracks. Under a flood of connections that wait on
their bodies that was some 170 000 objects of the waiting requests, 94-128 ms of one core
here (more on a Pi) once every half minute or so, and every request waited it out: the
tail of a new phone's health check (docs/server.md). Young and middle passes stay
Python's own (they are short); the full pass is taken off Python's trigger and run from the
event loop when few connections are open, or, under a flood that never ends, once every
`longest_s`, so that cycles which lived long enough to grow old are still freed.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field

QUIET_CONNECTIONS = 8  # a table's phones and its TV; a flood holds hundreds
CHECK_EVERY_S = 5.0
LONGEST_S = 300.0
QUIET_AFTER = 10  # middle passes since the last full one, when quiet (Python's default)
BUSY_AFTER = 100  # ... and when busy, with `longest_s` gone by as well
NEVER = 2**31 - 1  # a full-pass threshold Python never reaches


def middle_passes() -> int:
    """Middle-generation passes since the last full pass (what Python's trigger counts)."""
    return gc.get_count()[2]


@dataclass
class QuietCollector:
    """Decides, at each check, whether a full pass is due, and runs it."""

    busy: Callable[[], int]  # connections open now
    collect: Callable[[], object] = field(default=lambda: gc.collect(2))
    passes: Callable[[], int] = middle_passes
    clock: Callable[[], float] = time.monotonic
    quiet_below: int = QUIET_CONNECTIONS
    longest_s: float = LONGEST_S
    last: float = field(init=False)  # when the last full pass ran (or the server started)
    ran: int = 0

    def __post_init__(self) -> None:
        self.last = self.clock()

    def due(self) -> bool:
        now = self.clock()
        pending = self.passes()
        if self.busy() < self.quiet_below:
            return pending >= QUIET_AFTER
        return pending >= BUSY_AFTER and now - self.last >= self.longest_s

    def tick(self) -> bool:
        """One check: run a full pass if one is due; True if it ran."""
        if not self.due():
            return False
        self.collect()
        self.last = self.clock()
        self.ran += 1
        return True

    async def run(self, every_s: float = CHECK_EVERY_S) -> None:
        while True:
            await asyncio.sleep(every_s)
            self.tick()


def take_full_passes() -> None:
    """Leave young and middle passes to Python and stop its full passes (the collector above
    runs them instead)."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
