"""Connection limits uvicorn lacks: a deadline for request headers and caps on connections.

uvicorn times out only idle keep-alive connections *after* a response: a connection that
never finishes its request line or headers is kept forever (any byte cancels the keep-alive
timer), so a thousand half-open sockets from anyone on the network use up the file limit
and the server stops accepting. An ASGI middleware cannot help: the app is only called once
the headers are in. So the HTTP protocol itself (httptools where it is installed, its C
parser costing a flood less: llhttp.py; else h11) is given a deadline here: from the moment a
connection opens, or its last response ends, the client has HEADER_TIMEOUT_S to deliver a
whole request head; otherwise it gets a 408 (or, if it sent nothing, is simply closed).
A request being handled (a body being read, a live event stream) is not timed out here:
bodies have their own timeouts (limits.py) and live streams their own caps (hub.py).

At the cap on connections in all, a new connection is not refused: it takes the place of
the connection that costs the table most for what it gives, the one not heard from for the
longest: a half-sent head, an idle keep-alive, or a request still sending its body (a phone
sending a photo is heard from many times a second; a flood sending a byte every 15 s is
silent for seconds at a time, and its bodies would hold every place for minutes). A request
being answered (its body in, or a live stream) is never cut, so only when every connection
is one is a new one refused (503). So a flood of half-open sockets or slow bodies from many
addresses cannot lock a new phone out.
"""

from __future__ import annotations

import logging
import resource
from pathlib import Path
from typing import Any

import h11
import uvicorn

from scorekeeper.web.http.guard import (  # noqa: F401 (HEADER_TIMEOUT_S: re-exported)
    HEADER_TIMEOUT_S,
    MAX_CONNECTIONS,
    ConnectionPolicy,
    Guard,
)
from scorekeeper.web.http.heads import HeadCheckedH11Protocol

log = logging.getLogger(__name__)

KEEP_ALIVE_S = 5  # idle time allowed between requests (uvicorn's own timer)
MAX_HEAD = 16 * 1024  # bytes of request line and headers; more is a 431 (heads.py)
FILE_RESERVE = 64  # files kept for the database, the camera, the model, logs
ACCEPT_BACKLOG = 64  # connections accepted in one go: asyncio accepts up to the backlog at
# once, before any is counted, and an evicted connection's file is closed a loop turn later;
# so twice this is kept free of the cap too, and a flood never meets the file limit
# (EMFILE), after which asyncio stops accepting anyone, a new phone too, for a second
NOFILE_TARGET = 65536  # the soft file limit asked for (the systemd unit sets the same)


def raise_file_limit(target: int = NOFILE_TARGET) -> int:
    """Lift the soft open-file limit towards `target` (within the hard limit); the new limit.

    Distributions and systemd start services with a soft limit of 1024, a thousand idle
    sockets; the hard limit (524288 under systemd) may be used without privileges.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = target if hard == resource.RLIM_INFINITY else min(hard, target)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
            soft = ceiling
        except (ValueError, OSError) as exc:  # the caps below then fit the lower limit
            log.warning("cannot raise the open-file limit from %s to %s: %s", soft, ceiling, exc)
    return soft if soft != resource.RLIM_INFINITY else target


class GuardedH11Protocol(Guard, HeadCheckedH11Protocol):
    """uvicorn's h11 protocol with connection caps and a request-head deadline."""

    def head_begun(self) -> bool:
        return self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])


def protocol_class(policy: ConnectionPolicy, parser: str | None = None) -> type[Guard]:
    """A protocol class bound to one policy (uvicorn builds one instance per connection):
    on llhttp (httptools, C) where it is installed, else on h11 (pure Python); `parser`
    ("httptools", "h11") to choose."""
    base: type[Guard] = GuardedH11Protocol
    if parser in (None, "httptools"):
        try:
            from scorekeeper.web.http.llhttp import GuardedHttpToolsProtocol
            base = GuardedHttpToolsProtocol
        except ImportError:
            if parser == "httptools":
                raise
    return type(base.__name__, (base,), {"policy": policy})


def server_config(app: Any, host: str, port: int, files: int | None = None,
                  tls: tuple[Path, Path] | None = None,
                  parser: str | None = None) -> uvicorn.Config:
    """uvicorn settings for the table server; `files` is the open-file limit to fit under,
    `tls` the certificate and key to serve HTTPS with (checked first: web/tls.py),
    `parser` the HTTP parser ("httptools", "h11"; by default httptools where installed)."""
    files = files if files is not None else raise_file_limit()
    places = files - FILE_RESERVE - 2 * ACCEPT_BACKLOG
    policy = ConnectionPolicy(max_connections=max(16, min(MAX_CONNECTIONS, places)))
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol_class(policy, parser),
        loop="auto",  # uvloop where it is installed (with httptools: docs/server.md), else asyncio
        timeout_keep_alive=KEEP_ALIVE_S,
        h11_max_incomplete_event_size=MAX_HEAD,
        backlog=ACCEPT_BACKLOG,
        timeout_graceful_shutdown=3,
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
    )
