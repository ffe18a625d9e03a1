"""Public routes around the API: the page, static files, health, session and QR codes."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
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


QR_MAX_TEXT = 512  # the table's address, even with an admin token, is under 100 characters
QR_CACHE = 64


def _draw_qr(text: str) -> bytes:
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return bytes(image.to_string())


class QrCodes:
    """QR codes as SVG, drawn once per text and kept (least recently used out).

    Drawing is pure Python (75 ms for 512 characters), so a new one is drawn in a worker
    thread, one at a time: a stream of distinct texts then holds one thread of the pool,
    not all of them, and health checks and scoreboards keep theirs.
    """

    def __init__(self, size: int = QR_CACHE) -> None:
        self._svgs: OrderedDict[str, bytes] = OrderedDict()
        self._size = size
        self._drawing = asyncio.Lock()

    def _cached(self, text: str) -> bytes | None:
        svg = self._svgs.get(text)
        if svg is not None:
            self._svgs.move_to_end(text)
        return svg

    async def svg(self, text: str) -> bytes:
        svg = self._cached(text)
        if svg is not None:
            return svg
        async with self._drawing:
            svg = self._cached(text) or await run_in_threadpool(_draw_qr, text)
        self._svgs[text] = svg
        while len(self._svgs) > self._size:
            self._svgs.popitem(last=False)
        return svg


@public
async def qr_svg(request: Request, url: str = Query(min_length=1)) -> Response:
    """A QR code drawn here, so the page needs no CDN to show one."""
    if len(url) > QR_MAX_TEXT:
        detail = f"url: a QR code is drawn for at most {QR_MAX_TEXT} characters, got {len(url)}"
        return JSONResponse({"detail": detail}, status_code=414)
    svg = await request.app.state.qr_codes.svg(url)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


def register(app: FastAPI) -> None:
    store_errors.install(app)
    app.add_api_route("/", index, methods=["GET"])
    app.add_api_route("/api/health", health, methods=["GET"])
    app.add_api_route("/api/session", session, methods=["GET"])
    app.state.qr_codes = QrCodes()
    app.add_api_route("/api/qr.svg", qr_svg, methods=["GET"])
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
