"""The club server's routes: the tables' sync, and the club admin's table management.

`POST /api/club/sync` takes a table token and nothing else does (auth.py `table_token`);
the table management routes take the club's admin token, as every unmarked route does.
The game API's writes to a game a table forwarded are refused (`owner_refusal`). The work is
in scorekeeper/club; these only carry it over HTTP.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.club.forwarder import PENDING_HEADER
from scorekeeper.club.presence import counts, listing, pending_header
from scorekeeper.club.protocol import MAX_BATCH_BYTES, Batch, SyncAnswer
from scorekeeper.club.sync import ClubSync
from scorekeeper.club.tables import TableError, Tables, TableTaken, UnknownTable
from scorekeeper.store.faults import StoreError, explain
from scorekeeper.web.deps import HubDep, SyncDep, TableDep, TablesDep
from scorekeeper.web.http.auth import GuardedRoute, table_token
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.live.writes import GameOwner
from scorekeeper.web.models import refusals

SYNC_PATH = "/api/club/sync"
BODY_LIMITS = {SYNC_PATH: MAX_BATCH_BYTES}
_STORE_FAULTS = (sqlite3.Error, StoreError, OSError)  # as pages.py's health check


class NewTable(BaseModel):
    name: str = Field(max_length=40, description="letters, digits, '_', '.', '-'")


class ClubTableRow(BaseModel):
    """A table as the club sees it (club/presence.py: its games sent and its state)."""

    model_config = ConfigDict(extra="allow")

    name: str
    state: str = Field(description="live, behind (events pending) or offline")


class TableToken(BaseModel):
    """A table's token, shown this once (the club keeps only its hash)."""

    name: str
    token: str


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


router = APIRouter(route_class=GuardedRoute)


@router.post(SYNC_PATH, response_model=SyncAnswer,
             responses={409: {"model": SyncAnswer, "description": "an event differs from "
                              "the one stored under its seq"},
                        422: {"model": SyncAnswer, "description": "the rules refuse an event "
                              "(or the batch is malformed)"},
                        **refusals(413, 503)})
@table_token
async def sync(batch: Batch, table: TableDep, club: SyncDep, hub: HubDep,
               request: Request, response: Response) -> SyncAnswer:
    """Store a table's batch; 200, or 409/422 naming the events refused (the rest stored).
    The table's `Scorekeeper-Pending` header says what it still holds; a malformed one is
    ignored, never a refusal (club/presence.py)."""
    pending = pending_header(request.headers.get(PENDING_HEADER))
    answer, changed = await run_in_threadpool(club.apply, table, batch, pending)
    for view in changed:
        hub.publish(view)
    response.status_code = answer.status
    return answer


def _token(action: Any, name: str) -> TableToken:
    try:
        return TableToken(name=name, token=action(name))
    except UnknownTable as exc:
        raise ApiError(404, str(exc), code="table_unknown") from None
    except TableTaken as exc:
        raise ApiError(409, str(exc), code="table_taken") from None
    except TableError as exc:
        raise ApiError(422, str(exc), code="table_invalid") from None


@router.post("/api/club/tables", status_code=201, response_model=TableToken,
             responses=refusals(409, 422, 503))
async def add_table(body: NewTable, tables: TablesDep) -> TableToken:
    return await run_in_threadpool(_token, tables.add, body.name)


@router.post("/api/club/tables/{name}/token", response_model=TableToken,
             responses=refusals(404, 422, 503))
async def rotate_token(name: str, tables: TablesDep) -> TableToken:
    return await run_in_threadpool(_token, tables.rotate, name)


@router.get("/api/club/tables", response_model=list[ClubTableRow],
            response_model_exclude_unset=True)
async def list_tables(tables: TablesDep) -> list[dict[str, Any]]:
    """Every table with its games sent and its state (live, behind, offline)."""
    found: list[dict[str, Any]] = await run_in_threadpool(listing, tables)
    return found


def server_health(tables: Tables) -> dict[str, Any]:
    """The club server's entry in `/api/health`: its tables and their states. A store fault
    is shown here in words; the store's own entry says whether it is the health's fault."""
    try:
        found = listing(tables)
    except _STORE_FAULTS as exc:
        return {"mode": "server", "error": explain(exc, "read its tables")}
    return {"mode": "server", **counts(found), "tables": found}
