"""A game's version as an HTTP entity tag, and the two request headers that make a write safe
to send from two phones and to send again: `If-Match` and `Idempotency-Key`.

A game's ETag is its seq, quoted (`"12"`), on `GET /api/games/{id}` and as the `id` of each
live event. A write that sends `If-Match` with it is refused (412) if the game has moved on;
one that sends `Idempotency-Key` is done once, however often it is sent (the IETF HTTP API
draft "The Idempotency-Key HTTP Header Field"): the store judges both inside the write.
Without either header a write behaves as it always did (scripts, the CLI).
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any

from fastapi import Depends, Header, Request, Response
from pydantic import BaseModel

from scorekeeper.store import RequestKey, Written
from scorekeeper.store.requests import MAX_KEY
from scorekeeper.web.http.errors import ApiError

# a seq as the ETag writes it: no sign, no leading zero ("001" is another tag, which no
# version of a game carries: If-Match compares tags as strings, RFC 9110's strong comparison)
_TAG = re.compile(r'^(W/)?"(0|[1-9]\d{0,17})"$')
_KEY = re.compile(r"^[\x21-\x7e]+$")  # visible ASCII: a UUID, a token, a quoted string
REPLAYED = "Idempotent-Replayed"  # on an answer given again for a repeated key


def etag(seq: int) -> str:
    return f'"{seq}"'


def sent(written: Written, response: Response) -> dict[str, Any]:
    """A write's answer, with the game's new ETag; a repeated request's says it is a repeat."""
    response.headers["ETag"] = etag(written.view["seq"])
    if written.replayed:
        response.headers[REPLAYED] = "true"
    return written.answer


def expected_seq(if_match: str | None) -> int | None:
    """The version an If-Match names; None without the header, and for `*` (any version of
    a game that exists: the write itself answers 404 for one that does not).

    Several tags (`"3", "4"`) are refused: a phone knows one version of a game. A malformed
    or weak tag matches no version (RFC 9110: weak tags never match If-Match), so 412."""
    if if_match is None:
        return None
    value = if_match.strip()
    if value == "*":
        return None
    match = _TAG.match(value)
    if match is None or match.group(1):
        raise ApiError(412, f"If-Match must name one version of the game, as its ETag does "
                            f"(\"12\"), not {value[:40]!r}: nothing was saved",
                       code="precondition_malformed")
    return int(match.group(2))


def sent_once(request: Request, name: str) -> None:
    """Refuse a header given on several lines (400): read as the first line alone, a write
    would be judged against half of what was sent."""
    lines = len(request.headers.getlist(name))
    if lines > 1:
        raise ApiError(400, f"{name} was sent {lines} times: a request names it once; "
                            "nothing was saved", code="header_repeated", header=name)


async def get_if_match(
    request: Request,
    if_match: Annotated[str | None, Header(
        description='the game\'s ETag when this phone loaded it ("12"), on one line; 412 if '
                    "the game has moved on since, nothing changed")] = None,
) -> str | None:
    """The header as sent: the route reads it (`expected_seq`) once the request's own
    parameters are known to be valid, so a bad game id is a 422 before a bad tag a 412.
    Sent twice, it is refused at once (400)."""
    sent_once(request, "If-Match")
    return if_match


def request_key(key: str | None, request: Request, body: BaseModel | None) -> RequestKey | None:
    """The key and what it asks (method, path, body): a repeat must ask exactly this."""
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY or not _KEY.match(key):
        raise ApiError(400, f"Idempotency-Key must be 1 to {MAX_KEY} visible ASCII characters "
                            "(a UUID, say)", code="idempotency_key_malformed", max=MAX_KEY)
    what = f"{request.method} {request.url.path}\n"
    if body is not None:
        what += body.model_dump_json(exclude_unset=True)
    return RequestKey(key, hashlib.sha256(what.encode()).hexdigest())


async def get_idempotency_key(
    request: Request,
    idempotency_key: Annotated[str | None, Header(
        description="one key per request the phone means once (a UUID), on one line: a "
                    "repeat gets the first answer; the same key with another body is a 422. "
                    "Kept a day")
    ] = None,
) -> str | None:
    sent_once(request, "Idempotency-Key")
    return idempotency_key


IfMatchDep = Annotated[str | None, Depends(get_if_match)]
IdempotencyKeyDep = Annotated[str | None, Depends(get_idempotency_key)]
