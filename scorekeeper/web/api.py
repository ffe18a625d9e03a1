"""The games API. Reads are public; every write needs the admin token (see auth.py).

Bodies are the models of models.py: they give a request its shape, the rules (through the
store) judge what it means. A hand is stored as its event exactly as the phone sent it.
Answers are the store's own dicts, sent as they are (a game's view is built once per
change); `response_model` documents them in /openapi.json. A game's seq is its ETag; writes
take If-Match and POSTs Idempotency-Key (web/preconditions.py, judged by the store).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from scorekeeper.store import Written
from scorekeeper.store.requests import Answer
from scorekeeper.web.auth import public
from scorekeeper.web.club_roster import SpellingDep
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
from scorekeeper.web.preconditions import (
    REPLAYED,
    IdempotencyKeyDep,
    IfMatchDep,
    etag,
    expected_seq,
    request_key,
)
from scorekeeper.web.variants import Variants, variants


def _players(body: HandIn) -> list[dict[str, Any]]:
    """The players as sent: a key the phone left out stays out of the stored event."""
    players: list[dict[str, Any]] = body.model_dump(exclude_unset=True)["players"]
    return players


def _hand_answer(n: int | None = None) -> Answer:
    """A hand's answer: its number (the one corrected, else the game's last) and new seq."""
    def answer(view: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
        return {"n": len(view["hands"]) if n is None else n, "seq": view["seq"],
                **(result or {})}
    return answer


def _view(view: dict[str, Any], _: dict[str, Any] | None) -> dict[str, Any]:
    return view


def _sent(written: Written, status: int = 200) -> Response:
    """The answer with the game's new ETag; a repeated request's says it is a repeat."""
    headers = {"ETag": etag(written.view["seq"])}
    if written.replayed:
        headers[REPLAYED] = "true"
    return JSONResponse(written.answer, status_code=status, headers=headers)


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
    """The game, its seq as the ETag a write's If-Match names."""
    view = store.get(game_id)
    return JSONResponse(view, headers={"ETag": etag(view["seq"])})


async def create_game(body: NewGame, request: Request, store: StoreDep, settings: SettingsDep,
                      key: IdempotencyKeyDep, spell: SpellingDep) -> Response:
    """A new game; its deck as named (it must exist), else the table's default deck; its
    players as the club spells them, where there is a club (club/spelling.py)."""
    from scorekeeper.web.decks import check_deck

    deck = body.deck if "deck" in body.model_fields_set else settings.default_deck
    if body.deck is not None:
        deck = check_deck(settings.data_dir, body.deck)
    once = request_key(key, request, body)
    players = await run_in_threadpool(spell, body.players)
    written = await run_in_threadpool(store.create_once, body.variant, players,
                                      body.settings, deck, once)
    return _sent(written, 201)


async def add_hand(game_id: int, body: HandIn, request: Request, writer: WriterDep,
                   if_match: IfMatchDep, key: IdempotencyKeyDep) -> Response:
    event = {"type": "hand", "players": _players(body)}
    written = await writer.write(game_id, event, _hand_answer(),
                                 expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, body))
    return _sent(written, 201)


async def correct_hand(game_id: int, n: int, body: HandIn, writer: WriterDep,
                       if_match: IfMatchDep) -> Response:
    event = {"type": "correct", "n": n, "players": _players(body)}
    written = await writer.write(game_id, event, _hand_answer(n),
                                 expect_seq=expected_seq(if_match))
    return _sent(written)


async def undo_hand(game_id: int, writer: WriterDep, if_match: IfMatchDep) -> Response:
    written = await writer.write(game_id, {"type": "undo"}, _view,
                                 expect_seq=expected_seq(if_match))
    return _sent(written)


async def change_settings(game_id: int, body: SettingsIn, writer: WriterDep,
                          if_match: IfMatchDep) -> Response:
    event = {"type": "settings", "settings": body.settings}
    return _sent(await writer.write(game_id, event, _view, expect_seq=expected_seq(if_match)))


async def rename_player(game_id: int, body: RenameIn, request: Request, writer: WriterDep,
                        if_match: IfMatchDep, key: IdempotencyKeyDep) -> Response:
    event = {"type": "rename", "old": body.old, "new": body.new}
    written = await writer.write(game_id, event, _view, expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, body))
    return _sent(written)


def preview_hand(game_id: int, body: HandIn, store: StoreDep) -> Response:
    """Scores a hand without keeping it: a repeat answers afresh (an Idempotency-Key is
    accepted and changes nothing)."""
    return JSONResponse(store.preview(game_id, _players(body)))


READ = refusals(422, 503)  # 422: a game id that is not a whole number
WRITE = refusals(400, 404, 409, 412, 413, 422, 503)


def register(app: FastAPI) -> None:
    """Add the game routes to `app` (whose route class guards all non-public ones)."""
    add = app.add_api_route
    add("/api/variants", list_variants, methods=["GET"], response_model=Variants)
    add("/api/games", list_games, methods=["GET"], response_model=list[GameSummary],
        responses=refusals(503))
    add("/api/games", create_game, methods=["POST"], status_code=201, response_model=GameView,
        responses=refusals(400, 404, 413, 422, 503))
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
        response_model=HandScore, responses=refusals(404, 409, 413, 422, 503))
    add("/api/games/{game_id}/settings", change_settings, methods=["PUT"],
        response_model=GameView, responses=WRITE)
    add("/api/games/{game_id}/rename", rename_player, methods=["POST"],
        response_model=GameView, responses=WRITE)
