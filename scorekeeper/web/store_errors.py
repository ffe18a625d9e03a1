"""A database or disk fault leaves as 503 `{"detail": "the scorekeeper cannot save: ..."}`.

Without this a full disk, a read-only file system or a damaged file would reach the phone
as a plain-text 500 that the page cannot show; the words come from `store.faults`.
"""

from __future__ import annotations

import logging
import sqlite3

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from scorekeeper.store.faults import StoreError, explain

log = logging.getLogger("scorekeeper.web")


async def _storage(request: Request, exc: Exception) -> JSONResponse:
    action = "read its games" if request.method in ("GET", "HEAD") else "save"
    detail = explain(exc, action)
    log.error("%s %s: %s (%s)", request.method, request.url.path, detail, exc)
    return JSONResponse({"detail": detail}, status_code=503)


def install(app: FastAPI) -> None:
    """Register the handlers for storage faults (the others live in web/errors.py)."""
    app.add_exception_handler(sqlite3.Error, _storage)
    app.add_exception_handler(StoreError, _storage)
