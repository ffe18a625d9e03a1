"""In-process broadcast of game changes to Server-Sent-Event listeners.

Each listener owns a small asyncio.Queue; a change is encoded once and handed to every
queue of its game, so 100 phones cost one JSON dump per change and no database reads.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from typing import Any

QUEUE_SIZE = 8
Item = tuple[int, str] | None  # (seq, SSE message), or None: the server is shutting down


def sse_message(view: dict[str, Any]) -> str:
    """One SSE event: `id` is the game's seq so a reconnecting phone can say what it has."""
    return f"id: {view['seq']}\ndata: {json.dumps(view, separators=(',', ':'))}\n\n"


class Hub:
    """Per-game sets of listener queues; must be used from the event loop's thread."""

    def __init__(self) -> None:
        self._listeners: dict[int, set[asyncio.Queue[Item]]] = defaultdict(set)
        self._published: dict[int, int] = {}
        self._closed = False

    def subscribe(self, game_id: int) -> asyncio.Queue[Item]:
        queue: asyncio.Queue[Item] = asyncio.Queue(QUEUE_SIZE)
        self._listeners[game_id].add(queue)
        if self._closed:
            queue.put_nowait(None)
        return queue

    def close(self) -> None:
        """End every stream, so shutting down need not wait for phones to hang up."""
        self._closed = True
        for listeners in self._listeners.values():
            for queue in listeners:
                _put_latest(queue, None)

    def unsubscribe(self, game_id: int, queue: asyncio.Queue[Item]) -> None:
        listeners = self._listeners.get(game_id)
        if listeners is not None:
            listeners.discard(queue)
            if not listeners:
                del self._listeners[game_id]

    def publish(self, view: dict[str, Any]) -> None:
        """Send a game's new state to its listeners.

        Writes finish in worker threads, so two may arrive out of order; every event is a
        whole snapshot, so an older one than already sent is simply dropped. A listener too
        slow to keep up loses its oldest queued snapshot, never the newest.
        """
        game_id, seq = view["id"], view["seq"]
        if seq <= self._published.get(game_id, -1):
            return
        self._published[game_id] = seq
        item = (seq, sse_message(view))
        for queue in self._listeners.get(game_id, ()):
            _put_latest(queue, item)


def _put_latest(queue: asyncio.Queue[Item], item: Item) -> None:
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(item)
