"""`GET /api/games/{id}/events`: the live game as Server-Sent Events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse

from scorekeeper.store import GameStore
from scorekeeper.web.auth import public
from scorekeeper.web.hub import Hub, StreamRefused, sse_message

RETRY_MS = 2000
REFUSED_RETRY_S = 10  # how long a refused phone is asked to wait before trying again


async def _stream(
    store: GameStore, hub: Hub, game_id: int, client: str, last_id: str | None,
    keepalive: float,
) -> AsyncIterator[str]:
    """Current snapshot (unless the phone already has it), then each change, with keep-alives.

    Subscribing before reading the snapshot means no change can fall between the two.
    Subscribing here, not in the route, means a stream that never starts holds no place.
    """
    try:
        queue = hub.subscribe(game_id, client)
    except StreamRefused as refused:  # the route's check raced another stream: end at once
        yield f"retry: {REFUSED_RETRY_S * 1000}\n: {refused.message}\n\n"
        return
    try:
        view = store.get(game_id)
        sent = view["seq"]
        yield f"retry: {RETRY_MS}\n\n"
        if last_id != str(sent):
            yield sse_message(view)
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), keepalive)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if item is None:
                return
            seq, message = item
            if seq > sent:
                sent = seq
                yield message
    finally:
        hub.unsubscribe(game_id, queue, client)


@public
async def game_events(game_id: int, request: Request) -> Response:
    store: GameStore = request.app.state.store
    hub: Hub = request.app.state.hub
    client = request.client.host if request.client else ""
    refused = hub.refusal(client)
    if refused is not None:
        headers = {"Retry-After": str(REFUSED_RETRY_S)}
        return JSONResponse({"detail": refused.message}, refused.status, headers=headers)
    await run_in_threadpool(store.get, game_id)  # an unknown game is a 404, not an empty stream
    stream = _stream(
        store,
        hub,
        game_id,
        client,
        request.headers.get("last-event-id"),
        request.app.state.settings.keepalive_s,
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)
