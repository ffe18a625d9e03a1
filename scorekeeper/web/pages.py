"""Public routes around the API: the page, static files, health, session and QR codes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import qrcode
import qrcode.image.svg
from fastapi import FastAPI, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from scorekeeper.store import GameStore
from scorekeeper.store.faults import explain
from scorekeeper.web import store_errors
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


def _store_health(store: GameStore) -> tuple[str, dict[str, Any]]:
    """("ok" or what reading failed with, whether and why writing would fail)."""
    try:
        db = "ok" if store.ping() else "no answer"
    except Exception as exc:  # the health check must answer whatever the database does
        db = f"error: {explain(exc, 'read its games')}"
    try:
        write = store.write_health()
    except Exception as exc:
        write = {"writable": False, "problem": explain(exc)}
    return db, write


@public
async def health(request: Request) -> Response:
    """200 only when the store reads and can write; else 503 saying what is wrong."""
    db, write = await run_in_threadpool(_store_health, request.app.state.store)
    ok = db == "ok" and bool(write.get("writable"))
    status = request.app.state.camera.status()
    camera = {"state": status.state, "error": status.error}
    body = {"ok": ok, "db": db, "store": write, "camera": camera}
    if not ok:
        body["detail"] = write.get("problem") or db
    return JSONResponse(body, status_code=200 if ok else 503)


@public
def session(request: Request) -> Response:
    return JSONResponse({"admin": is_admin(request)})


@public
def qr_svg(url: str = Query(min_length=1, max_length=2000)) -> Response:
    """A QR code drawn here, so the page needs no CDN to show one."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Response(image.to_string(), media_type="image/svg+xml")


def register(app: FastAPI) -> None:
    store_errors.install(app)
    app.add_api_route("/", index, methods=["GET"])
    app.add_api_route("/api/health", health, methods=["GET"])
    app.add_api_route("/api/session", session, methods=["GET"])
    app.add_api_route("/api/qr.svg", qr_svg, methods=["GET"])
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
