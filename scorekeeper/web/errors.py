"""Every error leaves as `{"detail": "<one message naming the problem>"}` with a 4xx code."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from scorekeeper.rules import RulesError
from scorekeeper.store import GameNotFound, GameOver


def _describe(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "cannot be parsed")
        return f"malformed JSON: {reason}"
    loc = [str(part) for part in error.get("loc", ()) if part != "body"]
    where = ".".join(loc)
    return f"{where}: {error.get('msg')}" if where else str(error.get("msg"))


def _detail(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


async def _invalid(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return _detail(422, "; ".join(_describe(e) for e in exc.errors()) or "invalid request")


async def _rules(_: Request, exc: Exception) -> JSONResponse:
    return _detail(422, str(exc) or type(exc).__name__)


async def _not_found(_: Request, exc: Exception) -> JSONResponse:
    return _detail(404, str(exc))


async def _game_over(_: Request, exc: Exception) -> JSONResponse:
    return _detail(409, str(exc))


def install(app: FastAPI) -> None:
    """Register the handlers that turn store and engine errors into 4xx answers."""
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(GameOver, _game_over)
    app.add_exception_handler(RulesError, _rules)
    app.add_exception_handler(GameNotFound, _not_found)
