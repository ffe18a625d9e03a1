"""The guard uvicorn's HTTP protocols share: caps on connections (per address and in all, the
place of the connection silent longest given to a new one) and a deadline for a request head.
connections.py explains why; the parsers' own parts are there (h11) and in llhttp.py
(httptools), both built on `Guard`, so neither imports the other.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from scorekeeper.web.http.limits import is_local

HEADER_TIMEOUT_S = 10.0  # a request head is under 2 KB: seconds even on a poor phone link
CONNECTIONS_PER_CLIENT = 64  # a browser opens at most 6 per server, plus its live streams
MAX_CONNECTIONS = 4096  # in all; each idle one costs a few KB of memory and a file


def _plain(status: str, text: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, written straight to the socket."""
    body = text.encode() + b"\n"
    head = (f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n")
    return head.encode() + body


_TIMEOUT = _plain("408 Request Timeout", "the request headers did not arrive in time")
_TOO_MANY = _plain("429 Too Many Requests", "too many connections from this address")
_FULL = _plain("503 Service Unavailable", "the server has too many connections; try again")
_EVICTED = _plain("503 Service Unavailable", "the server needed this connection's place; "
                  "send the request again")


class Waiter(Protocol):
    """A connection as the policy sees it: whether it may give its place to a newer one
    (it is waiting for a request head or still sending a body), and how to let it go."""

    def evictable(self) -> bool: ...
    def evict(self) -> None: ...


@dataclass
class ConnectionPolicy:
    """The limits one server applies, and its live count of connections per client."""

    header_timeout_s: float = HEADER_TIMEOUT_S
    per_client: int = CONNECTIONS_PER_CLIENT
    max_connections: int = MAX_CONNECTIONS
    exempt: Callable[[str], bool] = is_local
    open: Counter[str] = field(default_factory=Counter)
    total: int = 0
    evicted: int = 0
    # admitted connections, the one heard from longest ago first (bytes received, or it
    # began waiting for a request head; a dict keeps insertion order; `heard` moves a
    # connection to the end)
    queue: dict[Waiter, str] = field(default_factory=dict)

    def admit(self, host: str, conn: Waiter | None = None) -> bytes | None:
        """Count a new connection in, evicting the one silent longest at the cap; or the
        answer that refuses it."""
        if self.open[host] >= self.per_client and not self.exempt(host):
            return _TOO_MANY
        if self.total >= self.max_connections and not self._evict_oldest():
            return _FULL
        self.open[host] += 1
        self.total += 1
        if conn is not None:
            self.queue[conn] = host
        return None

    def heard(self, conn: Waiter) -> None:
        """`conn` sent bytes, or has begun waiting for a request head (opened, or its
        answer finished): it goes to the back of the line."""
        host = self.queue.pop(conn, None)
        if host is not None:
            self.queue[conn] = host

    def _evict_oldest(self) -> bool:
        """Free the place of the connection silent longest that may give it up; False if
        every connection is a request being answered (those are never cut)."""
        for conn in self.queue:
            if conn.evictable():
                self.release(self.queue[conn], conn)
                self.evicted += 1
                conn.evict()
                return True
        return False

    def release(self, host: str, conn: Waiter | None = None) -> None:
        if conn is not None:
            self.queue.pop(conn, None)
        self.total -= 1
        self.open[host] -= 1
        if self.open[host] <= 0:
            del self.open[host]


class Guard(asyncio.Protocol):
    """Connection caps and a request-head deadline, for either of uvicorn's HTTP protocols
    (the parser's own part is `head_begun`: whether a request head has begun arriving)."""

    policy: ClassVar[ConnectionPolicy]
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    client: tuple[str, int] | None
    cycle: Any
    _deadline: asyncio.TimerHandle | None = None
    _host = ""
    _admitted = False

    def head_begun(self) -> bool:
        raise NotImplementedError

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._host = self.client[0] if self.client else ""
        refusal = self.policy.admit(self._host, self)
        self._admitted = refusal is None
        if refusal is not None:
            self.transport.write(refusal)
            self.transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._admitted:
            self.policy.heard(self)
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self._admitted:
            self._admitted = False
            self.policy.release(self._host, self)
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm()  # the next request's head has its own deadline

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.policy.header_timeout_s, self._expire)
        self.policy.heard(self)

    def handling(self) -> bool:
        """A request in hand: its headers parsed, its answer (or live stream) not finished."""
        return self.cycle is not None and not self.cycle.response_complete

    def sending_body(self) -> bool:
        """A request whose body is still arriving, nothing answered yet."""
        return (self.handling() and self.cycle.more_body
                and not self.cycle.response_started)

    def evictable(self) -> bool:
        """Waiting for a request head, or still sending a body: a place it may give up."""
        return not self.handling() or self.sending_body()

    def evict(self) -> None:
        """Give this connection's place to a newer one (the policy has already released it).

        A begun request (a half-sent head, a body still arriving) is told to send it again;
        the app reading that body is told the client went away."""
        self._admitted = False
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._close_waiting(_EVICTED)

    def _expire(self) -> None:
        """Close a connection that has not delivered a request head in time.

        A request in hand (its headers parsed, its answer not finished) is the app's
        business, not the client's delay, so it is left alone.
        """
        self._deadline = None
        if not self.handling():
            self._close_waiting(_TIMEOUT)

    def _close_waiting(self, answer: bytes) -> None:
        """Close a connection waiting for its request head or sending its body: a request
        begun gets `answer`, a silent connection is just closed."""
        if self.transport.is_closing():
            return
        if (not self.handling() and self.head_begun()) or self.sending_body():
            self.transport.write(answer)
        self.transport.close()
