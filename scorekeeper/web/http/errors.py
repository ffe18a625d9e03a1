"""The one error path: every refusal leaves here as `{"detail", "code", "params"}`: a stable
`code` (refusals/codes.py lists them), the values it names (`params`: players, cards,
numbers) and `detail`, the message in the language the request asks for (Accept-Language;
English by default, the rules' own words). The page says it from `code` and `params`.

Handlers for each kind of failure are installed on the app by `install`: the request's
shape (pydantic, 422), the rules' refusals (RulesError, 422; any write but a reopen to a
deleted game, 409), the store's answers (no such game 404, game over 409, a database or disk
fault 503, in words that never carry the database's own), the camera (503), the live-stream
caps (429/503), a route's own refusal (`ApiError`), a client gone before its request was
read (one line in the log), and anything unexpected (500 with a generic message; the
traceback goes to the log). Routes raise; none builds an error reply.

A reply is small whatever came in: at most a few problems, each cut short, none echoing the
value that caused it (a 7 MB body of bad players once got a 127 MB reply), and always
encodable (a lone surrogate in a key would make the reply itself a 500).

Only the body-size middleware (limits.py) and the h11 protocol (heads.py: a head over its
limit, bytes that are not HTTP) answer on their own: they refuse a request before the app,
and so these handlers, ever see it; they build the same body.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

from scorekeeper.camera.base import CameraError
from scorekeeper.rules import GameDeleted, KnockHandSize, RulesError
from scorekeeper.rules.names import safe_text
from scorekeeper.rules.settings import plain_message, problem_reason
from scorekeeper.store import GameMoved, GameNotFound, GameOver
from scorekeeper.store.faults import StoreError, classify, explain, told
from scorekeeper.web.http.limits import BodyError
from scorekeeper.web.live.hub import StreamRefused
from scorekeeper.web.models import UNION_TAGS
from scorekeeper.web.refusals.body import MAX_PART, refusal_body
from scorekeeper.web.refusals.body import cut as _cut
from scorekeeper.web.refusals.language import pick

log = logging.getLogger(__name__)

MAX_ERRORS = 3       # problems named in one reply
MAX_PROBLEM = 200    # characters per problem


def _player(body: Any, index: int) -> str | None:
    """The name of the hand's player at `index`, when the body gives one."""
    players = body.get("players") if isinstance(body, dict) else None
    if not isinstance(players, list) or not 0 <= index < len(players):
        return None
    name = players[index].get("name") if isinstance(players[index], dict) else None
    return _cut(name.strip(), MAX_PART) if isinstance(name, str) and name.strip() else None


def _where(loc: Sequence[Any], body: Any) -> str:
    """Where a problem is: `players.0.hand.3`, or `player Ann: hand.3` in a hand's players.

    The union tags pydantic puts after a meld's index (`meld`, `lay-off`) are left out.
    """
    parts = [part for part in loc if part != "body"]
    parts = [part for i, part in enumerate(parts)
             if not (part in UNION_TAGS and i and isinstance(parts[i - 1], int))]
    head = ""
    if len(parts) >= 2 and parts[0] == "players" and isinstance(parts[1], int):
        name = _player(body, parts[1])
        if name is not None:
            head, parts = f"player {name}", parts[2:]
    rest = ".".join(_cut(str(part), MAX_PART) for part in parts)
    return f"{head}: {rest}" if head and rest else head or rest


def _describe(error: Mapping[str, Any], body: Any = None) -> str:
    """One validation problem in players' words: where, and what is wrong (not the value)."""
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "cannot be parsed")
        return _cut(f"malformed JSON: {reason}", MAX_PROBLEM)
    where = _where(error.get("loc", ()), body)
    what = plain_message(error)
    return _cut(f"{where}: {what}" if where else f"the request body {what}", MAX_PROBLEM)


def _problem(error: Mapping[str, Any], body: Any = None) -> dict[str, Any]:
    """One validation problem for params: where (as in the message) and its kind."""
    return {"field": _where(error.get("loc", ()), body) or "body", **problem_reason(error)}


