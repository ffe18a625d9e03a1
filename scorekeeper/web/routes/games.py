"""The games API. Reads are public; every write needs the admin token (http/auth.py).

Bodies are the models of models.py: they give a request its shape, the rules (through the
store) judge what it means. A hand is stored as its event exactly as the phone sent it.
Answers are the store's views, checked against their `response_model` on the way out (and
so documented in /openapi.json). A game's seq is its ETag; writes take If-Match and POSTs
Idempotency-Key (http/preconditions.py, judged by the store).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool

from scorekeeper.store.requests import Answer
from scorekeeper.web.deps import SettingsDep, SpellingDep, StoreDep, WriterDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.preconditions import (
    IdempotencyKeyDep,
    IfMatchDep,
    etag,
    expected_seq,
    request_key,
    sent,
)
from scorekeeper.web.models import (
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
from scorekeeper.web.rulesheet import RulesSheet, sheet_of
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


READ = refusals(422, 503)  # 422: a game id that is not a whole number
WRITE = refusals(400, 404, 409, 412, 413, 422, 503)
router = APIRouter(route_class=GuardedRoute)


@router.get("/api/variants", response_model=Variants)
@public
def list_variants(response: Response) -> Variants:
    """The variants' rule data, so the page never keeps its own copy of the rules."""
    response.headers["Cache-Control"] = "max-age=300"
    return variants()


@router.get("/api/games", response_model=list[GameSummary], responses=refusals(503),
            response_model_exclude_unset=True)
@public
def list_games(store: StoreDep) -> list[dict[str, Any]]:
    return store.games()


@router.get("/api/games/{game_id}", response_model=GameView,
            responses={**READ, **refusals(404)},
            response_model_exclude_unset=True)
@public
def get_game(game_id: int, store: StoreDep, response: Response) -> dict[str, Any]:
    """The game, its seq as the ETag a write's If-Match names."""
    view = store.get(game_id)
    response.headers["ETag"] = etag(view["seq"])
    return view


@router.get("/api/games/{game_id}/rules", response_model=RulesSheet,
            responses={**READ, **refusals(404)})
@public
def get_rules_sheet(game_id: int, store: StoreDep) -> RulesSheet:
    """The game's rules explained for its settings, with its last hand (before any: an
    example hand) taken apart card by card as the rules scored it. Public, as the game is."""
    return sheet_of(store.get(game_id))


@router.post("/api/games", status_code=201, response_model=GameView,
             responses=refusals(400, 404, 413, 422, 503),
             response_model_exclude_unset=True)
async def create_game(body: NewGame, request: Request, response: Response, store: StoreDep,
                      settings: SettingsDep, key: IdempotencyKeyDep,
                      spell: SpellingDep) -> dict[str, Any]:
    """A new game; its deck as named (it must exist), else the table's default deck; its
    players as the club spells them, where there is a club (club/spelling.py)."""
    from scorekeeper.web.routes.decks import check_deck

    deck = body.deck if "deck" in body.model_fields_set else settings.default_deck
    if body.deck is not None:
        deck = check_deck(settings.data_dir, body.deck)
    once = request_key(key, request, body)
    players = await run_in_threadpool(spell, body.players)
    written = await run_in_threadpool(lambda: store.create_once(
        body.variant, players, body.settings, deck, once, dealer=body.dealer))
    return sent(written, response)


@router.post("/api/games/{game_id}/hands", status_code=201, response_model=HandAnswer,
             responses=WRITE,
             response_model_exclude_unset=True)
async def add_hand(game_id: int, body: HandIn, request: Request, response: Response,
                   writer: WriterDep, if_match: IfMatchDep,
                   key: IdempotencyKeyDep) -> dict[str, Any]:
    event = {"type": "hand", "players": _players(body)}
    written = await writer.write(game_id, event, _hand_answer(),
                                 expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, body))
    return sent(written, response)


@router.delete("/api/games/{game_id}/hands/last", response_model=GameView, responses=WRITE,
               response_model_exclude_unset=True)
async def undo_hand(game_id: int, response: Response, writer: WriterDep,
                    if_match: IfMatchDep) -> dict[str, Any]:
    written = await writer.write(game_id, {"type": "undo"}, expect_seq=expected_seq(if_match))
    return sent(written, response)


@router.put("/api/games/{game_id}/hands/{n}", response_model=HandAnswer, responses=WRITE,
            response_model_exclude_unset=True)
async def correct_hand(game_id: int, n: int, body: HandIn, request: Request,
                       response: Response, writer: WriterDep, if_match: IfMatchDep,
                       key: IdempotencyKeyDep) -> dict[str, Any]:
    event = {"type": "correct", "n": n, "players": _players(body)}
    written = await writer.write(game_id, event, _hand_answer(n),
                                 expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, body))
    return sent(written, response)


@router.post("/api/games/{game_id}/preview", response_model=HandScore,
             responses=refusals(404, 409, 413, 422, 503),
             response_model_exclude_unset=True)
def preview_hand(game_id: int, body: HandIn, store: StoreDep) -> dict[str, Any]:
    """Scores a hand without keeping it: a repeat answers afresh (an Idempotency-Key is
    accepted and changes nothing)."""
    return store.preview(game_id, _players(body))


@router.put("/api/games/{game_id}/settings", response_model=GameView, responses=WRITE,
            response_model_exclude_unset=True)
async def change_settings(game_id: int, body: SettingsIn, response: Response,
                          writer: WriterDep, if_match: IfMatchDep) -> dict[str, Any]:
    event = {"type": "settings", "settings": body.settings}
    written = await writer.write(game_id, event, expect_seq=expected_seq(if_match))
    return sent(written, response)


@router.post("/api/games/{game_id}/rename", response_model=GameView, responses=WRITE,
             response_model_exclude_unset=True)
async def rename_player(game_id: int, body: RenameIn, request: Request, response: Response,
                        writer: WriterDep, if_match: IfMatchDep,
                        key: IdempotencyKeyDep) -> dict[str, Any]:
    event = {"type": "rename", "old": body.old, "new": body.new}
    written = await writer.write(game_id, event, expect_seq=expected_seq(if_match),
                                 request=request_key(key, request, body))
    return sent(written, response)
