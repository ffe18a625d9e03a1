"""Chicago's private "may I knock?": any player asks from their own phone, before they knock.

Only a whole hand gets a verdict (7 cards, or 8 with the card just drawn): cards sent that
are not one are refused (422, naming how many and which); a photo that reads fewer, or sees
a card it cannot read (`unread`: 7 read and one unread may be an 8-card hand), answers with
what it read, marked on the photo, and no verdict.

The hand is still secret, so the answer goes to the asking phone only: nothing is stored,
broadcast or kept (the photo is dropped once read, and no annotated picture is made
available). It needs no admin token, so it is bounded instead: a few checks a minute per
client (the admin's phone, checking each player's knock in the hand form, is not capped),
and the same upload caps as a scan (size before reading, pixels before decoding).
"""

from __future__ import annotations

import base64
from typing import Any

from fastapi import APIRouter, Request, Response

from scorekeeper.scanning import ScanService
from scorekeeper.web.deps import (
    AdminDep,
    ClientDep,
    KnockLimitDep,
    PhotosDep,
    ScannerDep,
    StoreDep,
)
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.decodes import DecodeGate
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.limits import PER_MINUTE, RateLimit, is_local
from scorekeeper.web.models import (
    KnockAnswer,
    KnockCards,
    UnreadCard,
    json_or_photo,
    photo_schema,
    refusals,
)
from scorekeeper.web.scanner import scanning
from scorekeeper.web.uploads import UPLOAD_BODY, decode_upload, is_upload, json_body, photo_form

KNOCK_PATH = "/api/games/{game_id}/knock-check"
BODY_LIMITS = {KNOCK_PATH: UPLOAD_BODY}  # as a scan: the photo plus framing
KNOCK_FORM = photo_schema("whose hand it is", player_required=True)


def _answer(player: str, check: dict[str, Any] | None, cards: list[str],
            impossible: list[str], limit: int, hand_size: int) -> KnockAnswer:
    count = len(cards)
    if check is None:
        return KnockAnswer(player=player, limit=limit, deadwood=0, legal=None, melds=[],
                           unmelded=[], dropped=None, cards=cards, impossible=impossible,
                           count=count, hand_size=hand_size,
                           missing=max(0, hand_size - count))
    return KnockAnswer(player=check["player"], limit=check["limit"], deadwood=check["deadwood"],
                       legal=check["legal"], melds=check["melds"], unmelded=check["unmelded"],
                       dropped=check["dropped"], cards=cards, impossible=impossible,
                       rummy=check["rummy"], count=count, hand_size=hand_size)


async def _from_photo(request: Request, game: Any, scanner: ScanService, photos: DecodeGate,
                      deck: str | None) -> KnockAnswer:
    upload, player = await photo_form(
        request, "a photo of the hand goes in the file field 'image'")
    if player is None:
        raise ApiError(422, "say whose hand it is: the field 'player'",
                       code="knock_player_missing")
    name = game.player_name(player)
    async with decode_upload(photos, upload, upload.filename or "the photo", request) as photo:
        # the photo is not kept a moment longer than the reading needs
        read = await scanning(scanner.knock, photo.frame, game, name, deck)
        del photo
    answer = _answer(read.player, read.check, read.cards, read.impossible, read.limit,
                     _hand_size(game))
    answer.maybe = read.maybe
    answer.unread = [UnreadCard.model_validate(u) for u in read.unread]
    answer.image = ("data:image/jpeg;base64," + base64.b64encode(read.preview).decode()
                    if read.preview else None)
    return answer


async def _from_cards(request: Request, game: Any) -> KnockAnswer:
    body = await json_body(request, KnockCards,
                           "send {\"player\": NAME, \"cards\": [card codes]} or a photo")
    check = game.knock_check(body.player, body.cards)
    return _answer(check["player"], check, list(body.cards), [], check["limit"],
                   _hand_size(game))


def _hand_size(game: Any) -> int:
    """A whole hand of the game's variant (the knocker may show one more)."""
    size: int = game.rules.hand.cards
    return size


router = APIRouter(route_class=GuardedRoute)


@router.post(KNOCK_PATH, response_model=KnockAnswer,
             responses=refusals(400, 404, 413, 415, 422, 429, 503),
             openapi_extra=json_or_photo(KnockCards, KNOCK_FORM))
@public
async def knock_check(game_id: int, request: Request, response: Response, store: StoreDep,
                      scanner: ScannerDep, limits: KnockLimitDep, client: ClientDep,
                      admin: AdminDep, photos: PhotosDep) -> KnockAnswer:
    """May this player knock with this hand? Answered to the asking phone only."""
    client = client or "unknown"
    # the admin's phone checks each player's knock while entering hands: not capped
    wait = 0.0 if is_local(client) or admin else limits.wait_s(client)
    if wait > 0:
        raise ApiError(429, f"too many knock checks from this phone: try again in {wait:.0f} s",
                       {"Retry-After": str(max(1, round(wait)))}, code="knock_too_often",
                       wait=max(1, round(wait)))
    game = store.game(game_id)
    game.knock()  # a variant without a knock is refused before any photo is read
    if is_upload(request):
        answer = await _from_photo(request, game, scanner, photos,
                                   store.get(game_id).get("deck"))
    else:
        answer = await _from_cards(request, game)
    response.headers["Cache-Control"] = "no-store"
    return answer


__all__ = ["BODY_LIMITS", "KNOCK_PATH", "PER_MINUTE", "RateLimit", "knock_check", "router"]
