"""Every write through the game API: one path, so a rule about who may write a game holds
for every route that writes one.

A club server holds games its tables forwarded; the table keeps that game's log and goes on
sending it, so an event written at the club would meet the table's own under the same seq.
The club sets `app.state.game_owner` (game id -> the refusal in words, or None) and every
write here asks it first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.concurrency import run_in_threadpool

from scorekeeper.store import GameStore
from scorekeeper.web.errors import ApiError
from scorekeeper.web.hub import Hub

# game id -> why this server may not write that game (words for a 409), or None
GameOwner = Callable[[int], str | None]


@dataclass(frozen=True)
class GameWriter:
    store: GameStore
    hub: Hub
    owner: GameOwner | None = None

    async def write(self, game_id: int, event: dict[str, Any]
                    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Refuse a game this server does not own (409), commit in a worker thread (fsync
        must not stall the SSE loop), then broadcast."""
        if self.owner is not None:
            refusal = await run_in_threadpool(self.owner, game_id)
            if refusal is not None:
                raise ApiError(409, refusal)
        view, result = await run_in_threadpool(self.store.append, game_id, event)
        self.hub.publish(view)
        return view, result
