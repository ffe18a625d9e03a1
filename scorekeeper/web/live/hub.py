"""In-process broadcast of game changes to Server-Sent-Event listeners.

Each listener owns a small asyncio.Queue; a change is encoded once and handed to every
queue of its game, so 100 phones cost one JSON dump per change and no database reads.
Streams are open to anyone on the network and last for hours, so their number is capped:
per client address, per game and in all. At the cap of a game or of all, a new phone is
not simply refused (one device with many addresses would then hold every place for good):
it takes the oldest stream of the address holding the most there, as long as that address
holds at least two more than the phone's own. So the places end up shared out between
addresses, and a phone is refused only when they are.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from scorekeeper.web.http.limits import is_local

QUEUE_SIZE = 8
MAX_STREAMS = 256  # in all: a table has a dozen phones; each stream is a socket and a task
STREAMS_PER_GAME = 128  # half of all: a club night's big game and its onlookers
STREAMS_PER_CLIENT = 8  # a browser keeps at most 6 connections per server
REFUSED_RETRY_S = 10  # how long a refused phone is asked to wait before trying again
# (seq, SSE message), or None: the server is shutting down; a seq of None: a message about
# the table, not the game (sent whatever the phone's seq)
Item = tuple[int | None, str] | None


def table_message(game_id: int | None) -> str:
    """The `table` event: the game the table plays now (the admin's page opened it), so a
    phone on another game can say so, or follow. No `id`: it is no version of a game."""
    return f"event: table\ndata: {json.dumps({'game': game_id})}\n\n"


def sse_message(view: dict[str, Any]) -> str:
    """One SSE event: `id` is the game's seq so a reconnecting phone can say what it has."""
    return f"id: {view['seq']}\ndata: {json.dumps(view, separators=(',', ':'))}\n\n"


class StreamRefused(Exception):
    """Too many live streams: 429 for one client's, 503 for a game's or the server's.

    Raised from a route, web/errors.py answers it with `Retry-After: retry_after_s`.
    """

    def __init__(self, status: int, message: str, limit: int,
                 retry_after_s: int = REFUSED_RETRY_S) -> None:
        super().__init__(message)
        self.status = status
        self.limit = limit  # the streams allowed (the server's, or one client's)
        self.message = message
        self.retry_after_s = retry_after_s


class Hub:
    """Per-game sets of listener queues; must be used from the event loop's thread.

    A key below 1 is a channel no game can have: the club's big screen uses them for its
    own views (web/live/club_feed.py).

    Clients that `exempt` accepts (this machine: a local process or a reverse proxy,
    whose streams are the phones behind it) count towards the total cap only.
    """

    def __init__(
        self,
        max_streams: int = MAX_STREAMS,
        per_client: int = STREAMS_PER_CLIENT,
        exempt: Callable[[str], bool] = is_local,
        per_game: int = STREAMS_PER_GAME,
    ) -> None:
        self._listeners: dict[int, set[asyncio.Queue[Item]]] = defaultdict(set)
        self._published: dict[int, int] = {}
        self._closed = False
        self.max_streams = max_streams
        self.per_client = per_client
        self.per_game = per_game
        self.exempt = exempt
        self._streams: Counter[str] = Counter()
        self._total = 0
        # every stream's client and game, the oldest first (the one a newer phone takes)
        self._owners: dict[asyncio.Queue[Item], tuple[str, int]] = {}
        self.evicted = 0
        self._watchers: list[Callable[[dict[str, Any]], None]] = []
        self.table_game: int | None = None  # the game the table plays now (`move_table`)

    def watch(self, watcher: Callable[[dict[str, Any]], None]) -> None:
        """Also hand every published view to `watcher` (on the loop's thread; it must not
        block): the club's big screen follows every game this way, not one stream each."""
        self._watchers.append(watcher)

    def subscribe(self, game_id: int, client: str = "") -> asyncio.Queue[Item]:
        """A new listener's queue, its place taken at once (two phones arriving together
        cannot both pass a check and then both subscribe); at a game's or the server's cap
        it takes another address's place if that one holds more (`_make_room`), and
        raises StreamRefused when none does, or beyond the client's own cap."""
        if self._streams[client] >= self.per_client and not self.exempt(client):
            raise StreamRefused(429, f"{client} already has {self.per_client} live update "
                                     f"streams open; close a tab and try again",
                                self.per_client)
        for limit, game, whose in ((self.per_game, game_id, "this game's"),
                                   (self.max_streams, None, "the server's")):
            held = self._total if game is None else len(self._listeners.get(game, ()))
            if held >= limit and not self._make_room(client, game):
                raise StreamRefused(503, f"{whose} live updates already go to {limit} "
                                         f"listeners; try again later", limit)
        queue: asyncio.Queue[Item] = asyncio.Queue(QUEUE_SIZE)
        self._listeners[game_id].add(queue)
        self._owners[queue] = (client, game_id)
        self._streams[client] += 1
        self._total += 1
        if self._closed:
            queue.put_nowait(None)
        return queue

    def _make_room(self, client: str, game: int | None) -> bool:
        """End the oldest stream (of `game`, or of all when None) of the address holding
        the most there, if it holds at least two more than `client`; whether one ended."""
        held = Counter(owner for owner, at in self._owners.values() if game in (None, at))
        heaviest = max(held, key=held.__getitem__, default=None)
        if heaviest is None or heaviest == client or held[heaviest] < held[client] + 2:
            return False
        queue, (_, at) = next((q, o) for q, o in self._owners.items()
                              if o[0] == heaviest and game in (None, o[1]))
        self.unsubscribe(at, queue, heaviest)
        self.evicted += 1
        _put_latest(queue, (None, f"retry: {REFUSED_RETRY_S * 1000}\n: another phone "
                                  f"needed this place\n\n"))
        _put_latest(queue, None)
        return True

    def close(self) -> None:
        """End every stream, so shutting down need not wait for phones to hang up."""
        self._closed = True
        for listeners in self._listeners.values():
            for queue in listeners:
                _put_latest(queue, None)

    def unsubscribe(self, game_id: int, queue: asyncio.Queue[Item], client: str = "") -> None:
        listeners = self._listeners.get(game_id)
        if listeners is None or queue not in listeners:
            return
        listeners.discard(queue)
        if not listeners:
            del self._listeners[game_id]
        self._owners.pop(queue, None)
        self._total -= 1
        self._streams[client] -= 1
        if self._streams[client] <= 0:
            del self._streams[client]

    def move_table(self, game_id: int) -> bool:
        """The table now plays `game_id`: every game stream is told (a phone on another game
        shows a notice, or follows). False, and nothing sent, when it already played it."""
        if game_id == self.table_game:
            return False
        self.table_game = game_id
        item = (None, table_message(game_id))
        for key, listeners in self._listeners.items():
            if key >= 1:  # the club's channels (below 1) show no game
                for queue in listeners:
                    _put_latest(queue, item)
        return True

    @property
    def streams(self) -> int:
        """Live streams open now."""
        return self._total

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
        for watcher in self._watchers:
            watcher(view)


def _put_latest(queue: asyncio.Queue[Item], item: Item) -> None:
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(item)
