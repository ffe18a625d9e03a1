"""Chicago's private "may I knock?": any player asks from their own phone, before they knock.

The hand is still secret, so the answer goes to the asking phone only: nothing is stored,
broadcast or kept (the photo is dropped once read, and no annotated picture is made
available). It needs no admin token, so it is bounded instead: a few checks a minute per
client, and the same upload caps as a scan (size before reading, pixels before decoding).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from typing import Annotated, Any

from fastapi import FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.hand import MAX_HAND
from scorekeeper.rules.settings import ChicagoSettings
from scorekeeper.web import scan
from scorekeeper.web.auth import public
from scorekeeper.web.limits import is_local

KNOCK_PATH = "/api/games/{game_id}/knock-check"
BODY_LIMITS = {KNOCK_PATH: scan.MAX_UPLOAD + 64 * 1024}  # as a scan: the photo plus framing
PER_MINUTE = 6  # checks per client a minute: a player asks once or twice a hand
WINDOW_S = 60.0
CLIENTS = 1024  # clients remembered; the least recent is forgotten first

Code = Annotated[str, Field(max_length=8)]


class KnockCards(BaseModel):
    """The cards a player tapped in, instead of a photo."""

    model_config = ConfigDict(extra="forbid")
    player: Annotated[str, Field(max_length=200)]
    cards: list[Code] = Field(max_length=MAX_HAND)


class KnockAnswer(BaseModel):
    """The verdict for the asking phone: the rules' knock check and the cards it used."""

    player: str
    limit: int
    deadwood: int
    legal: bool | None  # None: no verdict (no cards read, or cards the decks cannot hold)
    melds: list[list[str]]
    unmelded: list[str]
    dropped: str | None
    cards: list[str]
    impossible: list[str] = []


class RateLimit:
    """At most `per_window` calls per client in any `window_s` seconds (sliding window)."""

    def __init__(self, per_window: int = PER_MINUTE, window_s: float = WINDOW_S,
                 clients: int = CLIENTS) -> None:
        self.per_window = per_window
        self.window_s = window_s
        self.clients = clients
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait_s(self, client: str, now: float | None = None) -> float:
        """0 and the call counted, or how long until this client may call again."""
        now = time.monotonic() if now is None else now
        with self._lock:
            calls = self._seen.pop(client, None) or deque()
            while calls and now - calls[0] >= self.window_s:
                calls.popleft()
            self._seen[client] = calls  # most recent last
            while len(self._seen) > self.clients:
                self._seen.popitem(last=False)
            if len(calls) >= self.per_window:
                return self.window_s - (now - calls[0])
            calls.append(now)
            return 0.0


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _answer(player: str, check: dict[str, Any] | None, cards: list[str],
            impossible: list[str], limit: int) -> KnockAnswer:
    if check is None:
        return KnockAnswer(player=player, limit=limit, deadwood=0, legal=None, melds=[],
                           unmelded=[], dropped=None, cards=cards, impossible=impossible)
    return KnockAnswer(player=check["player"], limit=check["limit"], deadwood=check["deadwood"],
                       legal=check["legal"], melds=check["melds"], unmelded=check["unmelded"],
                       dropped=check["dropped"], cards=cards, impossible=impossible)


async def _from_photo(request: Request, game: Any) -> KnockAnswer | JSONResponse:
    from scorekeeper.vision.reader import VisionError
    from scorekeeper.vision.scan import scan_frame

    form = await request.form()
    upload, player = form.get("image"), form.get("player")
    if upload is None or isinstance(upload, str):
        return scan._error(422, "a photo of the hand goes in the file field 'image'")
    if not isinstance(player, str) or not player:
        return scan._error(422, "say whose hand it is: the field 'player'")
    name = game.player_name(player)
    data = await upload.read()
    frame = await scan._decode_upload(data, upload.filename or "the photo")
    del data, upload  # the photo is not kept a moment longer than the reading needs
    if isinstance(frame, JSONResponse):
        return frame
    try:
        reader = await run_in_threadpool(request.app.state.vision.reader)
    except (VisionError, ImportError, OSError) as exc:
        return scan._error(503, f"card reader unavailable: {exc}")
    result = await run_in_threadpool(scan_frame, frame, reader, game, name)
    del frame
    check = result.knock
    limit = check["limit"] if check else _limit(game, name)
    return _answer(name, check, list(result.hand), list(result.impossible), limit)


def _limit(game: Any, name: str) -> int:
    """The player's limit when no cards gave a check (the verdict is then "no answer")."""
    from scorekeeper.rules import chicago

    total = next(p["total"] for p in game.snapshot()["players"] if p["name"] == name)
    return chicago.knock_limit(total)


async def _from_cards(request: Request, game: Any) -> KnockAnswer | JSONResponse:
    try:
        body = KnockCards.model_validate(await request.json())
    except (ValueError, RecursionError, ValidationError):
        return scan._error(422, "send {\"player\": NAME, \"cards\": [card codes]} or a photo")
    check = game.knock_check(body.player, body.cards)
    return _answer(check["player"], check, list(body.cards), [], check["limit"])


@public
async def knock_check(game_id: int, request: Request) -> Response:
    """May this player knock with this hand? Answered to the asking phone only."""
    wait = request.app.state.knock_limit.wait_s(_client(request)) \
        if not is_local(_client(request)) else 0.0
    if wait > 0:
        return JSONResponse(
            {"detail": f"too many knock checks from this phone: try again in {wait:.0f} s"},
            status_code=429, headers={"Retry-After": str(max(1, round(wait)))})
    game = request.app.state.store.game(game_id)
    if not isinstance(game.settings, ChicagoSettings):
        raise RulesError("the knock check is for Chicago Rummy")
    photo = request.headers.get("content-type", "").startswith("multipart/form-data")
    got = await (_from_photo(request, game) if photo else _from_cards(request, game))
    if isinstance(got, JSONResponse):
        return got
    return JSONResponse(got.model_dump(mode="json"), headers={"Cache-Control": "no-store"})


def register(app: FastAPI) -> None:
    app.state.knock_limit = RateLimit()
    app.add_api_route(KNOCK_PATH, knock_check, methods=["POST"])
