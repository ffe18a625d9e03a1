"""The league's routes on the club server: players, seasons, standings, the live tables,
the big screen's stream and its page. Reads are public (the club's TV and any phone in the
room); adding players or seasons needs the admin token (http/auth.py's guard).

The work is in scorekeeper/club (league*.py, standings.py); these only translate.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse

from scorekeeper.club import league_board
from scorekeeper.club.league import LeagueError, SeasonExists, UnknownSeason, new_season
from scorekeeper.club.standings import ALL, RANKINGS
from scorekeeper.web.club_models import (
    Live,
    Players,
    PlayersAdded,
    PlayersIn,
    SeasonIn,
    Seasons,
    Standings,
    problems,
)
from scorekeeper.web.club_models import Season as SeasonModel
from scorekeeper.web.deps import (
    ClientDep,
    FeedDep,
    HubDep,
    LeagueDep,
    SettingsDep,
    StoreDep,
)
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.live.club_feed import ClubFeed
from scorekeeper.web.live.hub import Hub, Item, sse_message
from scorekeeper.web.models import HTML, MAX_TEXT, refusals
from scorekeeper.web.routes.events import RETRY_MS, EventStream, relay
from scorekeeper.web.routes.pages import STATIC_DIR

log = logging.getLogger(__name__)
T = TypeVar("T")


QueryText = Annotated[str | None, Query(max_length=MAX_TEXT)]

CLUB_STREAM: dict[int | str, dict[str, Any]] = {200: {
    "description": "Server-Sent Events: {tables, standings} (as GET /api/club/live and "
                   "GET /api/club/standings) on connect and after each change",
    "content": {"text/event-stream": {"schema": {"type": "string"}}},
}}
NO_SEASON = problems({404: "No such season"})
REFUSED = problems({422: "The request is refused, the message says why"})
router = APIRouter(route_class=GuardedRoute)


async def _answer(work: Callable[[], T]) -> T:
    """Run a read or write in a worker thread, the league's refusals made API refusals."""
    try:
        return await run_in_threadpool(work)
    except UnknownSeason as exc:
        raise ApiError(404, str(exc), code="season_unknown") from None
    except SeasonExists as exc:
        raise ApiError(409, str(exc), code="season_exists") from None
    except LeagueError as exc:
        raise ApiError(422, str(exc), code="league_invalid") from None


@router.get("/club", response_class=HTMLResponse, responses=HTML)
@public
def club_page() -> Response:
    """The big screen: every live table and the standings, for the club's TV."""
    return FileResponse(STATIC_DIR / "club.html")


@router.get("/api/club/players", response_model=Players, responses=refusals(503))
@public
async def list_players(league: LeagueDep) -> Players:
    """The club's players, names only: a table offers them when a game starts."""
    return Players(players=await _answer(league.players))


@router.post("/api/club/players", status_code=201, response_model=PlayersAdded,
             responses={**REFUSED, **refusals(413, 503)})
async def add_players(body: PlayersIn, league: LeagueDep, feed: FeedDep) -> PlayersAdded:
    added, known = await _answer(lambda: league.add_players(body.names))
    feed.changed()  # a guest may have just become a ranked player
    return PlayersAdded(added=added, known=known)


@router.get("/api/club/seasons", response_model=Seasons, response_model_exclude_unset=True,
            responses=refusals(503))
@public
async def list_seasons(league: LeagueDep) -> dict[str, Any]:
    seasons = await _answer(league.seasons)
    current = await _answer(lambda: league.season(None))
    return {"seasons": [s.as_dict() for s in seasons],
            "current": current.name if current else None, "rankings": RANKINGS}


@router.post("/api/club/seasons", status_code=201, response_model=SeasonModel,
             response_model_exclude_unset=True,
             responses={**REFUSED, **problems({409: "A season with that name exists"}),
                        **refusals(413, 503)})
async def add_season(body: SeasonIn, league: LeagueDep, feed: FeedDep) -> dict[str, Any]:
    season = await _answer(lambda: league.add_season(
        new_season(body.name, body.starts, body.ends, body.ranking)))
    feed.changed()
    answer: dict[str, Any] = season.as_dict()
    return answer


@router.get("/api/club/standings", response_model=Standings, response_model_exclude_unset=True,
            responses={**NO_SEASON, **REFUSED, **refusals(503)})
@public
async def standings(store: StoreDep, league: LeagueDep, season: QueryText = None,
                    variant: QueryText = None, ranking: QueryText = None) -> dict[str, Any]:
    """The standings per variant: `season` names one ("all": every game; none: the one
    running today, else every game); `ranking` overrides the season's rule."""
    body: dict[str, Any] = await _answer(
        lambda: league_board.standings(store, league, season, variant, ranking))
    return body


@router.get("/api/club/live", response_model=Live, response_model_exclude_unset=True,
            responses=refusals(503))
@public
async def live(store: StoreDep) -> dict[str, Any]:
    """Every live table's scoreboard (its newest game of the last hours)."""
    body: dict[str, Any] = await _answer(lambda: league_board.live(store))
    return body


def _season_key(season: str | None) -> str | None:
    if season is None:
        return None
    key = season.strip()
    return ALL if key.casefold() == ALL else key


async def _stream(feed: ClubFeed, hub: Hub, season: str | None, client: str,
                  keepalive: float, queue: asyncio.Queue[Item]) -> AsyncIterator[str]:
    """The view now, then each new one; the route subscribed (`queue`) before the view is
    read, so no change falls between (as the game stream, routes/events.py)."""
    channel = feed.channel(season)
    joined = False
    try:
        _, view = await feed.join(season)
        joined = True
        sent = view["seq"]
        yield f"retry: {RETRY_MS}\n\n"
        yield sse_message(view)
        async for message in relay(queue, sent, keepalive):
            yield message
    finally:
        hub.unsubscribe(channel, queue, client)
        if joined:
            feed.leave(channel)


@router.get("/api/club/events", response_class=EventStream,
            responses={**CLUB_STREAM, **NO_SEASON, **REFUSED, **refusals(429, 503)})
@public
async def club_events(league: LeagueDep, feed: FeedDep, hub: HubDep, settings: SettingsDep,
                      client: ClientDep, season: QueryText = None) -> Response:
    """The big screen's view (`GET /api/club/live`'s tables and the season's standings)
    now and after each change, as Server-Sent Events."""
    key = _season_key(season)
    if key is not None:
        await _answer(lambda: league.season(key))  # an unknown season is a 404, not a stream
    channel = feed.channel(key)
    queue = hub.subscribe(channel, client)  # the place taken at once (as routes/events.py)
    stream = _stream(feed, hub, key, client, settings.keepalive_s, queue)
    return EventStream(stream, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
                       release=lambda: hub.unsubscribe(channel, queue, client))
