"""What the admin says of the table rather than of a hand: a game ended (finished, abandoned,
deleted) or reopened, who deals next, and which game the table plays now.

Ending, reopening and the dealer are events of the game's log like a hand (the rules judge
them, the store keeps them, the club receives them), so an end is undone by `reopen`, and the
dealer follows undo and corrections: it is computed from the hands, never counted. A deleted
game is kept with its log and hidden from the list: the undo a phone offers is a `reopen`,
and nothing is lost by a mistaken tap (a backup holds it anyway, so purging would hide
nothing). The table's game is the hub's, in memory: what phones on another game are told
(a restart forgets it until the admin's page opens a game again).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool

from scorekeeper.web.deps import HubDep, StoreDep, WriterDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.preconditions import (
    IdempotencyKeyDep,
    IfMatchDep,
    expected_seq,
    request_key,
    sent,
)
from scorekeeper.web.models import DealerIn, EndIn, GameView, TableGame, TableIn, refusals
from scorekeeper.web.routes.games import WRITE

router = APIRouter(route_class=GuardedRoute)


@router.post("/api/games/{game_id}/end", response_model=GameView, responses=WRITE,
             response_model_exclude_unset=True)
async def end_game(game_id: int, body: EndIn, request: Request, response: Response,
                   writer: WriterDep, if_match: IfMatchDep,
                   key: IdempotencyKeyDep) -> dict[str, Any]:
    """Ends a game the rules have not: finished (its leader wins) or abandoned (nobody
    does). No more hands until it is reopened."""
    written = await writer.write(game_id, {"type": "end", "how": body.how},
                                 expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, body))
    return sent(written, response)


@router.delete("/api/games/{game_id}", response_model=GameView, responses=WRITE,
               response_model_exclude_unset=True)
async def delete_game(game_id: int, response: Response, writer: WriterDep,
                      if_match: IfMatchDep) -> dict[str, Any]:
    """Hides the game from the list; its log is kept, and `reopen` brings it back."""
    written = await writer.write(game_id, {"type": "end", "how": "deleted"},
                                 expect_seq=expected_seq(if_match))
    return sent(written, response)


@router.post("/api/games/{game_id}/reopen", response_model=GameView, responses=WRITE,
             response_model_exclude_unset=True)
async def reopen_game(game_id: int, request: Request, response: Response, writer: WriterDep,
                      if_match: IfMatchDep, key: IdempotencyKeyDep) -> dict[str, Any]:
    """Takes the last end back (the undo of an end or a delete)."""
    written = await writer.write(game_id, {"type": "reopen"},
                                 expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, None))
    return sent(written, response)


@router.put("/api/games/{game_id}/dealer", response_model=GameView, responses=WRITE,
            response_model_exclude_unset=True)
async def set_dealer(game_id: int, body: DealerIn, response: Response, writer: WriterDep,
                     if_match: IfMatchDep) -> dict[str, Any]:
    """Who deals the next hand (a correction): the deal moves left from them."""
    written = await writer.write(game_id, {"type": "dealer", "player": body.player},
                                 expect_seq=expected_seq(if_match))
    return sent(written, response)


@router.get("/api/table", response_model=TableGame, responses=refusals(503))
@public
def table_game(hub: HubDep) -> dict[str, Any]:
    """The game the table plays now: the one the admin's page opened last."""
    return {"game": hub.table_game}


@router.put("/api/table", response_model=TableGame, responses=refusals(404, 422, 503))
async def move_table(body: TableIn, store: StoreDep, hub: HubDep) -> dict[str, Any]:
    """The table plays this game now: phones watching another are told (live, `table`)."""
    await run_in_threadpool(store.get, body.game)  # an unknown game is a 404
    hub.move_table(body.game)
    return {"game": hub.table_game}
