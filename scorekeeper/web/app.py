"""Assembles the table server's FastAPI app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.types import ASGIApp

from scorekeeper.camera import CameraSupervisor, camera_from_spec
from scorekeeper.config import camera_options
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web import api, errors, knockcheck, pages, scan
from scorekeeper.web.auth import GuardedRoute, resolve_token
from scorekeeper.web.headers import SecurityHeaders
from scorekeeper.web.hub import Hub
from scorekeeper.web.limits import MAX_BODY, BodyLimit


class _App(FastAPI):
    """FastAPI with the security headers outside everything, the 500 answer included.

    Middleware added the usual way sits inside Starlette's error handler, whose 500s
    would then go out without the headers.
    """

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(settings: Settings | None = None, token: str | None = None) -> FastAPI:
    """Build the app; `token` defaults to the env token or the data folder's token file.

    The docs and OpenAPI routes are off: they are not guarded, and deny-by-default means
    no route exists that the guard does not know about.
    """
    settings = settings or Settings()
    store = GameStore(settings.db_path)
    camera = CameraSupervisor(lambda: camera_from_spec(settings.camera, camera_options(settings)))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        camera.start()
        yield
        camera.close()
        store.close()

    app = _App(
        title="scorekeeper", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.router.route_class = GuardedRoute
    app.state.settings = settings
    app.state.store = store
    app.state.hub = Hub()
    app.state.camera = camera
    app.state.vision = scan.Vision(settings.model_dir, settings.model_runtime)
    app.state.scans = scan.ScanImages()
    app.state.admin_token = token or resolve_token(settings)[0]
    errors.install(app)
    app.add_middleware(BodyLimit, default=MAX_BODY,
                       limits={**scan.BODY_LIMITS, **knockcheck.BODY_LIMITS})
    pages.register(app)
    api.register(app)
    scan.register(app)
    knockcheck.register(app)
    return app
