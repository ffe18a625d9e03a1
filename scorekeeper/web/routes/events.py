"""`GET /api/games/{id}/events`: the live game as Server-Sent Events."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable, AsyncIterator, Callable, Mapping
from typing import Annotated

from fastapi import APIRouter, Header, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from scorekeeper.store import GameStore
from scorekeeper.web.deps import ClientDep, HubDep, SettingsDep, StoreDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.live.hub import Hub, Item, sse_message, table_message
from scorekeeper.web.models import EVENT_STREAM, refusals

log = logging.getLogger(__name__)

RETRY_MS = 2000


class EventStream(StreamingResponse):
    """A live stream of Server-Sent Events (the media type, for the OpenAPI document).

    `release` gives the stream's place in the hub back once the answer ends, however it
    ends: a stream whose phone went away before its first byte never runs its generator,
    so the generator's own `finally` cannot be relied on for that.
    """

    media_type = "text/event-stream"

    def __init__(self, content: AsyncIterable[str], status_code: int = 200,
                 headers: Mapping[str, str] | None = None, *,
                 release: Callable[[], None] | None = None) -> None:
        super().__init__(content, status_code, headers)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.release is not None:
                self.release()


async def _stream(
    store: GameStore, hub: Hub, game_id: int, client: str, last_id: str | None,
    keepalive: float, queue: asyncio.Queue[Item],
) -> AsyncIterator[str]:
    """Current snapshot (unless the phone already has it), then each change, with keep-alives.

    The route subscribed (`queue`) before the snapshot is read here, so no change can fall
    between the two.
    """
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
    await run_in_threadpool(store.get, game_id)  # an unknown game is a 404, not an empty stream
    # the place is taken here, with nothing awaited between the caps' check and the count:
    # phones over a cap arriving together are each refused (StreamRefused: 429 or 503)
    queue = hub.subscribe(game_id, client)
    stream = _stream(store, hub, game_id, client, last_event_id, settings.keepalive_s, queue)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return EventStream(stream, headers=headers,
                       release=lambda: hub.unsubscribe(game_id, queue, client))
