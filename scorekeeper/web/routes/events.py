"""`GET /api/games/{id}/events`: the live game as Server-Sent Events."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Header, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from scorekeeper.store import GameStore
from scorekeeper.web.deps import ClientDep, HubDep, SettingsDep, StoreDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.live.hub import (
    REFUSED_RETRY_S,
    Hub,
    Item,
    StreamRefused,
    sse_message,
    table_message,
)
from scorekeeper.web.models import EVENT_STREAM, refusals

log = logging.getLogger(__name__)

RETRY_MS = 2000


class EventStream(StreamingResponse):
    """A live stream of Server-Sent Events (the media type, for the OpenAPI document)."""

    media_type = "text/event-stream"


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
        log.info("live stream for game %s refused to %s: %s", game_id, client, refused.message)
        yield f"retry: {REFUSED_RETRY_S * 1000}\n: {refused.message}\n\n"
        return
    try:
        view = store.get(game_id)
        sent = view["seq"]
        yield f"retry: {RETRY_MS}\n\n"
        if last_id != str(sent):
            yield sse_message(view)
        if hub.table_game not in (None, game_id):  # the table moved on before this phone came
            yield table_message(hub.table_game)
        async for message in relay(queue, sent, keepalive):
            yield message
    finally:
        hub.unsubscribe(game_id, queue, client)


async def relay(queue: asyncio.Queue[Item], sent: int,
                keepalive: float) -> AsyncIterator[str]:
    """The hub's messages newer than `sent`, a keep-alive comment when quiet, until the hub
    ends the stream (None): one loop for the game stream and the club's."""
    while True:
        try:
            item = await asyncio.wait_for(queue.get(), keepalive)
        except TimeoutError:
            yield ": keep-alive\n\n"
            continue
        if item is None:
            return
        seq, message = item
        if seq is None:  # about the table: whatever the phone's seq
            yield message
        elif seq > sent:
            sent = seq
            yield message


router = APIRouter(route_class=GuardedRoute)


@router.get("/api/games/{game_id}/events", response_class=EventStream,
            responses={**EVENT_STREAM, **refusals(404, 422, 429, 503)})
@public
async def game_events(
    game_id: int, store: StoreDep, hub: HubDep, settings: SettingsDep, client: ClientDep,
    last_event_id: Annotated[str | None, Header()] = None,
) -> Response:
    """The game's view now and after each change (`id` is its seq); Last-Event-ID skips the
    first one when the phone already has it. `event: table` (`{"game": id}`, no `id`) says
    the table plays another game now: on connect, and when the admin's page moves it."""
    refused = hub.refusal(client)
    if refused is not None:
        raise refused
    await run_in_threadpool(store.get, game_id)  # an unknown game is a 404, not an empty stream
    stream = _stream(store, hub, game_id, client, last_event_id, settings.keepalive_s)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return EventStream(stream, headers=headers)
