"""The big screen's live view: built once per change, whoever watches.

Thirty tables post hands at once on a club night, and a TV or two plus any phone may watch
the whole club. So a change only marks the view stale (`changed`, the hub's watcher); one
task waits DEBOUNCE_S for the burst to settle, builds each watched season's view once (in a
worker thread: league_board.Board reads again only the games that changed, and makes the
standings again only when a finished game or the league changed), and publishes it on that
season's hub channel, whose listeners get the same encoded message. A view that did not
change is not sent again. Changes that reach the store without the hub (a game created, a
player added) are caught by a rebuild every REFRESH_S while anyone watches.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi.concurrency import run_in_threadpool

from scorekeeper.web.live.hub import Hub

log = logging.getLogger(__name__)

DEBOUNCE_S = 0.5
REFRESH_S = 5.0
Build = Callable[[str | None], dict[str, Any]]  # season (None: the current one) → the view


class ClubFeed:
    """Hub channels (keys below 1) for the big screen, one per season asked for."""

    def __init__(self, hub: Hub, build: Build, *, debounce_s: float = DEBOUNCE_S,
                 refresh_s: float = REFRESH_S) -> None:
        self.hub, self.build = hub, build
        self.debounce_s, self.refresh_s = debounce_s, refresh_s
        self._channels: dict[str | None, int] = {}
        self._watchers: dict[int, int] = {}  # channel → listeners
        self._sent: dict[int, tuple[int, str]] = {}  # channel → (seq, body) last published
        self._views: dict[int, dict[str, Any]] = {}
        self._dirty = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        hub.watch(self.changed)

    def changed(self, view: dict[str, Any] | None = None) -> None:
        """A game (or the league) changed: rebuild soon. The feed's own views are ignored."""
        if view is None or int(view.get("id", 0)) > 0:
            self._dirty.set()

    def channel(self, season: str | None) -> int:
        """The hub key of a season's view (a season name, already checked to exist)."""
        return self._channels.setdefault(season, -1 - len(self._channels))

    async def join(self, season: str | None) -> tuple[int, dict[str, Any]]:
        """Count one more listener of the season's view; (channel, the view now).

        A season nobody watched is rebuilt first: its last view may be old."""
        channel = self.channel(season)
        if not self._watchers.get(channel):
            await self._rebuild(channel, season)
        self._watchers[channel] = self._watchers.get(channel, 0) + 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return channel, self._views[channel]

    def leave(self, channel: int) -> None:
        left = self._watchers.get(channel, 0) - 1
        if left > 0:
            self._watchers[channel] = left
        else:
            self._watchers.pop(channel, None)

    async def _run(self) -> None:
        """Rebuild the watched views after each burst of changes, or every REFRESH_S; ends
        when nobody watches (the next `join` starts it again)."""
        while self._watchers:
            try:
                await asyncio.wait_for(self._dirty.wait(), self.refresh_s)
                await asyncio.sleep(self.debounce_s)
            except TimeoutError:
                pass
            self._dirty.clear()
            seasons = {c: s for s, c in self._channels.items() if c in self._watchers}
            for channel, season in seasons.items():
                try:
                    await self._rebuild(channel, season)
                except Exception:  # the feed must outlive one bad read
                    log.exception("the club's live view for season %r failed", season)

    async def _rebuild(self, channel: int, season: str | None) -> None:
        view = await run_in_threadpool(self.build, season)
        body = json.dumps(view, sort_keys=True)
        seq, last = self._sent.get(channel, (0, ""))
        if body == last:
            return
        seq += 1
        self._sent[channel] = (seq, body)
        self._views[channel] = {"id": channel, "seq": seq, **view}
        self.hub.publish(self._views[channel])
