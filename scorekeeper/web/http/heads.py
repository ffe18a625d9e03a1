"""Request heads h11 lets through or refuses in plain text: over the size limit, or not HTTP.

h11 measures a head only while it is incomplete: a whole 100 KB head that arrives in one
read is parsed as it is, whatever `h11_max_incomplete_event_size` says. And what h11
cannot read (a head over the limit in pieces, bytes that are not HTTP) uvicorn answers with
a plain-text 400, where every other refusal is the JSON `{"detail", "code", "params"}` the
page reads. So the head's bytes are counted here as they arrive, and both refusals are said
as the app says its own, before the app ever sees the request (none reached it).
"""

from __future__ import annotations

import asyncio
import json
import re

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE  # what uvicorn gives h11 too
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

from scorekeeper.web.refusals.body import refusal_body

_HEAD_END = re.compile(rb"\n\r?\n")  # h11's own end of a head: a blank line, CR optional


def refusal(status: str, code: str, detail: str, **params: str) -> bytes:
    """A whole HTTP/1.1 answer with a JSON refusal (in English: the request's language is
    in the head that could not be read), closing the connection."""
    body = json.dumps(refusal_body("en", detail, code, params)).encode()
    head = (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
            f"x-content-type-options: nosniff\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n")
    return head.encode() + body


def head_too_large(limit: int) -> bytes:
    size = f"{limit // 1024} KB"
    return refusal("431 Request Header Fields Too Large", "head_too_large",
                   f"the request's headers are over {size}", size=size)


MALFORMED = refusal("400 Bad Request", "request_malformed",
                    "the request cannot be read: it is not HTTP/1.1")


class HeadRefusals:
    """What both parsers' protocols share: the head's limit, as uvicorn gives it to h11
    (server_config sets it), and a refusal written before the connection closes."""

    config: Config
    transport: asyncio.Transport

    @property
    def _limit(self) -> int:
        size = self.config.h11_max_incomplete_event_size
        return size if size is not None else DEFAULT_MAX_INCOMPLETE_EVENT_SIZE

    def _refuse(self, answer: bytes) -> None:
        if not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()


class HeadCheckedH11Protocol(HeadRefusals, H11Protocol):
    """uvicorn's h11 protocol, refusing a head over the limit however it arrives (431) and
    saying its refusals as JSON."""

    _head = 0  # bytes received since this connection began waiting for a request head

    def data_received(self, data: bytes) -> None:
        if self._over_limit(data):
            self._refuse(head_too_large(self._limit))
            return
        super().data_received(data)

    def _over_limit(self, data: bytes) -> bool:
        """Whether the head being received is over the limit. Counted, and only measured
        (a copy of what h11 holds) once the count passes it: a head dribbled a byte at a
        time costs no copy."""
        if self.conn.their_state is not h11.IDLE:
            return False  # a request in hand: its body, or pipelined bytes h11 will measure
        self._head += len(data)
        if self._head <= self._limit:
            return False
        buffered = self.conn.trailing_data[0] + data
        end = _HEAD_END.search(buffered)
        return (end.end() if end else len(buffered)) > self._limit

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._head = 0  # the next request's head is counted afresh

    def send_400_response(self, msg: str) -> None:
        """What h11 cannot read: 431 if it is the head's size (h11 measured it in pieces),
        else 400; as JSON. Once an answer has begun, uvicorn's own way."""
        if self.conn.our_state is not h11.IDLE:
            super().send_400_response(msg)
            return
        too_large = len(self.conn.trailing_data[0]) > self._limit
        self._refuse(head_too_large(self._limit) if too_large else MALFORMED)
