"""The table's decks on the phone: which there are, learning from confirmed scans, and
"Improve this deck" (a background `deck adapt`). Thin: the work is in decks/, learn.py and
adapting.py; a refusal is raised and web/errors.py answers it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Response
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from scorekeeper.decks.profile import NAME, DeckError, decks_root, open_deck
from scorekeeper.web.adapting import Adapter, AdaptRefused, unavailable
from scorekeeper.web.auth import public
from scorekeeper.web.deps import AdapterDep, FramesDep, SettingsDep, VisionDep
from scorekeeper.web.errors import ApiError
from scorekeeper.web.learn import ScanFrames, forget, learn
from scorekeeper.web.models import (
    AdaptIn,
    AdaptStatus,
    ConfirmScan,
    DeckList,
    LearnAnswer,
    Problem,
    refusals,
)

DeckName = Annotated[str, PathParam(max_length=64)]


def deck_rows(data_dir: Path) -> list[dict[str, Any]]:
    """Every deck folder: its figures, or why it cannot be used."""
    from scorekeeper.decks.examples import is_learned

    root = decks_root(data_dir)
    if not root.is_dir():
        return []
    rows: list[dict[str, Any]] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and NAME.fullmatch(p.name)):
        try:
            profile = open_deck(data_dir, folder.name)
            examples = profile.examples()
        except (DeckError, OSError, ValueError) as exc:
            rows.append({"name": folder.name, "broken": str(exc)})
            continue
        cls = profile.manifest.get("classifier")
        cls = cls if isinstance(cls, dict) else {}
        rows.append({"name": profile.name, "examples": len(examples),
                     "learned": sum(is_learned(r) for r in examples),
                     "adapted": bool(cls.get("onnx")), "installed": cls.get("installed"),
                     "check": cls.get("check")})
    return rows


def check_deck(data_dir: Path, name: str) -> str:
    """The name of an existing deck; 404 (or 422 for a name no deck can have) otherwise."""
    try:
        return open_deck(data_dir, name).name
    except DeckError as exc:
        missing = "no deck named" in str(exc)
        names = [r["name"] for r in deck_rows(data_dir) if not r.get("broken")]
        detail = (f"no deck named {name!r}; the decks here: {', '.join(names) or 'none yet'}"
                  if missing else str(exc))
        raise ApiError(404 if missing else 422, detail) from None


@public
def list_decks(settings: SettingsDep, adapter: AdapterDep) -> Response:
    body = {"decks": deck_rows(settings.data_dir), "default": settings.default_deck,
            "learn_from_scans": settings.learn_from_scans,
            "learned_max": settings.learned_max, "adapt": unavailable(adapter.models)}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def confirm_scan(key: Annotated[str, PathParam(max_length=64)], body: ConfirmScan,
                       settings: SettingsDep, vision: VisionDep, frames: FramesDep) -> Response:
    """The hand with this scan's cards was saved: learn the deck from them."""
    from scorekeeper.rules.cards import parse_card
    from scorekeeper.web.scan import reader_of

    if not settings.learn_from_scans:
        return JSONResponse({"learned": 0, "why": "learning from scans is off (the table's "
                                                  "learn_from_scans setting)"})
    scan = frames.get(key)
    if scan is None:
        raise ApiError(404, f"no scan {key[:40]} waiting to be learned from (only scans of a "
                            "game with a deck are kept, each until it is confirmed, and only "
                            "the last few)")
    confirmed = []
    for k, c in enumerate(body.cards, start=1):
        if c.read >= len(scan.cards):
            raise ApiError(422, f"cards.{k}: the scan read {len(scan.cards)} cards; there is "
                                f"no card {c.read}")
        confirmed.append((c.read, str(parse_card(c.card))))
    if len({n for n, _ in confirmed}) < len(confirmed):
        raise ApiError(422, "cards: a card of the scan is confirmed twice")
    if frames.take(key) is None:  # confirmed meanwhile by another request
        raise ApiError(404, f"scan {key[:40]} was learned from already")
    if not confirmed:
        return JSONResponse({"learned": 0, "deck": scan.deck, "why": "no read card confirmed"})
    reader = await reader_of(vision)
    try:
        answer = await run_in_threadpool(learn, settings.data_dir, reader, scan, key,
                                         confirmed, settings.learned_max)
    except DeckError as exc:
        return JSONResponse({"learned": 0, "deck": scan.deck, "why": str(exc)})
    return JSONResponse(answer)


async def delete_learned(name: DeckName, settings: SettingsDep) -> Response:
    name = check_deck(settings.data_dir, name)
    dropped = await run_in_threadpool(forget, settings.data_dir, name)
    return JSONResponse({"deck": name, "deleted": dropped})


def _refused(exc: AdaptRefused) -> ApiError:
    return ApiError(exc.status, exc.detail)


async def start_adapt(name: DeckName, body: AdaptIn, settings: SettingsDep,
                      adapter: AdapterDep) -> Response:
    name = check_deck(settings.data_dir, name)
    try:
        view = await run_in_threadpool(adapter.start, name, body.minutes)
    except AdaptRefused as exc:
        raise _refused(exc) from None
    return JSONResponse(view, status_code=202)


def adapt_status(adapter: AdapterDep) -> Response:
    return JSONResponse(adapter.status(), headers={"Cache-Control": "no-store"})


def cancel_adapt(adapter: AdapterDep) -> Response:
    try:
        return JSONResponse(adapter.cancel())
    except AdaptRefused as exc:
        raise _refused(exc) from None


BUSY: dict[int | str, dict[str, Any]] = {
    409: {"model": Problem, "description": "A deck is being adapted already (or none is, "
                                           "to cancel)"},
    503: {"model": Problem, "description": "This server cannot adapt (no training extra)"},
}


def register(app: FastAPI, adapter: Adapter) -> None:
    app.state.adapter = adapter
    app.state.scan_frames = ScanFrames()
    add = app.add_api_route
    add("/api/decks", list_decks, methods=["GET"], response_model=DeckList)
    add("/api/scans/{key}/confirm", confirm_scan, methods=["POST"], response_model=LearnAnswer,
        responses=refusals(404, 413, 422, 503))
    add("/api/decks/adapt", adapt_status, methods=["GET"], response_model=AdaptStatus)
    add("/api/decks/adapt", cancel_adapt, methods=["DELETE"], response_model=AdaptStatus,
        responses={409: BUSY[409]})
    add("/api/decks/{name}/adapt", start_adapt, methods=["POST"], status_code=202,
        response_model=AdaptStatus, responses={**refusals(404, 413, 422), **BUSY})
    add("/api/decks/{name}/learned", delete_learned, methods=["DELETE"],
        responses=refusals(404, 422, 503))
