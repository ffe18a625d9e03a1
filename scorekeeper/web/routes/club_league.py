"""The league's routes on the club server: players, seasons, standings, the live tables,
the big screen's stream and its page. Reads are public (the club's TV and any phone in the
room); adding players or seasons needs the admin token (auth.py's guard).

The work is in scorekeeper/club (league*.py, standings.py); these only translate.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, TypeVar, cast

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from scorekeeper.club import league_board
from scorekeeper.club.league import League, LeagueError, SeasonExists, UnknownSeason, new_season
from scorekeeper.club.spelling import speller
from scorekeeper.club.standings import ALL, RANKINGS
from scorekeeper.store import GameStore
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
from scorekeeper.web.deps import ClientDep, HubDep, SettingsDep, StoreDep
from scorekeeper.web.http.auth import public
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.live.club_feed import ClubFeed
from scorekeeper.web.live.hub import Hub, sse_message
from scorekeeper.web.models import HTML, MAX_TEXT, refusals
from scorekeeper.web.routes.events import RETRY_MS, EventStream, relay
from scorekeeper.web.routes.pages import STATIC_DIR

log = logging.getLogger(__name__)
T = TypeVar("T")


async def get_league(request: Request) -> League:
    return cast(League, request.app.state.league)


async def get_feed(request: Request) -> ClubFeed:
    return cast(ClubFeed, request.app.state.club_feed)


LeagueDep = Annotated[League, Depends(get_league)]
FeedDep = Annotated[ClubFeed, Depends(get_feed)]
QueryText = Annotated[str | None, Query(max_length=MAX_TEXT)]


async def _answer(work: Callable[[], T]) -> T:
    """Run a read or write in a worker thread, the league's refusals made API refusals."""
    try:
        return await run_in_threadpool(work)
    except UnknownSeason as exc:
        raise ApiError(404, str(exc)) from None
    except SeasonExists as exc:
        raise ApiError(409, str(exc)) from None
    except LeagueError as exc:
        raise ApiError(422, str(exc)) from None


@public
def club_page() -> Response:
    """The big screen: every live table and the standings, for the club's TV."""
    return FileResponse(STATIC_DIR / "club.html")


@public
async def list_players(league: LeagueDep) -> Response:
    """The club's players, names only: a table offers them when a game starts."""
    return JSONResponse({"players": await _answer(league.players)})


async def add_players(body: PlayersIn, league: LeagueDep, feed: FeedDep) -> Response:
    added, known = await _answer(lambda: league.add_players(body.names))
    feed.changed()  # a guest may have just become a ranked player
    return JSONResponse({"added": added, "known": known}, status_code=201)


@public
async def list_seasons(league: LeagueDep) -> Response:
    seasons = await _answer(league.seasons)
    current = await _answer(lambda: league.season(None))
    return JSONResponse({"seasons": [s.as_dict() for s in seasons],
                         "current": current.name if current else None, "rankings": RANKINGS})


async def add_season(body: SeasonIn, league: LeagueDep, feed: FeedDep) -> Response:
    season = await _answer(lambda: league.add_season(
        new_season(body.name, body.starts, body.ends, body.ranking)))
    feed.changed()
    return JSONResponse(season.as_dict(), status_code=201)


@public
async def standings(store: StoreDep, league: LeagueDep, season: QueryText = None,
                    variant: QueryText = None, ranking: QueryText = None) -> Response:
    """The standings per variant: `season` names one ("all": every game; none: the one
    running today, else every game); `ranking` overrides the season's rule."""
    body = await _answer(lambda: league_board.standings(store, league, season, variant, ranking))
    return JSONResponse(body)


@public
async def live(store: StoreDep) -> Response:
    """Every live table's scoreboard (its newest game of the last hours)."""
    return JSONResponse(await _answer(lambda: league_board.live(store)))


def _season_key(season: str | None) -> str | None:
    if season is None:
        return None
    key = season.strip()
    return ALL if key.casefold() == ALL else key


async def _stream(feed: ClubFeed, hub: Hub, season: str | None, client: str,
                  keepalive: float) -> AsyncIterator[str]:
    """The view now, then each new one; subscribed before the view is read, so no change
    falls between (as the game stream, web/events.py)."""
    channel = feed.channel(season)
    queue = hub.subscribe(channel, client)
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


@public
async def club_events(league: LeagueDep, feed: FeedDep, hub: HubDep, settings: SettingsDep,
                      client: ClientDep, season: QueryText = None) -> Response:
    """The big screen's view (`GET /api/club/live`'s tables and the season's standings)
    now and after each change, as Server-Sent Events."""
    refused = hub.refusal(client)
    if refused is not None:
        raise refused
    key = _season_key(season)
    if key is not None:
        await _answer(lambda: league.season(key))  # an unknown season is a 404, not a stream
    stream = _stream(feed, hub, key, client, settings.keepalive_s)
    return EventStream(stream, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


CLUB_STREAM: dict[int | str, dict[str, Any]] = {200: {
    "description": "Server-Sent Events: {tables, standings} (as GET /api/club/live and "
                   "GET /api/club/standings) on connect and after each change",
    "content": {"text/event-stream": {"schema": {"type": "string"}}},
}}
NO_SEASON = problems({404: "No such season"})
REFUSED = problems({422: "The request is refused, the message says why"})


def register(app: FastAPI, store: GameStore) -> None:
    """Add the league to the app whose store is the club's: its tables, state and routes."""
    league = League(store.database)
    app.state.league = league
    app.state.club_spelling = speller(league.players)  # a game begun at the club, too
    app.state.club_feed = ClubFeed(
        app.state.hub, lambda season: league_board.big_screen(store, league, season))
    add = app.add_api_route
    add("/club", club_page, methods=["GET"], response_class=HTMLResponse, responses=HTML)
    add("/api/club/players", list_players, methods=["GET"], response_model=Players,
        responses=refusals(503))
    add("/api/club/players", add_players, methods=["POST"], status_code=201,
        response_model=PlayersAdded, responses={**REFUSED, **refusals(413, 503)})
    add("/api/club/seasons", list_seasons, methods=["GET"], response_model=Seasons,
        responses=refusals(503))
    add("/api/club/seasons", add_season, methods=["POST"], status_code=201,
        response_model=SeasonModel, responses={
            **REFUSED, **problems({409: "A season with that name exists"}),
            **refusals(413, 503)})
    add("/api/club/standings", standings, methods=["GET"], response_model=Standings,
        responses={**NO_SEASON, **REFUSED, **refusals(503)})
    add("/api/club/live", live, methods=["GET"], response_model=Live, responses=refusals(503))
    add("/api/club/events", club_events, methods=["GET"], response_class=EventStream,
        responses={**CLUB_STREAM, **NO_SEASON, **REFUSED, **refusals(429, 503)})
