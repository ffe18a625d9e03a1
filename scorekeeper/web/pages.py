"""Public routes around the API: the page, static files, health, session and QR codes."""

from __future__ import annotations

from pathlib import Path

import qrcode
import qrcode.image.svg
from fastapi import FastAPI, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from scorekeeper.web.auth import is_admin, public

STATIC_DIR = Path(__file__).parent / "static"
_PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>scorekeeper</title>"
    "<p>The scoreboard page is not installed; the API is at <code>/api/games</code>.</p>"
)


@public
def index() -> Response:
    page = STATIC_DIR / "index.html"
    return FileResponse(page) if page.is_file() else HTMLResponse(_PLACEHOLDER)


@public
async def health(request: Request) -> Response:
    try:
        db = "ok" if await run_in_threadpool(request.app.state.store.ping) else "no answer"
    except Exception as exc:  # the health check must answer whatever the database does
        db = f"error: {exc}"
    ok = db == "ok"
    status = request.app.state.camera.status()
    camera = {"state": status.state, "error": status.error}
    return JSONResponse({"ok": ok, "db": db, "camera": camera}, status_code=200 if ok else 503)


@public
def session(request: Request) -> Response:
    return JSONResponse({"admin": is_admin(request)})


@public
def qr_svg(url: str = Query(min_length=1, max_length=2000)) -> Response:
    """A QR code drawn here, so the page needs no CDN to show one."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Response(image.to_string(), media_type="image/svg+xml")


def register(app: FastAPI) -> None:
    app.add_api_route("/", index, methods=["GET"])
    app.add_api_route("/api/health", health, methods=["GET"])
    app.add_api_route("/api/session", session, methods=["GET"])
    app.add_api_route("/api/qr.svg", qr_svg, methods=["GET"])
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
