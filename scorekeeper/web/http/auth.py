"""The admin token and deny-by-default route guarding.

Every route built with `GuardedRoute` demands the admin token unless its endpoint is
marked `@public`; forgetting the marker fails closed, never open. A guarded route says so
in the OpenAPI document (its 401, and the bearer scheme `ADMIN_SCHEME`).

On a club server, a route marked `@table_token` demands a table's token instead (checked
by `app.state.verify_table`; the table is put in `request.state.club_table`): a table
token opens only such routes, and the admin token opens none of them.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute

from scorekeeper.files import write_atomic
from scorekeeper.settings import Settings
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.models import UNAUTHORIZED
from scorekeeper.web.state import parts

F = TypeVar("F", bound=Callable[..., Any])
ADMIN_SCHEME = "adminToken"  # the OpenAPI security scheme: `Authorization: Bearer <token>`
TABLE_SCHEME = "tableToken"  # the club's table token, same header
TOKEN_REQUIRED = "admin token required: send Authorization: Bearer <token>"
TABLE_TOKEN_REQUIRED = "table token required: send Authorization: Bearer <the table's token>"


def public(endpoint: F) -> F:
    """Mark an endpoint as readable by anyone on the network."""
    endpoint.__scorekeeper_public__ = True  # type: ignore[attr-defined]
    return endpoint


def is_public(endpoint: Callable[..., Any]) -> bool:
    return getattr(endpoint, "__scorekeeper_public__", False) is True


def table_token(endpoint: F) -> F:
    """Mark an endpoint as a club table's: it takes a table token, not the admin token."""
    endpoint.__scorekeeper_table_token__ = True  # type: ignore[attr-defined]
    return endpoint


def is_table_route(endpoint: Callable[..., Any]) -> bool:
    return getattr(endpoint, "__scorekeeper_table_token__", False) is True


async def club_table(request: Request) -> object | None:
    """The table whose token the request carries, or None (also on a server that is no
    club server). The check reads the database, so it runs in a worker thread."""
    club = parts(request.app).club
    given = bearer(request)
    if club is None or given is None:
        return None
    return await run_in_threadpool(club.tables.verify, given)


def load_or_create_token(path: Path) -> tuple[str, bool]:
    """The table's token from its file, made (owner-only, 0600) on first start.

    Returns the token and whether it was just created.
    """
    try:
        token = path.read_text().strip()
        if token:
            return token, False
    except FileNotFoundError:
        pass
    token = secrets.token_urlsafe(24)
    write_atomic(path, token + "\n", private=True)
    return token, True


def resolve_token(settings: Settings) -> tuple[str, bool]:
    """`SCOREKEEPER_ADMIN_TOKEN` if set, else the data folder's token; and whether it is new."""
    if settings.admin_token is not None and settings.admin_token.get_secret_value().strip():
        return settings.admin_token.get_secret_value().strip(), False
    return load_or_create_token(settings.admin_token_path)


def bearer(request: Request) -> str | None:
    """The token of an `Authorization: Bearer ...` header, if any."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


def is_admin(request: Request) -> bool:
    """Whether the request carries this table's admin token (constant-time compare)."""
    given = bearer(request)
    token = parts(request.app).admin_token
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


class GuardedRoute(APIRoute):
    """An APIRoute that answers 401 before reading the body unless the endpoint is public."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not is_public(endpoint):
            scheme = TABLE_SCHEME if is_table_route(endpoint) else ADMIN_SCHEME
            kwargs["responses"] = {**UNAUTHORIZED, **(kwargs.get("responses") or {})}
            kwargs["openapi_extra"] = {**(kwargs.get("openapi_extra") or {}),
                                       "security": [{scheme: []}]}
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if is_public(self.endpoint):
            return handler
        if is_table_route(self.endpoint):
            async def table_guarded(request: Request) -> Response:
                table = await club_table(request)
                if table is None:
                    raise ApiError(401, TABLE_TOKEN_REQUIRED, {"WWW-Authenticate": "Bearer"},
                                   code="table_token_required")
                request.state.club_table = table
                return await handler(request)

            return table_guarded

        async def guarded(request: Request) -> Response:
            if not is_admin(request):
                raise ApiError(401, TOKEN_REQUIRED, {"WWW-Authenticate": "Bearer"},
                               code="token_required")
            return await handler(request)

        return guarded
