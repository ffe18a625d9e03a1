"""The games API. Reads are public; every write needs the admin token (see auth.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.store import GameStore
from scorekeeper.web.auth import public
from scorekeeper.web.events import game_events
from scorekeeper.web.variants import variants

# Cheap bounds checked before anything else, so that a flood stops at its first item. They
# sit far above what the rules allow (8 players, 40-character names, 11 settings): the
# rules' own checks then name the variant's limits in their words.
MAX_LISTED = 64
MAX_TEXT = 200
MAX_SETTINGS = 32

Text = Annotated[str, Field(max_length=MAX_TEXT)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Body):
    variant: Text
    players: list[Text] = Field(max_length=MAX_LISTED)
    settings: dict[str, Any] | None = Field(None, max_length=MAX_SETTINGS)


class HandBody(_Body):
    players: list[dict[str, Any]] = Field(max_length=MAX_LISTED)


class SettingsBody(_Body):
    settings: dict[str, Any] = Field(max_length=MAX_SETTINGS)


class RenameBody(_Body):
    old: Text
    new: Text


def _store(request: Request) -> GameStore:
    return request.app.state.store  # type: ignore[no-any-return]


async def _write(
    request: Request, game_id: int, event: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Commit in a worker thread (fsync must not stall the SSE loop), then broadcast."""
    view, result = await run_in_threadpool(_store(request).append, game_id, event)
    request.app.state.hub.publish(view)
    return view, result


def _hand_result(view: dict[str, Any], result: dict[str, Any] | None, n: int) -> dict[str, Any]:
    return {"n": n, "seq": view["seq"], **(result or {})}


@public
def list_games(request: Request) -> Response:
    return JSONResponse(_store(request).games())


@public
def list_variants() -> Response:
    """The variants' rule data, so the page never keeps its own copy of the rules."""
    body = variants().model_dump(mode="json")
    return JSONResponse(body, headers={"Cache-Control": "max-age=300"})


@public
def get_game(game_id: int, request: Request) -> Response:
    return JSONResponse(_store(request).get(game_id))


async def create_game(body: NewGame, request: Request) -> Response:
    view = await run_in_threadpool(
        _store(request).create, body.variant, body.players, body.settings
    )
    return JSONResponse(view, status_code=201)


async def add_hand(game_id: int, body: HandBody, request: Request) -> Response:
    view, result = await _write(request, game_id, {"type": "hand", "players": body.players})
    return JSONResponse(_hand_result(view, result, len(view["hands"])), status_code=201)


async def correct_hand(game_id: int, n: int, body: HandBody, request: Request) -> Response:
    event = {"type": "correct", "n": n, "players": body.players}
    view, result = await _write(request, game_id, event)
    return JSONResponse(_hand_result(view, result, n))


async def undo_hand(game_id: int, request: Request) -> Response:
    view, _ = await _write(request, game_id, {"type": "undo"})
    return JSONResponse(view)


async def change_settings(game_id: int, body: SettingsBody, request: Request) -> Response:
    view, _ = await _write(request, game_id, {"type": "settings", "settings": body.settings})
    return JSONResponse(view)


async def rename_player(game_id: int, body: RenameBody, request: Request) -> Response:
    view, _ = await _write(request, game_id, {"type": "rename", "old": body.old, "new": body.new})
    return JSONResponse(view)


def preview_hand(game_id: int, body: HandBody, request: Request) -> Response:
    return JSONResponse(_store(request).preview(game_id, body.players))


def register(app: FastAPI) -> None:
    """Add the game routes to `app` (whose route class guards all non-public ones)."""
    add = app.add_api_route
    add("/api/variants", list_variants, methods=["GET"])
    add("/api/games", list_games, methods=["GET"])
    add("/api/games", create_game, methods=["POST"], status_code=201)
    add("/api/games/{game_id}", get_game, methods=["GET"])
    add("/api/games/{game_id}/events", game_events, methods=["GET"])
    add("/api/games/{game_id}/hands", add_hand, methods=["POST"], status_code=201)
    add("/api/games/{game_id}/hands/last", undo_hand, methods=["DELETE"])
    add("/api/games/{game_id}/hands/{n}", correct_hand, methods=["PUT"])
    add("/api/games/{game_id}/preview", preview_hand, methods=["POST"])
    add("/api/games/{game_id}/settings", change_settings, methods=["PUT"])
    add("/api/games/{game_id}/rename", rename_player, methods=["POST"])
