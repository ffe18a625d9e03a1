"""Public routes around the API: the page, static files, health, session and QR codes."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse

from scorekeeper.club.forwarder import Forwarder
from scorekeeper.store import GameStore
from scorekeeper.store.faults import StoreError, explain
from scorekeeper.web.deps import (
    AdminDep,
    CameraDep,
    ClubOrNoneDep,
    ForwarderDep,
    QrCodesDep,
    SettingsDep,
    StoreDep,
)
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.models import HTML, SVG, Addresses, Health, Session, refusals
from scorekeeper.web.qr import QR_MAX_TEXT
from scorekeeper.web.reach import phone_urls

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
_PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>scorekeeper</title>"
    "<p>The scoreboard page is not installed; the API is at <code>/api/games</code>.</p>"
)
# what a database or disk can raise under a health check (store/faults.py names them)
_STORE_FAULTS = (sqlite3.Error, StoreError, OSError)


class Svg(Response):
    media_type = "image/svg+xml"


router = APIRouter(route_class=GuardedRoute)


@router.get("/", response_class=HTMLResponse, responses=HTML)
@public
def index() -> Response:
    page = STATIC_DIR / "index.html"
    return FileResponse(page) if page.is_file() else HTMLResponse(_PLACEHOLDER)


def _store_health(store: GameStore) -> tuple[str, dict[str, Any]]:
    """("ok" or what reading failed with, whether and why writing would fail).

    A boundary: the health check answers whatever the database does. A storage fault is
    its answer (logged in words); anything else is a bug, logged with its traceback.
    """
    try:
        db = "ok" if store.health.ping() else "no answer"
    except Exception as exc:  # noqa: BLE001 - the answer names it; _logged logs it
        db = f"error: {explain(exc, 'read its games')}"
        _logged("read", exc)
    try:
        write = store.health.report()
    except Exception as exc:  # noqa: BLE001 - as above
        write = {"writable": False, "problem": explain(exc)}
        _logged("write", exc)
    return db, write


def _club_health(forwarder: Forwarder) -> dict[str, Any]:
    """The forwarder's state; its pending count read from the store, whose fault is shown
    by the store's own entry rather than failing the health check."""
    try:
        return forwarder.health()
    except _STORE_FAULTS as exc:
        return {"mode": "table", "url": forwarder.health_url,
                "error": explain(exc, "read its games")}


def _logged(action: str, exc: Exception) -> None:
    if isinstance(exc, _STORE_FAULTS):
        log.warning("health: the store cannot %s: %s", action, exc)
    else:
        log.error("health: checking whether the store can %s failed", action,
                  exc_info=(type(exc), exc, exc.__traceback__))


@router.get("/api/health", response_model=Health, response_model_exclude_unset=True,
            responses={503: {"model": Health, "description": "the store cannot read or write"}})
@public
async def health(store: StoreDep, camera: CameraDep, forwarder: ForwarderDep,
                 club: ClubOrNoneDep, response: Response) -> dict[str, Any]:
    """200 only when the store reads and can write; else 503 saying what is wrong.

    In club mode, `club` says how forwarding goes; the club being away is not a fault of
    the table, which keeps scoring, so it leaves `ok` alone."""
    db, write = await run_in_threadpool(_store_health, store)
    ok = db == "ok" and bool(write.get("writable"))
    status = camera.status()
    body: dict[str, Any] = {"ok": ok, "db": db, "store": write,
                            "camera": {"state": status.state, "error": status.error}}
    if forwarder is not None:
        body["club"] = await run_in_threadpool(_club_health, forwarder)
    elif club is not None:  # a club server: its tables, each live, behind or offline
        body["club"] = await run_in_threadpool(club.health)
    if not ok:
        body["detail"] = write.get("problem") or db
        response.status_code = 503
    return body


@router.get("/api/session", response_model=Session)
@public
def session(admin: AdminDep) -> Session:
    """Whether this phone holds the admin token (the page then shows the admin's buttons)."""
    return Session(admin=admin)


@router.get("/api/addresses", response_model=Addresses)
@public
async def addresses(settings: SettingsDep) -> Addresses:
    """The addresses other phones can open this page at: the Share QR code offers them when
    the page was opened as 127.0.0.1 or localhost. Public, as Share is: whoever can ask is
    on the network already."""
    return Addresses(urls=await run_in_threadpool(phone_urls, settings.host, settings.port,
                                                  settings.tls))


@router.get("/api/qr.svg", response_class=Svg, responses={**SVG, **refusals(414, 422)})
@public
async def qr_svg(url: Annotated[str, Query(min_length=1)], codes: QrCodesDep) -> Response:
    """A QR code drawn here, so the page needs no CDN to show one."""
    if len(url) > QR_MAX_TEXT:
        raise ApiError(414, f"url: a QR code is drawn for at most {QR_MAX_TEXT} characters, "
                            f"got {len(url)}", code="qr_too_long", max=QR_MAX_TEXT)
    svg = await codes.svg(url)
    return Svg(svg, headers={"Cache-Control": "max-age=86400"})
