"""The games API. Reads are public; every write needs the admin token (see auth.py).

Bodies are the models of models.py: they give a request its shape, the rules (through the
store) judge what it means. A hand is stored as its event exactly as the phone sent it.
Answers are the store's own dicts, sent as they are (a game's view is built once per
change); `response_model` documents them in /openapi.json.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from scorekeeper.web.auth import public
from scorekeeper.web.deps import SettingsDep, StoreDep, WriterDep
from scorekeeper.web.events import EventStream, game_events
from scorekeeper.web.models import (
    EVENT_STREAM,
    GameSummary,
    GameView,
    HandAnswer,
    HandIn,
    HandScore,
    NewGame,
    RenameIn,
    SettingsIn,
    refusals,
)
from scorekeeper.web.variants import Variants, variants


def _players(body: HandIn) -> list[dict[str, Any]]:
    """The players as sent: a key the phone left out stays out of the stored event."""
    players: list[dict[str, Any]] = body.model_dump(exclude_unset=True)["players"]
    return players


def _hand_result(view: dict[str, Any], result: dict[str, Any] | None, n: int) -> dict[str, Any]:
    return {"n": n, "seq": view["seq"], **(result or {})}


@public
def list_games(store: StoreDep) -> Response:
    return JSONResponse(store.games())


@public
def list_variants() -> Response:
    """The variants' rule data, so the page never keeps its own copy of the rules."""
    body = variants().model_dump(mode="json")
    return JSONResponse(body, headers={"Cache-Control": "max-age=300"})


@public
def get_game(game_id: int, store: StoreDep) -> Response:
    return JSONResponse(store.get(game_id))


async def create_game(body: NewGame, store: StoreDep, settings: SettingsDep) -> Response:
    """A new game; its deck as named (it must exist), else the table's default deck."""
    from scorekeeper.web.decks import check_deck

    deck = body.deck if "deck" in body.model_fields_set else settings.default_deck
    if body.deck is not None:
        deck = check_deck(settings.data_dir, body.deck)
    view = await run_in_threadpool(store.create, body.variant, body.players, body.settings,
                                   deck)
    return JSONResponse(view, status_code=201)


async def add_hand(game_id: int, body: HandIn, writer: WriterDep) -> Response:
    event = {"type": "hand", "players": _players(body)}
    view, result = await writer.write(game_id, event)
    return JSONResponse(_hand_result(view, result, len(view["hands"])), status_code=201)


async def correct_hand(game_id: int, n: int, body: HandIn, writer: WriterDep) -> Response:
    event = {"type": "correct", "n": n, "players": _players(body)}
    view, result = await writer.write(game_id, event)
    return JSONResponse(_hand_result(view, result, n))


async def undo_hand(game_id: int, writer: WriterDep) -> Response:
    view, _ = await writer.write(game_id, {"type": "undo"})
    return JSONResponse(view)


async def change_settings(game_id: int, body: SettingsIn, writer: WriterDep) -> Response:
    view, _ = await writer.write(game_id, {"type": "settings", "settings": body.settings})
    return JSONResponse(view)


async def rename_player(game_id: int, body: RenameIn, writer: WriterDep) -> Response:
    event = {"type": "rename", "old": body.old, "new": body.new}
    view, _ = await writer.write(game_id, event)
    return JSONResponse(view)


def preview_hand(game_id: int, body: HandIn, store: StoreDep) -> Response:
    return JSONResponse(store.preview(game_id, _players(body)))


READ = refusals(422, 503)  # 422: a game id that is not a whole number
WRITE = refusals(404, 409, 413, 422, 503)


def register(app: FastAPI) -> None:
    """Add the game routes to `app` (whose route class guards all non-public ones)."""
    add = app.add_api_route
    add("/api/variants", list_variants, methods=["GET"], response_model=Variants)
    add("/api/games", list_games, methods=["GET"], response_model=list[GameSummary],
        responses=refusals(503))
    add("/api/games", create_game, methods=["POST"], status_code=201, response_model=GameView,
        responses=refusals(404, 413, 422, 503))
    add("/api/games/{game_id}", get_game, methods=["GET"], response_model=GameView,
        responses={**READ, **refusals(404)})
    add("/api/games/{game_id}/events", game_events, methods=["GET"], response_class=EventStream,
        responses={**EVENT_STREAM, **READ, **refusals(404, 429)})
    add("/api/games/{game_id}/hands", add_hand, methods=["POST"], status_code=201,
        response_model=HandAnswer, responses=WRITE)
    add("/api/games/{game_id}/hands/last", undo_hand, methods=["DELETE"],
        response_model=GameView, responses=WRITE)
    add("/api/games/{game_id}/hands/{n}", correct_hand, methods=["PUT"],
        response_model=HandAnswer, responses=WRITE)
    add("/api/games/{game_id}/preview", preview_hand, methods=["POST"],
        response_model=HandScore, responses=WRITE)
    add("/api/games/{game_id}/settings", change_settings, methods=["PUT"],
        response_model=GameView, responses=WRITE)
    add("/api/games/{game_id}/rename", rename_player, methods=["POST"],
        response_model=GameView, responses=WRITE)
