"""Assembles the table server's FastAPI app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from scorekeeper.camera import CameraSupervisor, camera_from_spec
from scorekeeper.club import league_board
from scorekeeper.club.forwarder import forwarder_for
from scorekeeper.club.league import League
from scorekeeper.club.roster import roster_for
from scorekeeper.club.spelling import speller
from scorekeeper.club.sync import ClubSync
from scorekeeper.club.tables import Tables
from scorekeeper.config import camera_options
from scorekeeper.decks.adapting import Adapter
from scorekeeper.decks.learn import ScanFrames, apply_saved_learning
from scorekeeper.scanning import ScanImages, Vision
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.http import errors
from scorekeeper.web.http.auth import (
    ADMIN_SCHEME,
    TABLE_SCHEME,
    GuardedRoute,
    public,
    resolve_token,
)
from scorekeeper.web.http.decodes import photo_gate
from scorekeeper.web.http.headers import SecurityHeaders
from scorekeeper.web.http.limits import MAX_BODY, BodyLimit, RateLimit
from scorekeeper.web.live.club_feed import ClubFeed
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.models import json_refusals
from scorekeeper.web.qr import QrCodes
from scorekeeper.web.routes import (
    club_league,
    club_roster,
    club_sync,
    decks,
    events,
    pages,
    scan,
    shell,
    stats,
    tv,
)
from scorekeeper.web.routes import count as live_count
from scorekeeper.web.routes import games as api
from scorekeeper.web.routes import knock as knockcheck
from scorekeeper.web.routes import table as table_routes
from scorekeeper.web.routes.pages import STATIC_DIR
from scorekeeper.web.state import AppState, ClubServer, parts

OPENAPI_PATH = "/openapi.json"


def _version() -> str:
    """The installed package's version, which /openapi.json and the CHANGELOG share."""
    try:
        return version("scorekeeper")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


class _App(FastAPI):
    """FastAPI with the security headers outside everything, the 500 answer included.

    Middleware added the usual way sits inside Starlette's error handler, whose 500s
    would then go out without the headers.
    """

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())

    def openapi(self) -> dict[str, Any]:
        """FastAPI's document, with the admin token's bearer scheme that guarded routes name
        and every refusal documented as the JSON `Problem` errors.py sends."""
        if self.openapi_schema is not None:
            return self.openapi_schema
        schema = super().openapi()
        json_refusals(schema)
        schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
        schemes[ADMIN_SCHEME] = {"type": "http", "scheme": "bearer",
                                 "description": "the table's admin token (the admin link's "
                                                "#token=...)"}
        if parts(self).club is not None:
            schemes[TABLE_SCHEME] = {"type": "http", "scheme": "bearer",
                                     "description": "a club table's token (scorekeeper club "
                                                    "add-table)"}
        return schema


def _serve_openapi(app: FastAPI) -> None:
    """`GET /openapi.json`, public: the API's shape holds no secret. It is a guarded route
    marked public (FastAPI's own would bypass the guard); /docs stays off."""

    @public
    def openapi_json() -> JSONResponse:
        return JSONResponse(app.openapi())

    app.add_api_route(OPENAPI_PATH, openapi_json, methods=["GET"], include_in_schema=False)


def _club_server(store: GameStore, hub: Hub) -> ClubServer:
    """A club server's parts, over the club's own store."""
    tables = Tables(store.database)
    sync = ClubSync(store, tables)
    league = League(store.database)
    feed = ClubFeed(hub, lambda season: league_board.big_screen(store, league, season))
    return ClubServer(tables=tables, sync=sync, league=league, feed=feed,
                      owner=club_sync.owner_refusal(sync),
                      health=lambda: club_sync.server_health(tables))


def create_app(settings: Settings | None = None, token: str | None = None) -> FastAPI:
    """Build the app; `token` defaults to the env token or the data folder's token file.

    FastAPI's own docs and OpenAPI routes are off (they would bypass the guard, and
    deny-by-default means no route exists that the guard does not know about); the
    OpenAPI document is served by a public guarded route instead.
    """
    settings = settings or Settings()
    store = GameStore(settings.db_target, backups=settings.backups_path)
    camera = CameraSupervisor(lambda: camera_from_spec(settings.camera, camera_options(settings)))
    adapter = Adapter(settings.data_dir, settings.model_dir)
    try:
        forwarder = forwarder_for(settings, store)  # club mode: games to the club
    except BaseException:
        store.close()
        raise

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        """Start what runs beside the server; on the way out each part is closed, the
        last started first, even when closing another fails."""
        async with AsyncExitStack() as parts:
            parts.enter_context(store)
            parts.callback(camera.close)
            parts.callback(adapter.close)
            camera.start()
            if forwarder is not None:
                forwarder.start()
                parts.push_async_callback(run_in_threadpool, forwarder.stop)
            yield

    app = _App(title="scorekeeper", version=_version(), docs_url=None, redoc_url=None,
               openapi_url=None, lifespan=lifespan)
    app.router.route_class = GuardedRoute
    hub = Hub()
    state = AppState(
        settings=settings, store=store, hub=hub, camera=camera,
        vision=Vision(settings.model_dir, settings.model_runtime), scans=ScanImages(),
        scan_frames=ScanFrames(), adapter=adapter, qr_codes=QrCodes(),
        knock_limit=RateLimit(), photos=photo_gate(settings),
        admin_token=token or resolve_token(settings)[0],
        forwarder=forwarder)
    if forwarder is not None:  # each commit goes to the club at once, not at the next poll
        hub.watch(lambda _view: forwarder.wake())
    apply_saved_learning(settings)
    if settings.club_server:
        state.club = _club_server(store, hub)
        state.spelling = speller(state.club.league.players)  # a game begun at the club, too
    else:
        state.roster = roster_for(settings)  # a table's copy of its club's players
        if state.roster is not None:
            state.spelling = speller(state.roster.kept)
    app.state.parts = state
    errors.install(app)
    app.add_middleware(BodyLimit, default=MAX_BODY,
                       limits={**scan.BODY_LIMITS, **live_count.BODY_LIMITS,
                               **knockcheck.BODY_LIMITS,
                               **decks.BODY_LIMITS, **club_sync.BODY_LIMITS})
    for area in (pages, shell, api, table_routes, events, scan, live_count, knockcheck, decks,
                 stats, tv):
        app.include_router(area.router)
    app.include_router(club_sync.router if settings.club_server else club_roster.router)
    if settings.club_server:
        app.include_router(club_league.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    _serve_openapi(app)
    return app
