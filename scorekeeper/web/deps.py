"""What a route needs, as `Annotated` dependencies: each part of the app is found here only.

A route names what it uses (`store: StoreDep`) instead of reaching into the app; a test swaps
a part with `app.dependency_overrides[deps.get_vision] = ...`. The parts are made once, by
`create_app` (web/app.py), and kept typed in one `AppState` (web/state.py) for these to hand
out. The providers are `async` so that FastAPI calls them on the event loop, not in a worker
thread (the pool is kept for fsync, decoding and the card reader).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from scorekeeper.camera import CameraSupervisor
from scorekeeper.club.forwarder import Forwarder
from scorekeeper.club.league import League
from scorekeeper.club.roster import Roster
from scorekeeper.club.spelling import Spelling
from scorekeeper.club.sync import ClubSync
from scorekeeper.club.tables import ClubTable, Tables
from scorekeeper.decks.adapting import Adapter
from scorekeeper.decks.learn import ScanFrames
from scorekeeper.scanning import ScanImages, ScanService, Vision
from scorekeeper.scanning.counts import CameraCounts
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.http.auth import is_admin
from scorekeeper.web.http.decodes import DecodeGate
from scorekeeper.web.http.errors import ApiError
from scorekeeper.web.http.limits import RateLimit
from scorekeeper.web.live.club_feed import ClubFeed
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.live.writes import GameWriter
from scorekeeper.web.qr import QrCodes
from scorekeeper.web.state import AppState, ClubServer, parts


async def get_parts(request: Request) -> AppState:
    return parts(request.app)


async def get_store(request: Request) -> GameStore:
    return parts(request.app).store


async def get_hub(request: Request) -> Hub:
    return parts(request.app).hub


async def get_writer(request: Request) -> GameWriter:
    """The game API's one way to write a game (web/live/writes.py); on a club server it
    refuses the games its tables forwarded."""
    app = parts(request.app)
    return GameWriter(app.store, app.hub, app.club.owner if app.club else None)


async def get_camera(request: Request) -> CameraSupervisor:
    return parts(request.app).camera


async def get_settings(request: Request) -> Settings:
    return parts(request.app).settings


async def get_vision(request: Request) -> Vision:
    return parts(request.app).vision


async def get_scans(request: Request) -> ScanImages:
    return parts(request.app).scans


async def get_scan_frames(request: Request) -> ScanFrames:
    return parts(request.app).scan_frames


async def get_adapter(request: Request) -> Adapter:
    return parts(request.app).adapter


async def get_qr_codes(request: Request) -> QrCodes:
    return parts(request.app).qr_codes


async def get_knock_limit(request: Request) -> RateLimit:
    return parts(request.app).knock_limit


async def get_photos(request: Request) -> DecodeGate:
    return parts(request.app).photos


async def get_counts(request: Request) -> CameraCounts:
    return parts(request.app).counts


async def get_forwarder(request: Request) -> Forwarder | None:
    """The table's forwarder in club mode, else None (for the health check)."""
    return parts(request.app).forwarder


async def get_roster(request: Request) -> Roster | None:
    """A table's copy of its club's players, in club mode; None otherwise."""
    return parts(request.app).roster


async def get_spelling(request: Request) -> Spelling:
    """How a new game's names are spelled here: as the club's players, on a club server and
    on a table in club mode (club/spelling.py); as typed otherwise."""
    return parts(request.app).spelling


async def get_club(request: Request) -> ClubServer:
    """The club server's parts; a route only a club server has asks for them."""
    club = parts(request.app).club
    if club is None:
        raise ApiError(404, "this scorekeeper is not a club server", code="not_club")
    return club


async def get_club_or_none(request: Request) -> ClubServer | None:
    return parts(request.app).club


async def get_sync(request: Request) -> ClubSync:
    return (await get_club(request)).sync


async def get_tables(request: Request) -> Tables:
    return (await get_club(request)).tables


async def get_league(request: Request) -> League:
    return (await get_club(request)).league


async def get_feed(request: Request) -> ClubFeed:
    return (await get_club(request)).feed


async def get_table(request: Request) -> ClubTable:
    """The table whose token the request carries (set by http/auth.py's table guard)."""
    table: ClubTable = request.state.club_table
    return table


async def get_admin(request: Request) -> bool:
    """Whether the request carries the admin token (routes are guarded by http/auth.py;
    this is for a public route that answers differently to the admin)."""
    return is_admin(request)


async def get_client(request: Request) -> str:
    """The client's address, for per-client caps ("" when the server cannot tell)."""
    return request.client.host if request.client else ""


PartsDep = Annotated[AppState, Depends(get_parts)]
StoreDep = Annotated[GameStore, Depends(get_store)]
HubDep = Annotated[Hub, Depends(get_hub)]
WriterDep = Annotated[GameWriter, Depends(get_writer)]
CameraDep = Annotated[CameraSupervisor, Depends(get_camera)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
VisionDep = Annotated[Vision, Depends(get_vision)]
ScansDep = Annotated[ScanImages, Depends(get_scans)]
FramesDep = Annotated[ScanFrames, Depends(get_scan_frames)]
AdapterDep = Annotated[Adapter, Depends(get_adapter)]
QrCodesDep = Annotated[QrCodes, Depends(get_qr_codes)]
KnockLimitDep = Annotated[RateLimit, Depends(get_knock_limit)]
PhotosDep = Annotated[DecodeGate, Depends(get_photos)]
CountsDep = Annotated[CameraCounts, Depends(get_counts)]
ForwarderDep = Annotated["Forwarder | None", Depends(get_forwarder)]
RosterDep = Annotated["Roster | None", Depends(get_roster)]
SpellingDep = Annotated[Spelling, Depends(get_spelling)]
ClubDep = Annotated[ClubServer, Depends(get_club)]
ClubOrNoneDep = Annotated["ClubServer | None", Depends(get_club_or_none)]
SyncDep = Annotated[ClubSync, Depends(get_sync)]
TablesDep = Annotated[Tables, Depends(get_tables)]
LeagueDep = Annotated[League, Depends(get_league)]
FeedDep = Annotated[ClubFeed, Depends(get_feed)]
TableDep = Annotated[ClubTable, Depends(get_table)]
AdminDep = Annotated[bool, Depends(get_admin)]
ClientDep = Annotated[str, Depends(get_client)]


async def get_scanner(vision: VisionDep, settings: SettingsDep, camera: CameraDep,
                      scans: ScansDep, frames: FramesDep) -> ScanService:
    """The scan service over the app's reader, settings, camera and kept scans: made for
    each request from the parts above, so a part a test swaps is the one it uses."""
    return ScanService(vision, settings, camera, scans, frames)


ScannerDep = Annotated[ScanService, Depends(get_scanner)]
