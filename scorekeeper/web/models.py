"""The API's bodies as pydantic models: what each route takes and answers, and its refusals.

The models give the shape (types, required keys, cheap length bounds); the meaning stays
with the rules (`scorekeeper.rules`): a third copy of a card, a hand of the wrong size, a
name the game does not know are refused there, in their words. The length bounds sit far
above what any rule allows, so that a flood stops at its first item while the rules' own
checks still name each variant's limits.

Request models forbid unknown keys and take JSON types as they are (no "5" for 5, no 1 for
true): a request is stored as its event exactly as the client sent it.

Answers are documented here and checked against the real replies by the schema fuzz test
(tests/test_api_fuzz.py); the routes still send their dicts as they are (a game's view is
built once per change by the store). Variant-specific keys are allowed in every answer.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, StrictBool, StrictInt, Tag

from scorekeeper.rules.hand import MAX_HAND
from scorekeeper.web.refusals.codes import CODES, REASONS

MAX_LISTED = 64  # players, cards, melds, hands' worth of items in one request
MAX_TEXT = 200  # a name, a variant (the rules allow 40-character names)
MAX_CODE = 16  # a card code ("10H", "Q♠", " jk "); the rules name a bad one
MAX_SETTINGS = 32  # keys of a settings object (the rules know 11)
DECK_NAME = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$"  # as decks/profile.py names a deck

Text = Annotated[str, Field(max_length=MAX_TEXT)]
GameState = Literal["in_play", "finished", "abandoned", "deleted"]
Ending = Literal["finished", "abandoned", "deleted"]
CardCode = Annotated[str, Field(max_length=MAX_CODE, description="a card code: 7H, 10S, QC, JK")]
Cards = Annotated[list[CardCode], Field(max_length=MAX_LISTED)]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


# ---- refusals -------------------------------------------------------------------------------

class Problem(BaseModel):
    """Every refusal: a stable `code`, the values it names (`params`) and `detail`, the
    message in the language asked for (Accept-Language: en, es, pt-BR, pt-PT; English
    otherwise). A page says it from `code` and `params` in its own words."""

    detail: str = Field(description="the refusal in words, in the language of the request's "
                                    "Accept-Language (Content-Language says which)")
    code: str = Field(description="the kind of refusal, stable across versions and "
                                  "languages; its params: " + "; ".join(
                                      f"{c}: {p or '-'}" for c, p in CODES.items()),
                      json_schema_extra={"enum": list(CODES)})
    params: dict[str, Any] = Field(
        description="what the refusal names, by code (see `code`): player names, card codes "
                    "(10H, KD, JK), numbers, variant ids; `hand` when it is said of a hand, "
                    "`player` of a player; request_invalid and settings_invalid list "
                    "`problems`, each with a `reason`: " + ", ".join(REASONS))
    changes: list[str] | None = Field(None, description="412: what changed since the "
                                      "version the write named, oldest first")
    seq: int | None = Field(None, description="412: the game's version now (its ETag)")
    count: int | None = Field(None, description="knock_hand_size: how many cards it got")
    cards: list[str] | None = Field(None, description="knock_hand_size: the cards it got")


_WHY = {
    400: "The request cannot be read: a broken upload (multipart form), a malformed "
         "Idempotency-Key, or If-Match or Idempotency-Key sent twice",
    401: "The admin token is missing or wrong",
    404: "No such game (or scan)",
    409: "The game is over, deleted (reopen it first) or kept by its table",
    412: "The game has moved on since the version If-Match names: nothing changed; "
         "`changes` says what happened",
    413: "The body or photo is too big",
    414: "The text is too long",
    415: "The upload is not an image",
    422: "The request is refused, the message says why (the rules' own words)",
    429: "Too many requests from this phone; Retry-After says when to try again",
    503: "The database, the camera or the card reader cannot serve it now",
}
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "string"}}}


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses` entries for a route's refusals, each a `Problem`."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        out[code] = {"model": Problem, "description": _WHY[code]}
        if code == 429:
            out[code]["headers"] = _RETRY_AFTER
    return out


_PROBLEM_REF = "#/components/schemas/Problem"
_FASTAPI_422 = "#/components/schemas/HTTPValidationError"


def json_refusals(doc: dict[str, Any]) -> None:
    """Make the OpenAPI document say what errors.py sends, in place: every refusal is a JSON
    `Problem`, whatever a route answers when it succeeds (FastAPI gives a refusal the
    route's media type, a JPEG's for instance), and a 422 is one too (FastAPI's default
    documents a list of pydantic errors, which no reply holds)."""
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            for code, answer in operation.get("responses", {}).items():
                refs = {media.get("schema", {}).get("$ref")
                        for media in answer.get("content", {}).values()}
                if code.startswith("2") or not refs & {_PROBLEM_REF, _FASTAPI_422}:
                    continue
                answer["content"] = {"application/json": {"schema": {"$ref": _PROBLEM_REF}}}
                if _FASTAPI_422 in refs:
                    answer["description"] = _WHY[422]
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas.setdefault("Problem", Problem.model_json_schema())


UNAUTHORIZED: dict[int | str, dict[str, Any]] = {401: {
    "model": Problem, "description": _WHY[401],
    "headers": {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}},
}}


# ---- requests -------------------------------------------------------------------------------

class NewGame(_Request):
    variant: Text = Field(description="chicago, rummy, rummy10 or rummy500 (GET /api/variants)")
    players: list[Text] = Field(max_length=MAX_LISTED, description="the players' names, in "
                                                                   "seating order")
    settings: dict[str, Any] | None = Field(None, max_length=MAX_SETTINGS,
                                            description="the variant's settings; unset ones "
                                                        "take their defaults")
    deck: Annotated[str, Field(pattern=DECK_NAME)] | None = Field(
        None, description="the deck profile its scans read with (GET /api/decks); left out: "
                          "the table's default deck; null: the generic model")
    dealer: Text | None = Field(None, description="who deals the first hand (one of the "
                                                  "players); left out: the first seat")


class LayOff(_Request):
    """Cards laid off on a meld already on the table (`on` names that meld's cards)."""

    cards: Cards
    on: Cards = []


UNION_TAGS = frozenset({"meld", "lay-off"})  # in an error's location; errors.py drops them


def _meld_kind(value: Any) -> str:
    return "lay-off" if isinstance(value, dict | LayOff) else "meld"


Meld = Annotated[
    Annotated[Cards, Tag("meld")] | Annotated[LayOff, Tag("lay-off")],
    Discriminator(_meld_kind),
]


class PlayerHandIn(_Request):
    """One player's part of a hand: the cards (or, typed instead, the points) and the flags.

    The keys are those `scorekeeper.rules.hand.parse_player` reads; it checks what they mean.
    """

    name: Text
    total: StrictInt | None = Field(None, description="kept by the game: the API refuses it "
                                                      "(the score command reads it)")
    hand: Cards = Field([], description="cards left in hand")
    melds: list[Meld] = Field([], max_length=MAX_LISTED,
                              description="melds in front of the player: a list of card codes, "
                                          "or {cards, on} for a lay-off")
    knocked: StrictBool = False
    went_out: StrictBool = False
    rummy: StrictBool = False
    held: StrictInt | None = Field(None, description="points held in hand, typed instead of "
                                                     "the cards (a whole number from 0)")
    melded: StrictInt | None = Field(None, description="Rummy 500: points melded, typed "
                                                       "instead of the cards (from 0)")


class HandIn(_Request):
    players: list[PlayerHandIn] = Field(max_length=MAX_LISTED)


class SettingsIn(_Request):
    settings: dict[str, Any] = Field(max_length=MAX_SETTINGS)


class RenameIn(_Request):
    old: Text
    new: Text


class ScanCamera(_Request):
    """A scan with the table's camera: whose cards (none: the whole table)."""

    player: Text | None = None


class ConfirmedCard(_Request):
    """A card of the scan as the players confirmed it: the reader's card number (its place
    in the scan's `cards`) and what it is."""

    read: StrictInt = Field(ge=0, le=10_000)
    card: CardCode


class ConfirmScan(_Request):
    """The scan's cards after the review: the reader's cards by number, and the cards added
    by hand (no box: the photo shows them, nobody marked where)."""

    cards: list[ConfirmedCard] = Field(max_length=4 * MAX_LISTED)
    added: Cards = Field([], description="cards the players added by hand: stored without a "
                                         "box, counted by the deck's install check")


class AdaptIn(_Request):
    minutes: float = Field(5.0, ge=0.5, le=30, allow_inf_nan=False,
                           description="training time; the check on held-back cards follows")


class EnrolCamera(_Request):
    """An enrolment photo from the table's camera (an empty object)."""


class LearningIn(_Request):
    on: StrictBool = Field(description="whether confirmed scans teach the game's deck")


class KnockCards(_Request):
    """The cards a player tapped in, instead of a photo."""

    player: Text
    cards: list[Annotated[str, Field(max_length=8)]] = Field(max_length=MAX_HAND)


def photo_schema(player: str, *, player_required: bool = False) -> dict[str, Any]:
    """The multipart form of a photo upload: the file `image`, and `player` (`player` says
    what the name is for)."""
    return {"type": "object",
            "properties": {"image": {"type": "string", "format": "binary"},
                           "player": {"type": "string", "description": player}},
            "required": ["image", "player"] if player_required else ["image"]}


def json_or_photo(model: type[BaseModel], photo_form: dict[str, Any]) -> dict[str, Any]:
    """`openapi_extra` for a route that reads either a JSON `model` or a photo upload."""
    return {"requestBody": {"required": True, "content": {
        "application/json": {"schema": model.model_json_schema()},
        "multipart/form-data": {"schema": photo_form},
    }}}


# ---- answers --------------------------------------------------------------------------------

class Standing(_Answer):
    """A player's place in the game; one of the last three keys, by variant."""

    name: str
    total: int
    eliminated: bool
    knock_limit: int | None = Field(None, description="Chicago: null once eliminated")
    hands_left: int | None = Field(None, description="Rummy played for a number of hands")
    to_target: int | None = Field(None, description="points still to the target")


class PlayerScore(_Answer):
    """A player's score for one hand, and the melds the rules found."""

    name: str
    points: int
    total: int
    deadwood: int
    melds: list[list[str]]
    unmelded: list[str]
    eliminated: bool


class HandScore(_Answer):
    """A scored hand, as the rules score it (variants add their own keys)."""

    n: int
    players: list[PlayerScore]
    knock: dict[str, Any] | None
    game_over: bool
    winner: str | None


class HandAnswer(HandScore):
    """A hand just added or corrected: its number and the game's new sequence number."""

    seq: int


class PlayedHand(_Answer):
    n: int
    players: list[dict[str, Any]] = Field(description="the hand as it was entered")
    result: HandScore


class GameView(_Answer):
    """A game as it stands: the replay of its events."""

    id: int
    variant: str
    settings: dict[str, Any]
    players: list[Standing]
    hands: list[PlayedHand]
    game_over: bool
    winner: str | None
    leader: str | None
    deck: str | None = Field(None, description="the deck profile its scans read with")
    created_at: str
    seq: int = Field(description="events so far; the live stream's event id")
    state: GameState = Field("in_play", description="finished: by the rules or the admin")
    ended: Ending | None = Field(None, description="how the admin ended it; null: not ended")
    dealer: str | None = Field(None, description="who deals the next hand; null once over")


class ListedPlayer(_Answer):
    name: str
    total: int
    eliminated: bool


class GameSummary(_Answer):
    """A game in the list, newest first."""

    id: int
    variant: str
    created_at: str
    seq: int
    players: list[ListedPlayer]
    game_over: bool | None
    winner: str | None
    leader: str | None
    state: GameState = "in_play"


class EndIn(_Request):
    """How the admin ends a game the rules have not ended (DELETE /api/games/{id} deletes)."""

    how: Literal["finished", "abandoned"] = Field(
        description="finished: the leader wins now; abandoned: nobody wins")


class DealerIn(_Request):
    """Who deals the next hand; the deal moves left from them, hand by hand."""

    player: Text


class TableGame(_Answer):
    """The game the table plays now, as the admin's page last opened it; null: none yet."""

    game: int | None


class TableIn(_Request):
    game: StrictInt = Field(ge=1)


class CameraHealth(_Answer):
    state: str
    error: str | None


class Health(_Answer):
    """`ok` only when the store reads and can write; `detail` says what is wrong when not."""

    ok: bool
    db: str
    store: dict[str, Any]
    camera: CameraHealth
    detail: str | None = None


class Session(BaseModel):
    admin: bool


class Addresses(BaseModel):
    """Where other phones can open this page: the server's addresses on its networks, as
    URLs (none when it has no network); loopback never, as it leads other phones nowhere."""

    urls: list[str]


class UnreadCard(BaseModel):
    """A card the photo shows but the reader could not read: where it lies (the photo's
    pixels, x1 y1 x2 y2) and the detector's confidence that a card is there."""

    box: list[float] = Field(min_length=4, max_length=4)
    confidence: float
    kind: Literal["card", "index"] = Field(
        "card", description="what was seen: the card's body, or only its corner (an index "
        "no card could be read from)")


class ScanAnswer(_Answer):
    """What a scan read: the cards, how they lie, and the annotated photo's address."""

    player: str | None
    cards: list[dict[str, Any]]
    melds: list[list[str]]
    hand: list[str]
    impossible: list[str]
    image: str
    knock: dict[str, Any] | None
    ms: int
    id: str = Field(description="the scan's id: POST /api/scans/{id}/confirm after the hand")
    deck: str | None = Field(None, description="the deck whose model read it (null: generic)")
    learn: bool = Field(False, description="whether confirming it teaches the game's deck")
    warnings: list[str] = Field([], description="e.g. the game's deck could not be used")
    maybe: list[dict[str, Any]] = Field([], description="cards read under the card threshold "
                                        "where no card was read: offered, never counted")
    sure_line: float | None = Field(None, description="the probability from which a card is "
                                    "shown sure (each card's `sure` says it; `confidence` is "
                                    "its calibrated chance of being right)")
    unread: list[UnreadCard] = Field([], description="cards seen (their whole-card box) where "
                                     "nothing was read or offered: the review asks for them")


class CountAnswer(_Answer):
    """The live count while aiming: the cards read in the frame now, the review would dash
    `unsure` of them, and `unread` more were seen but not read."""

    count: int
    unsure: int
    unread: int = 0
    ms: int = Field(description="the read's own time (a shared camera count: its last read's)")
    source: str = Field(description="camera: the table camera's latest frame; photo: the one sent")
    fresh: bool = Field(description="read for this request; false: the camera's last count, "
                        "shared by the phones aiming it (at most one read a second)")


class LearnAnswer(_Answer):
    """What a confirmed scan taught its deck (`learned` 0 and `why` when nothing)."""

    learned: int
    deck: str | None = None
    why: str | None = None


class DeckRow(_Answer):
    """A deck profile: its examples and its model (`broken` when it cannot be used)."""

    name: str
    examples: int = 0
    learned: int = 0
    adapted: bool = False
    installed: str | None = None
    second: bool = Field(False, description="the generic second classifier reads beside its "
                         "classifier (its check read a second beside it)")
    second_newer: bool = Field(False, description="that second is a newer one than its check "
                               "read (a later release's): improving the deck again checks "
                               "the pair")
    check: dict[str, Any] | None = None
    broken: str | None = None


class DeckList(_Answer):
    decks: list[DeckRow]
    default: str | None
    learn_from_scans: bool
    learned_max: int
    adapt: str | None = Field(description="why this server cannot adapt a deck (null: it can)")
    enrolling: list[str] = Field([], description="decks with an enrolment under way")


class AdaptStatus(_Answer):
    """The background adaptation: `idle` before any, else the last run's state."""

    state: str
    running: bool
    deck: str | None = None
    minutes: float | None = None
    started_at: str | None = None
    progress: float | None = None
    left_s: int | None = None
    message: str | None = Field(None, description="the run's last line, as the trainer "
                                "writes it (English)")
    counts: dict[str, int] | None = Field(None, description="what it learns from: `learn` "
                                          "pictures of the deck's cards, `check` kept aside "
                                          "to test it, `others` of other decks")


class EnrolPhoto(_Answer):
    """One photo of an enrolment as read: `ok` when it has no slip; each place of its sheet
    (`state`: read, missing, absent, swapped, moved, design, or unread when the photo could
    not be read at all); each slip with its `kind` and its `text`."""

    number: int
    sheet: int
    ok: bool
    cards: int
    slips: list[dict[str, Any]]
    notes: list[str]
    places: list[dict[str, Any]]
    image: str = Field(description="the photo with each place marked (admin, JPEG)")


class EnrolDraft(_Answer):
    """An enrolment under way: its photos so far, and whether the deck can be saved."""

    deck: str
    exists: bool = Field(description="whether the deck exists (saving adds to it)")
    photos: list[EnrolPhoto]
    ready: bool
    why: str | None = Field(description="why it cannot be saved yet (null: it can)")
    max_photos: int
    layout: dict[str, Any] = Field(description="the prescribed layout, sheet by sheet")
    photo: EnrolPhoto | None = Field(None, description="the photo just read")


class EnrolSaved(_Answer):
    deck: str
    created: bool
    photos: int
    cards: int
    examples: int
    summary: str


class LearningAnswer(_Answer):
    learn_from_scans: bool


class LearnedDeleted(_Answer):
    """What a deck forgot of what it learned from scans."""

    deck: str
    deleted: int = Field(description="learned examples dropped")


class EnrolDiscarded(_Answer):
    deck: str
    discarded: int = Field(description="photos of the enrolment thrown away")


class KnockAnswer(BaseModel):
    """The verdict for the asking phone: the rules' knock check and the cards it used.

    Only a whole hand gets a verdict: a photo that reads fewer (or more) cards, or sees a
    card it cannot read (`unread`), answers `legal: null` with `count` and `missing`, the
    cards it read, the ones it may have seen (`maybe`) and the photo with them marked, so
    the player retakes it or taps in the rest.
    """

    player: str
    limit: int
    deadwood: int
    legal: bool | None  # None: no verdict (not a whole hand, or cards the decks cannot hold)
    melds: list[list[str]]
    unmelded: list[str] = Field(description="the deadwood cards")
    dropped: str | None
    cards: list[str]
    impossible: list[str] = []
    rummy: bool = Field(default=False, description="no deadwood: the player may go rummy")
    count: int = Field(default=0, description="cards checked (read from the photo, or sent)")
    hand_size: int = Field(default=7, description="a whole hand; 8 with the card just drawn")
    missing: int = Field(default=0,
                         description="cards short of a whole hand (a photo that read fewer)")
    maybe: list[str] = Field(default=[], description="cards the photo may show, read too "
                             "unsure to count: one tap adds each")
    image: str | None = Field(default=None, description="the photo with the cards read "
                              "marked, as a data: URL (sent to this phone only, not kept)")
    unread: list[UnreadCard] = Field(default=[], description="cards the photo shows (their "
                                     "whole-card box) where nothing was read: no verdict while "
                                     "one is, however many cards were read")


JPEG: dict[int | str, dict[str, Any]] = {200: {
    "description": "a JPEG picture",
    "content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}},
}}
EVENT_STREAM: dict[int | str, dict[str, Any]] = {200: {
    "description": "Server-Sent Events: the game's view (as GET /api/games/{id}) on connect "
                   "and after each change, `id` its seq; comments keep the line alive",
    "content": {"text/event-stream": {"schema": {"type": "string"}}},
}}
SVG: dict[int | str, dict[str, Any]] = {200: {
    "description": "an SVG QR code",
    "content": {"image/svg+xml": {"schema": {"type": "string"}}},
}}
HTML: dict[int | str, dict[str, Any]] = {200: {
    "description": "the scoreboard page",
    "content": {"text/html": {"schema": {"type": "string"}}},
}}
