"""Every error leaves as `{"detail": "<one message naming the problem>"}` with a 4xx code.

A reply is small whatever came in: at most a few problems, each cut short, none echoing the
value that caused it (a 7 MB body of bad players once got a 127 MB reply), and always
encodable (a lone surrogate in a key would make the reply itself a 500).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from scorekeeper.rules import RulesError
from scorekeeper.rules.names import safe_text
from scorekeeper.rules.settings import plain_message
from scorekeeper.store import GameNotFound, GameOver

MAX_ERRORS = 3       # problems named in one reply
MAX_PROBLEM = 200    # characters per problem
MAX_DETAIL = 1000    # characters in any detail
MAX_PART = 40        # characters of one part of a location (a key can be any size)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _describe(error: dict[str, Any]) -> str:
    """One validation problem in players' words: where, and what is wrong (not the value)."""
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "cannot be parsed")
        return _cut(f"malformed JSON: {reason}", MAX_PROBLEM)
    loc = [_cut(str(part), MAX_PART) for part in error.get("loc", ()) if part != "body"]
    where = ".".join(loc)
    what = plain_message(error)
    return _cut(f"{where}: {what}" if where else f"the request body {what}", MAX_PROBLEM)


def _detail(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": _cut(safe_text(message), MAX_DETAIL)}, status_code=status)


async def _invalid(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    problems = [_describe(e) for e in errors[:MAX_ERRORS]]
    if len(errors) > MAX_ERRORS:
        more = len(errors) - MAX_ERRORS
        problems.append(f"and {more} more problem{'' if more == 1 else 's'}")
    return _detail(422, "; ".join(problems) or "invalid request")


async def _http(request: Request, exc: Exception) -> Response:
    """FastAPI's own 4xx, except that a body it could not parse says why."""
    assert isinstance(exc, HTTPException)
    if isinstance(exc.__cause__, RecursionError):
        return _detail(422, "malformed JSON: nested too deeply")
    if isinstance(exc.__cause__, UnicodeDecodeError):
        return _detail(422, "malformed JSON: the body is not UTF-8 text")
    return await http_exception_handler(request, exc)


async def _rules(_: Request, exc: Exception) -> JSONResponse:
    return _detail(422, str(exc) or type(exc).__name__)


async def _not_found(_: Request, exc: Exception) -> JSONResponse:
    return _detail(404, str(exc))


async def _game_over(_: Request, exc: Exception) -> JSONResponse:
    return _detail(409, str(exc))


def install(app: FastAPI) -> None:
    """Register the handlers that turn store and engine errors into 4xx answers."""
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(GameOver, _game_over)
    app.add_exception_handler(RulesError, _rules)
    app.add_exception_handler(GameNotFound, _not_found)
