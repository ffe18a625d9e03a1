"""Every write through the game API: one path, so a rule about who may write a game holds
for every route that writes one.

A club server holds games its tables forwarded; the table keeps that game's log and goes on
sending it, so an event written at the club would meet the table's own under the same seq.
A club server's parts hold its `owner` (game id -> the refusal in words, or None) and every
write here asks it first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.concurrency import run_in_threadpool

from scorekeeper.store import GameStore, RequestKey, Written
from scorekeeper.store.requests import Answer, view_answer
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.live.hub import Hub

# game id -> why this server may not write that game (words for a 409), or None
GameOwner = Callable[[int], str | None]


@dataclass(frozen=True)
class GameWriter:
    store: GameStore
    hub: Hub
    owner: GameOwner | None = None

    async def write(self, game_id: int, event: dict[str, Any], answer: Answer = view_answer, *,
                    expect_seq: int | None = None, request: RequestKey | None = None
                    ) -> Written:
        """Refuse a game this server does not own (409), commit in a worker thread (fsync
        must not stall the SSE loop), then broadcast. `expect_seq` (If-Match) and `request`
        (Idempotency-Key) are judged by the store inside the write (store/requests.py): a
        repeated key writes nothing and broadcasts nothing."""
        if self.owner is not None:
            refusal = await run_in_threadpool(self.owner, game_id)
            if refusal is not None:
                raise ApiError(409, refusal, code="game_at_table")
        written = await run_in_threadpool(
            lambda: self.store.write(game_id, event, answer, request=request,
                                     expect_seq=expect_seq))
        if not written.replayed:
            self.hub.publish(written.view)
        return written
