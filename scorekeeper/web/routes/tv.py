"""`GET /tv`: the table's scoreboard for a TV across the room.

Public and read-only, as the game is: the page reads the games and their live stream and
holds no token, so a TV is never given the admin's link.
"""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse, HTMLResponse

from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.models import HTML
from scorekeeper.web.routes.pages import STATIC_DIR

router = APIRouter(route_class=GuardedRoute)


@router.get("/tv", response_class=HTMLResponse, responses=HTML)
@public
def tv_page() -> Response:
    """The game the table plays now (or `?game=<id>`), big, updated live."""
    return FileResponse(STATIC_DIR / "tv.html")
