"""The table's decks on the phone: which there are, enrolling one from photos of the
prescribed layout, learning from confirmed scans (and the admin's switch for it), and
"Improve this deck" (a background `deck adapt`). Thin: the work is in decks/ (enrolling,
learn, adapting); a refusal is raised and http/errors.py answers it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool

from scorekeeper.decks import enrolling
from scorekeeper.decks.adapting import AdaptRefused, unavailable
from scorekeeper.decks.enrol import MAX_PHOTOS
from scorekeeper.decks.learn import (
    forget,
    learn,
    set_learning,
    write_lock,
)
from scorekeeper.decks.profile import NAME, DeckError, check_name, decks_root, open_deck
from scorekeeper.scanning import ScanService
from scorekeeper.web.deps import AdapterDep, FramesDep, PhotosDep, ScannerDep, SettingsDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.http.decodes import DecodeGate, frame_cost
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.models import (
    JPEG,
    AdaptIn,
    AdaptStatus,
    ConfirmScan,
    DeckList,
    EnrolCamera,
    EnrolDiscarded,
    EnrolDraft,
    EnrolSaved,
    LearnAnswer,
    LearnedDeleted,
    LearningAnswer,
    LearningIn,
    Problem,
    json_or_photo,
    refusals,
)
from scorekeeper.web.scanner import scanning
from scorekeeper.web.uploads import (
    UPLOAD_BODY,
    Jpeg,
    decode_upload,
    is_upload,
    json_body,
    photo_form,
)

DeckName = Annotated[str, PathParam(max_length=64)]
PhotoNumber = Annotated[int, PathParam(ge=1, le=MAX_PHOTOS)]
ENROL_PHOTO = "/api/decks/{name}/enrol/photos/{number}"
BODY_LIMITS = {ENROL_PHOTO: UPLOAD_BODY}  # the photo and the multipart framing

BUSY: dict[int | str, dict[str, Any]] = {
    409: {"model": Problem, "description": "A deck is being adapted already (or none is, "
                                           "to cancel)"},
    503: {"model": Problem, "description": "This server cannot adapt (the lab is not installed)"},
}
ENROL: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "No such enrolment (or photo of it)"},
    409: {"model": Problem, "description": "The enrolment cannot be saved yet: a photo is "
                                           "missing or has a slip"},
}


def _photo_form() -> dict[str, Any]:
    return {"type": "object", "required": ["image"],
            "properties": {"image": {"type": "string", "format": "binary",
                                     "description": "photo NUMBER of the layout"}}}


router = APIRouter(route_class=GuardedRoute)


def deck_rows(data_dir: Path, models: Path | None = None) -> list[dict[str, Any]]:
    """Every deck folder: its figures, or why it cannot be used; with `models`, whether
    the generic second classifier reads beside each deck's classifier."""
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
        state = profile.second_state(models) if models is not None else None
        rows.append({"name": profile.name, "examples": len(examples),
                     "learned": sum(is_learned(r) for r in examples),
                     "adapted": bool(cls.get("onnx")), "installed": cls.get("installed"),
                     "second": state in ("checked", "newer"), "second_newer": state == "newer",
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
        raise ApiError(404 if missing else 422, detail,
                       code="deck_unknown" if missing else "deck_name_invalid",
                       params={"name": name, "decks": names} if missing else None) from None


@router.get("/api/decks", response_model=DeckList,
            response_model_exclude_unset=True)
@public
def list_decks(settings: SettingsDep, adapter: AdapterDep, response: Response) -> dict[str, Any]:
    response.headers["Cache-Control"] = "no-store"
    return {"decks": deck_rows(settings.data_dir, adapter.models), "default": settings.default_deck,
            "learn_from_scans": settings.learn_from_scans,
            "learned_max": settings.learned_max, "adapt": unavailable(adapter.models),
            "enrolling": enrolling.drafts(settings.data_dir)}


@router.post("/api/scans/{key}/confirm", response_model=LearnAnswer,
             responses=refusals(404, 413, 422, 503),
             response_model_exclude_unset=True)
async def confirm_scan(key: Annotated[str, PathParam(max_length=64)], body: ConfirmScan,
                       settings: SettingsDep, scanner: ScannerDep,
                       frames: FramesDep) -> dict[str, Any]:
    """The hand with this scan's cards was saved: learn the deck from them."""
    from scorekeeper.rules.cards import parse_card

    if not settings.learn_from_scans:
        return {"learned": 0, "why": "learning from scans is off (the table's "
                                     "learn_from_scans setting)"}
    scan = frames.get(key)
    if scan is None:
        raise ApiError(404, f"no scan {key[:40]} waiting to be learned from (only scans of a "
                            "game with a deck are kept, each until it is confirmed, and only "
                            "the last few)", code="scan_unknown")
    confirmed = []
    for k, c in enumerate(body.cards, start=1):
        if c.read >= len(scan.cards):
            raise ApiError(422, f"cards.{k}: the scan read {len(scan.cards)} cards; there is "
                                f"no card {c.read}", code="scan_card_missing",
                           read=c.read, count=len(scan.cards))
        confirmed.append((c.read, str(parse_card(c.card))))
    if len({n for n, _ in confirmed}) < len(confirmed):
        raise ApiError(422, "cards: a card of the scan is confirmed twice",
                       code="scan_card_twice")
    added = [str(parse_card(c)) for c in body.added]
    if frames.take(key) is None:  # confirmed meanwhile by another request
        raise ApiError(404, f"scan {key[:40]} was learned from already", code="scan_learned")
    if not confirmed:
        return {"learned": 0, "deck": scan.deck, "why": "no read card confirmed"}
    reader = await scanning(scanner.reader)
    try:
        answer = await run_in_threadpool(learn, settings.data_dir, reader, scan, key,
                                         confirmed, settings.learned_max, added)
    except DeckError as exc:
        return {"learned": 0, "deck": scan.deck, "why": str(exc)}
    return answer


@router.delete("/api/decks/{name}/learned", response_model=LearnedDeleted,
               responses=refusals(404, 422, 503))
async def delete_learned(name: DeckName, settings: SettingsDep) -> LearnedDeleted:
    name = check_deck(settings.data_dir, name)
    dropped = await run_in_threadpool(forget, settings.data_dir, name)
    return LearnedDeleted(deck=name, deleted=dropped)


def _refused(exc: AdaptRefused) -> ApiError:
    return ApiError(exc.status, exc.detail, code=exc.code, params=exc.params)


@router.post("/api/decks/{name}/adapt", status_code=202, response_model=AdaptStatus,
             responses={**refusals(404, 413, 422), **BUSY},
             response_model_exclude_unset=True)
async def start_adapt(name: DeckName, body: AdaptIn, settings: SettingsDep,
                      adapter: AdapterDep) -> dict[str, Any]:
    name = check_deck(settings.data_dir, name)
    try:
        view = await run_in_threadpool(adapter.start, name, body.minutes)
    except AdaptRefused as exc:
        raise _refused(exc) from None
    return view


@router.get("/api/decks/adapt", response_model=AdaptStatus,
            response_model_exclude_unset=True)
def adapt_status(adapter: AdapterDep, response: Response) -> dict[str, Any]:
    response.headers["Cache-Control"] = "no-store"
    return adapter.status()


@router.delete("/api/decks/adapt", response_model=AdaptStatus, responses={409: BUSY[409]},
               response_model_exclude_unset=True)
def cancel_adapt(adapter: AdapterDep) -> dict[str, Any]:
    try:
        return adapter.cancel()
    except AdaptRefused as exc:
        raise _refused(exc) from None


@router.put("/api/decks/learning", response_model=LearningAnswer,
            responses=refusals(413, 422, 503))
async def set_learning_route(body: LearningIn, settings: SettingsDep) -> LearningAnswer:
    """The admin's switch for learning from play; kept for the next start."""
    on = await run_in_threadpool(set_learning, settings, body.on)
    return LearningAnswer(learn_from_scans=on)


# ---- enrolling a deck from the phone --------------------------------------------------------

def _enrol_name(name: str) -> str:
    """A name a deck can have (it need not exist yet); 422 otherwise."""
    try:
        return check_name(name)
    except DeckError as exc:
        raise ApiError(422, str(exc), code="deck_name_invalid") from None


def _enrol_refused(exc: enrolling.EnrolRefused) -> ApiError:
    return ApiError(exc.status, exc.detail, code=exc.code, params=exc.params)


@router.get("/api/decks/{name}/enrol", response_model=EnrolDraft, responses=refusals(422, 503),
            response_model_exclude_unset=True)
async def enrol_draft(name: DeckName, settings: SettingsDep,
                      response: Response) -> dict[str, Any]:
    name = _enrol_name(name)
    response.headers["Cache-Control"] = "no-store"
    return await run_in_threadpool(enrolling.draft, settings.data_dir, name)


@asynccontextmanager
async def _enrol_frame(request: Request, scanner: ScanService, photos: DecodeGate
                       ) -> AsyncIterator[tuple[Any, bytes | None, str]]:
    """The photo, held within the decode gate while the block reads it: an upload (its
    bytes kept as sent, unless it was decoded smaller: then the frame is kept, so that the
    reading's places are the kept photo's) or the table camera's frame."""
    if is_upload(request):
        upload, _ = await photo_form(request, "an enrolment photo needs the file field 'image'")
        async with decode_upload(photos, upload, upload.filename or "the upload",
                                 request) as photo:
            kept = photo.data if photo.reduce == 1 else None
            yield photo.frame, kept, photo.size.format if kept else "jpg"
        return
    await json_body(request, EnrolCamera, "send {} for the table camera, or a photo as 'image'")
    frame = await scanning(scanner.capture)
    async with photos.hold(frame_cost(frame.shape[1], frame.shape[0])):
        yield frame, None, "jpg"


@router.post(ENROL_PHOTO, response_model=EnrolDraft, responses=refusals(400, 413, 415, 422, 503),
             openapi_extra=json_or_photo(EnrolCamera, _photo_form()),
             response_model_exclude_unset=True)
async def enrol_photo(name: DeckName, number: PhotoNumber, request: Request,
                      settings: SettingsDep, scanner: ScannerDep,
                      photos: PhotosDep) -> dict[str, Any]:
    """Read photo `number` of the layout with `deck enrol`'s checks and keep it in the
    draft; the answer names every slip, so the photo can be taken again."""
    name = _enrol_name(name)
    async with _enrol_frame(request, scanner, photos) as (frame, data, ext):
        reader = await scanning(scanner.reader)
        view: dict[str, Any] = await run_in_threadpool(
            enrolling.read_page, settings.data_dir, name, number, frame, reader, data, ext)
        del frame, data
    return view


@router.get(ENROL_PHOTO + ".jpg", response_class=Jpeg,
            responses={**JPEG, 404: ENROL[404], **refusals(422)})
async def enrol_marked(name: DeckName, number: PhotoNumber, settings: SettingsDep) -> Response:
    name = _enrol_name(name)
    try:
        jpeg = await run_in_threadpool(enrolling.marked_photo, settings.data_dir, name, number)
    except enrolling.EnrolRefused as exc:
        raise _enrol_refused(exc) from None
    return Jpeg(jpeg, headers={"Cache-Control": "no-store"})


@router.post("/api/decks/{name}/enrol/save", status_code=201, response_model=EnrolSaved,
             responses={**ENROL, **refusals(422, 503)},
             response_model_exclude_unset=True)
async def enrol_save(name: DeckName, settings: SettingsDep) -> dict[str, Any]:
    """Store the draft's examples in the deck, as `scorekeeper deck enrol` does."""
    name = _enrol_name(name)
    try:
        saved = await run_in_threadpool(enrolling.save, settings.data_dir, name, write_lock)
    except enrolling.EnrolRefused as exc:
        raise _enrol_refused(exc) from None
    return saved


@router.delete("/api/decks/{name}/enrol", response_model=EnrolDiscarded,
               responses=refusals(422, 503))
async def enrol_discard(name: DeckName, settings: SettingsDep) -> EnrolDiscarded:
    name = _enrol_name(name)
    photos = await run_in_threadpool(enrolling.discard, settings.data_dir, name)
    return EnrolDiscarded(deck=name, discarded=photos)


