"""The club server's routes: the tables' sync, and the club admin's table management.

`POST /api/club/sync` takes a table token and nothing else does (auth.py `table_token`);
the table management routes take the club's admin token, as every unmarked route does.
The game API's writes to a game a table forwarded are refused (`owner_refusal`). The work is
in scorekeeper/club; these only carry it over HTTP.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Annotated, Any, cast

from fastapi import Depends, FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from scorekeeper.club.forwarder import PENDING_HEADER, Forwarder
from scorekeeper.club.presence import counts, listing, pending_header
from scorekeeper.club.protocol import MAX_BATCH_BYTES, Batch, SyncAnswer
from scorekeeper.club.sync import ClubSync
from scorekeeper.club.tables import ClubTable, TableError, Tables, TableTaken, UnknownTable
from scorekeeper.store import GameStore
from scorekeeper.store.faults import StoreError, explain
from scorekeeper.web.deps import HubDep
from scorekeeper.web.http.auth import table_token
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.live.writes import GameOwner
from scorekeeper.web.models import refusals

SYNC_PATH = "/api/club/sync"
BODY_LIMITS = {SYNC_PATH: MAX_BATCH_BYTES}
ClubHealth = Callable[[], dict[str, Any]]
_STORE_FAULTS = (sqlite3.Error, StoreError, OSError)  # as pages.py's health check


class NewTable(BaseModel):
    name: str = Field(max_length=40, description="letters, digits, '_', '.', '-'")


class TableToken(BaseModel):
    """A table's token, shown this once (the club keeps only its hash)."""

    name: str
    token: str


async def get_sync(request: Request) -> ClubSync:
    return cast(ClubSync, request.app.state.club_sync)


async def get_tables(request: Request) -> Tables:
    return cast(Tables, request.app.state.club_tables)


async def get_table(request: Request) -> ClubTable:
    """The table whose token the request carries (set by auth.py's table-token guard)."""
    return cast(ClubTable, request.state.club_table)


async def get_forwarder(request: Request) -> Forwarder | None:
    """The table's forwarder in club mode, else None (for the health check)."""
    return cast("Forwarder | None", getattr(request.app.state, "forwarder", None))


async def get_club_health(request: Request) -> ClubHealth | None:
    """The club server's health entry, else None (a table: its forwarder says)."""
    return cast("ClubHealth | None", getattr(request.app.state, "club_health", None))


def owner_refusal(club: ClubSync) -> GameOwner:
    """The club's `app.state.game_owner` (web/writes.py): a write through the game API to a
    game a table forwarded is refused in words naming the table, since the table holds that
    game's log and keeps sending it."""

    def refusal(game_id: int) -> str | None:
        owner = club.owner(game_id)
        if owner is None:
            return None
        return f"game {game_id} is {owner[0]}'s (its game {owner[1]} there); " \
               f"score it at that table"

    return refusal


SyncDep = Annotated[ClubSync, Depends(get_sync)]
TablesDep = Annotated[Tables, Depends(get_tables)]
TableDep = Annotated[ClubTable, Depends(get_table)]
ForwarderDep = Annotated["Forwarder | None", Depends(get_forwarder)]
ClubHealthDep = Annotated["ClubHealth | None", Depends(get_club_health)]


@table_token
async def sync(batch: Batch, table: TableDep, club: SyncDep, hub: HubDep,
               request: Request) -> Response:
    """Store a table's batch; 200, or 409/422 naming the events refused (the rest stored).
    The table's `Scorekeeper-Pending` header says what it still holds; a malformed one is
    ignored, never a refusal (club/presence.py)."""
    pending = pending_header(request.headers.get(PENDING_HEADER))
    answer, changed = await run_in_threadpool(club.apply, table, batch, pending)
    for view in changed:
        hub.publish(view)
    return JSONResponse(answer.model_dump(), status_code=answer.status)


def _token(action: Any, name: str) -> TableToken:
    try:
        return TableToken(name=name, token=action(name))
    except UnknownTable as exc:
        raise ApiError(404, str(exc)) from None
    except TableTaken as exc:
        raise ApiError(409, str(exc)) from None
    except TableError as exc:
        raise ApiError(422, str(exc)) from None


async def add_table(body: NewTable, tables: TablesDep) -> Response:
    answer = await run_in_threadpool(_token, tables.add, body.name)
    return JSONResponse(answer.model_dump(), status_code=201)


async def rotate_token(name: str, tables: TablesDep) -> TableToken:
    return await run_in_threadpool(_token, tables.rotate, name)


async def list_tables(tables: TablesDep) -> Response:
    """Every table with its games sent and its state (live, behind, offline)."""
    return JSONResponse(await run_in_threadpool(listing, tables))


def server_health(tables: Tables) -> dict[str, Any]:
    """The club server's entry in `/api/health`: its tables and their states. A store fault
    is shown here in words; the store's own entry says whether it is the health's fault."""
    try:
        found = listing(tables)
    except _STORE_FAULTS as exc:
        return {"mode": "server", "error": explain(exc, "read its tables")}
    return {"mode": "server", **counts(found), "tables": found}


def register(app: FastAPI, store: GameStore) -> None:
    """Mount the club server's routes on the app whose store is the club's."""
    tables = Tables(store.database)
    app.state.club_tables = tables
    app.state.club_sync = ClubSync(store, tables)
    app.state.verify_table = tables.verify
    app.state.game_owner = owner_refusal(app.state.club_sync)
    app.state.club_health = lambda: server_health(tables)
    app.add_api_route(SYNC_PATH, sync, methods=["POST"], response_model=SyncAnswer,
                      responses={409: {"model": SyncAnswer, "description": "an event differs "
                                       "from the one stored under its seq"},
                                 422: {"model": SyncAnswer, "description": "the rules refuse "
                                       "an event (or the batch is malformed)"},
                                 **refusals(413, 503)})
    app.add_api_route("/api/club/tables", list_tables, methods=["GET"])
    app.add_api_route("/api/club/tables", add_table, methods=["POST"], status_code=201,
                      response_model=TableToken, responses=refusals(409, 422, 503))
    app.add_api_route("/api/club/tables/{name}/token", rotate_token, methods=["POST"],
                      response_model=TableToken, responses=refusals(404, 422, 503))
