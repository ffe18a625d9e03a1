"""What the app is made of: every part `create_app` makes once, typed, in one place.

Routes never reach into `app.state`: they name a dependency (deps.py), which hands out a
part of this. A test swaps a part with `app.dependency_overrides`, or reads one through
`parts(app)`. A table has no club server's parts; a club server has no forwarder or roster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from scorekeeper.camera import CameraSupervisor
from scorekeeper.club.forwarder import Forwarder
from scorekeeper.club.league import League
from scorekeeper.club.roster import Roster
from scorekeeper.club.spelling import Spelling, as_typed
from scorekeeper.club.sync import ClubSync
from scorekeeper.club.tables import Tables
from scorekeeper.decks.adapting import Adapter
from scorekeeper.decks.learn import ScanFrames
from scorekeeper.scanning import ScanImages, Vision
from scorekeeper.scanning.counts import CameraCounts
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.http.decodes import DecodeGate
from scorekeeper.web.http.limits import RateLimit
from scorekeeper.web.live.club_feed import ClubFeed
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.live.writes import GameOwner
from scorekeeper.web.qr import QrCodes

if TYPE_CHECKING:
    from starlette.applications import Starlette


@dataclass
class ClubServer:
    """A club server's parts: its tables and their sync, the league and its big screen."""

    tables: Tables
    sync: ClubSync
    league: League
    feed: ClubFeed
    owner: GameOwner  # refuses a write to a game a table forwarded (live/writes.py)
    health: Callable[[], dict[str, Any]]  # the club's entry in /api/health


@dataclass
class AppState:
    settings: Settings
    store: GameStore
    hub: Hub
    camera: CameraSupervisor
    vision: Vision
    scans: ScanImages
    scan_frames: ScanFrames
    adapter: Adapter
    qr_codes: QrCodes
    knock_limit: RateLimit
    photos: DecodeGate  # the photos decoded and read at once, and their memory
    admin_token: str
    forwarder: Forwarder | None = None  # a table in club mode: its games to the club
    roster: Roster | None = None  # a table in club mode: its copy of the club's players
    spelling: Spelling = as_typed  # how a new game's names are spelled (the club's way)
    club: ClubServer | None = None  # a club server's own parts
    # the table camera's live count, shared by the phones aiming it
    counts: CameraCounts = field(default_factory=CameraCounts)


def parts(app: Starlette) -> AppState:
    return cast(AppState, app.state.parts)
