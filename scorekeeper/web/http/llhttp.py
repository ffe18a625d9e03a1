"""uvicorn's httptools protocol (llhttp, in C) held to what heads.py and connections.py hold
h11 to: a request head over the limit is a 431 however it arrives, what is not HTTP a 400,
both as JSON; connection caps and the request-head deadline.

llhttp has no limit on a head at all (httptools gathers a header's pieces until it ends).
So a head is measured twice: exactly, as llhttp hands over its target and each header (a
whole head in one read); and by the bytes received while it is unfinished (a head dribbled
in pieces, or one endless header), which bounds what is held to the limit and one read.
Importing this module needs httptools; connections.protocol_class falls back to h11.
"""

from __future__ import annotations

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from scorekeeper.web.http.guard import Guard
from scorekeeper.web.http.heads import MALFORMED, HeadRefusals, head_too_large

LINE = len(b"DELETE  HTTP/1.1\r\n\r\n")  # a request line and the blank line, less the target


class HeadCheckedHttpToolsProtocol(HeadRefusals, HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing a head over the limit (431) and what is not
    HTTP (400) as JSON."""

    _begun = False  # a request head has begun and is not yet complete
    _in_body = False  # a head is complete, its body not yet
    _received = 0  # bytes received since the last request ended (a head's upper bound)
    _parsed = 0  # the head's bytes as llhttp has handed them over
    _too_large = False

    def data_received(self, data: bytes) -> None:
        if not self._in_body:
            self._received += len(data)
        super().data_received(data)
        if self._begun and self._received > self._limit and self.parser is not None:
            self._refuse(head_too_large(self._limit))  # unfinished, and already too long

    def on_message_begin(self) -> None:
        self._begun, self._parsed = True, LINE
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def _count(self, size: int) -> None:
        self._parsed += size
        if self._parsed > self._limit:
            self._too_large = True
            raise httptools.HttpParserError("the request head is over the limit")

    def on_headers_complete(self) -> None:
        self._begun, self._in_body = False, True
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_body, self._received = False, 0
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """What llhttp cannot read: 431 if the head is over the limit, else 400; as JSON.
        Once an answer has begun, uvicorn's own way."""
        if self.cycle is not None and self.cycle.response_started \
                and not self.cycle.response_complete:
            super().send_400_response(msg)
            return
        self._refuse(head_too_large(self._limit) if self._too_large else MALFORMED)


class GuardedHttpToolsProtocol(Guard, HeadCheckedHttpToolsProtocol):
    """uvicorn's httptools protocol with connection caps and a request-head deadline."""

    def head_begun(self) -> bool:
        return self._begun