class ApiError(Exception):
    """A route's refusal: `status`, the message in English, its `code` and `params`, and
    any headers. Raised, never returned: `install` answers it like every other error.
    """

    def __init__(self, status: int, detail: str, headers: Mapping[str, str] | None = None,
                 *, code: str, params: Mapping[str, Any] | None = None, **named: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = dict(headers or {})
        self.code = code
        self.params = {**(params or {}), **named}


def _detail(request: Request, status: int, message: str,
            headers: Mapping[str, str] | None = None, *, code: str,
            params: Mapping[str, Any] | None = None, **extra: Any) -> JSONResponse:
    language = pick(request.headers.get("accept-language"))
    body = refusal_body(language, message, code, params or {}, **extra)
    out = {"Content-Language": language, "Vary": "Accept-Language", **dict(headers or {})}
    return JSONResponse(body, status_code=status, headers=out)


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    problems = [_describe(e, exc.body) for e in errors[:MAX_ERRORS]]
    more = max(len(errors) - MAX_ERRORS, 0)
    if more:
        problems.append(f"and {more} more problem{'' if more == 1 else 's'}")
    if errors and errors[0].get("type") == "json_invalid":
        return _detail(request, 422, problems[0], code="json_malformed")
    return _detail(request, 422, "; ".join(problems) or "invalid request",
                   code="request_invalid",
                   params={"problems": [_problem(e, exc.body) for e in errors[:MAX_ERRORS]],
                           "more": more})


async def _http(request: Request, exc: Exception) -> Response:
    """FastAPI's own 4xx, except that a body it could not parse says why."""
    assert isinstance(exc, HTTPException)
    if isinstance(exc.__cause__, ClientDisconnect):  # FastAPI's 400 for a body cut short
        return await _gone(request, exc.__cause__)
    if isinstance(exc.__cause__, RecursionError):
        return _detail(request, 422, "malformed JSON: nested too deeply", code="json_malformed")
    if isinstance(exc.__cause__, UnicodeDecodeError):
        return _detail(request, 422, "malformed JSON: the body is not UTF-8 text",
                       code="json_malformed")
    if isinstance(exc, BodyError):
        return _detail(request, exc.status_code, str(exc.detail), exc.headers, code=exc.code,
                       params=exc.params)
    answer = await http_exception_handler(request, exc)
    if not isinstance(answer, JSONResponse):
        return answer  # a 304 or 204 has no body
    return _detail(request, exc.status_code, str(exc.detail), exc.headers, code="http_error",
                   params={"status": exc.status_code})


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return _detail(request, exc.status, exc.detail, exc.headers, code=exc.code,
                   params=exc.params)


async def _moved(request: Request, exc: Exception) -> JSONResponse:
    """412: the write was made against an older version of the game; what changed since,
    and the version it is at now (its ETag), so the phone can show it and decide."""
    assert isinstance(exc, GameMoved)
    changes = [_cut(safe_text(c), MAX_PROBLEM) for c in exc.changes[-MAX_ERRORS * 4:]]
    return _detail(request, 412, str(exc), {"ETag": f'"{exc.seq}"'}, code="game_changed",
                   params={"seq": exc.seq, "changes": exc.moves[-MAX_ERRORS * 4:],
                           "earlier": exc.earlier or None},
                   changes=changes, seq=exc.seq)


async def _knock_size(request: Request, exc: Exception) -> JSONResponse:
    """A knock check on a partial hand: how many cards it got and which, for the page."""
    assert isinstance(exc, KnockHandSize)
    return _detail(request, 422, str(exc), code=exc.code, params=exc.params,
                   count=len(exc.cards), cards=exc.cards[:MAX_ERRORS * 4])


async def _rules(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RulesError)
    return _detail(request, 422, str(exc) or type(exc).__name__, code=exc.code,
                   params=exc.params)


async def _not_found(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GameNotFound)
    return _detail(request, 404, str(exc), code="game_not_found",
                   params={"game": getattr(exc, "game_id", None)})


async def _game_over(request: Request, exc: Exception) -> JSONResponse:
    return _detail(request, 409, str(exc), code="game_over")


async def _deleted(request: Request, exc: Exception) -> JSONResponse:
    """Any write but a reopen to a deleted game: the game's state refuses it, not its rules."""
    return _detail(request, 409, str(exc), code="game_deleted")


async def _storage(request: Request, exc: Exception) -> JSONResponse:
    """A database or disk fault: 503 with the words of `store.faults`, never a bare 500.

    A full disk, a read-only file system or a damaged file would otherwise reach the phone
    as a 500 that the page cannot explain.
    """
    action = "read its games" if request.method in ("GET", "HEAD") else "save"
    detail = told(exc, action)  # the database's own words go to the log only
    log.error("%s %s: %s (%s)", request.method, request.url.path, explain(exc, action), exc)
    return _detail(request, 503, detail, code="storage_failed",
                   params={"action": "read" if action.startswith("read") else "save",
                           "fault": classify(exc)})


async def _camera(request: Request, exc: Exception) -> JSONResponse:
    log.warning("%s %s: camera: %s", request.method, request.url.path, exc)
    return _detail(request, 503, f"camera: {exc}", code="camera_failed")


async def _stream_refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StreamRefused)
    return _detail(request, exc.status, exc.message, {"Retry-After": str(exc.retry_after_s)},
                   code="live_client_full" if exc.status == 429 else "live_full",
                   params={"max": exc.limit})


async def _gone(request: Request, exc: Exception) -> Response:
    """The client went away before its request was read (a phone that lost the Wi-Fi in
    the middle of a photo): nothing is wrong here and nobody is left to answer, so one line
    at info and no traceback. The answer is only for the server (uvicorn drops it unsent)."""
    client = request.client.host if request.client else "a client"
    log.info("%s %s: %s went away before its request was read", request.method,
             request.url.path, client)
    return Response(status_code=400)


UNEXPECTED = "the scorekeeper hit an unexpected error; it is in the server's log"


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    """Anything no other handler knows: a bug. The phone gets a 500 in words, the log the
    traceback. (Starlette then raises the error again, for the server and test clients.)"""
    log.error("%s %s: unexpected error", request.method, request.url.path,
              exc_info=(type(exc), exc, exc.__traceback__))
    return _detail(request, 500, UNEXPECTED, code="unexpected")


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into its `{"detail": ...}` answer."""
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(ApiError, _refused)
    app.add_exception_handler(GameOver, _game_over)
    app.add_exception_handler(GameMoved, _moved)
    app.add_exception_handler(KnockHandSize, _knock_size)
    app.add_exception_handler(GameDeleted, _deleted)
    app.add_exception_handler(RulesError, _rules)
    app.add_exception_handler(GameNotFound, _not_found)
    app.add_exception_handler(sqlite3.Error, _storage)
    app.add_exception_handler(StoreError, _storage)
    app.add_exception_handler(CameraError, _camera)
    app.add_exception_handler(StreamRefused, _stream_refused)
    app.add_exception_handler(ClientDisconnect, _gone)
    app.add_exception_handler(Exception, _unexpected)
