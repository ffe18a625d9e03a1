"""Request bodies have a size and a pace: too big is a 413 before reading, too slow a 408;
and a public route that costs work has a rate per client (`RateLimit`).

The server runs on a Pi that anyone on the table's network can reach, so no request may
make it buffer without bound or wait forever. A body's declared size (Content-Length) is
checked before a byte of it is read; a body without one (chunked) is counted as it comes.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scorekeeper.web.refusals.body import refusal_body
from scorekeeper.web.refusals.language import pick

MAX_BODY = 1024 * 1024  # JSON bodies: a hand or a new game is a few hundred bytes
BODY_IDLE_S = 20.0  # a body that stops arriving for this long is given up (408)
BODY_TOTAL_S = 300.0  # and any body must be in within this (20 MB at about 550 kbit/s)
PER_MINUTE = 6  # knock checks per client a minute: a player asks once or twice a hand
WINDOW_S = 60.0
CLIENTS = 1024  # clients remembered; the least recent is forgotten first


def is_local(host: str) -> bool:
    """Whether a client address is this machine (a local process or a reverse proxy).

    Per-client caps exempt it: behind a proxy every phone would share its address, and a
    local process needs no network to stop the server anyway.
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool((mapped or address).is_loopback)


class BodyError(HTTPException):
    """A request body refused part-way; raised from `receive`, so the route never sees it.

    An HTTPException, so FastAPI's body parsing re-raises it and the app's exception
    handler answers `{"detail": ...}`; the connection is closed, not drained.
    """

    def __init__(self, status: int, detail: str, **params: object) -> None:
        super().__init__(status, detail, headers={"Connection": "close"})
        self.code = "body_too_slow" if status == 408 else "body_too_large"
        self.params = params


def route_pattern(path: str) -> re.Pattern[str]:
    """A route path with `{params}` as a regex: "/api/games/{game_id}/scan"."""
    parts = re.split(r"\{[^}]+\}", path)
    return re.compile("[^/]+".join(re.escape(part) for part in parts) + r"\Z")


def megabytes(size: int) -> str:
    return f"{size / 2**20:.3g} MB"


class BodyLimit:
    """ASGI middleware: `limits` maps route paths (any method) to a size; others get `default`."""

    def __init__(
        self,
        app: ASGIApp,
        default: int = MAX_BODY,
        limits: Mapping[str, int] | None = None,
        idle_s: float = BODY_IDLE_S,
        total_s: float = BODY_TOTAL_S,
    ) -> None:
        self.app = app
        self.default = default
        self.limits = [(route_pattern(path), size) for path, size in (limits or {}).items()]
        self.idle_s = idle_s
        self.total_s = total_s

    def limit_for(self, path: str) -> int:
        return next((size for pattern, size in self.limits if pattern.match(path)), self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _answer(scope, send, BodyError(413, f"the request body is over "
                                                     f"{megabytes(limit)}", size=megabytes(limit)))
            return
        body = _CountedBody(receive, limit, self.idle_s, self.total_s)
        started = False

        async def send_started(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, body.receive, send_started)
        except BodyError as exc:  # only when nothing in the app turned it into an answer
            if started:
                raise
            await _answer(scope, send, exc)


class _CountedBody:
    """Wraps `receive`: counts the body and times its arrival, then steps aside.

    Once the body is complete, `receive` is only waiting for a disconnect (a live event
    stream listens for one for hours), so it must not time out.
    """

    def __init__(self, receive: Receive, limit: int, idle_s: float, total_s: float) -> None:
        self._receive = receive
        self.limit = limit
        self.idle_s = idle_s
        self.deadline = time.monotonic() + total_s
        self.size = 0
        self.done = False

    async def receive(self) -> Message:
        if self.done:
            return await self._receive()
        wait = max(0.0, min(self.idle_s, self.deadline - time.monotonic()))
        try:
            async with asyncio.timeout(wait):
                message = await self._receive()
        except TimeoutError:
            self.done = True
            raise BodyError(408, f"the request body stopped arriving (waited {wait:g} s)") from None
        if message["type"] != "http.request":
            self.done = True
            return message
        self.size += len(message.get("body", b""))
        if self.size > self.limit:
            self.done = True
            raise BodyError(413, f"the request body is over {megabytes(self.limit)}",
                            size=megabytes(self.limit))
        self.done = not message.get("more_body", False)
        return message


def _content_length(scope: Scope) -> int | None:
    """The declared body size, if any (h11 has already refused one that is not a number)."""
    for name, value in scope["headers"]:
        if name == b"content-length" and value.strip().isdigit():
            return int(value)
    return None


async def _answer(scope: Scope, send: Send, exc: BodyError) -> None:
    """A JSON error that closes the connection, so an unread body is never drained."""

    asked = next((v.decode("latin-1") for k, v in scope["headers"]
                  if k == b"accept-language"), None)
    language = pick(asked)
    body = json.dumps(refusal_body(language, str(exc.detail), exc.code, exc.params)).encode()
    status = exc.status_code
    headers = [
        (b"content-type", b"application/json"),
        (b"content-language", language.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RateLimit:
    """At most `per_window` calls per client in any `window_s` seconds (sliding window)."""

    def __init__(self, per_window: int = PER_MINUTE, window_s: float = WINDOW_S,
                 clients: int = CLIENTS) -> None:
        self.per_window = per_window
        self.window_s = window_s
        self.clients = clients
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait_s(self, client: str, now: float | None = None) -> float:
        """0 and the call counted, or how long until this client may call again."""
        now = time.monotonic() if now is None else now
        with self._lock:
            calls = self._seen.pop(client, None) or deque()
            while calls and now - calls[0] >= self.window_s:
                calls.popleft()
            self._seen[client] = calls  # most recent last
            while len(self._seen) > self.clients:
                self._seen.popitem(last=False)
            if len(calls) >= self.per_window:
                return self.window_s - (now - calls[0])
            calls.append(now)
            return 0.0
