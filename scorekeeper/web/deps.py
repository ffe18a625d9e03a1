"""What a route needs, as `Annotated` dependencies: each part of the app is found here only.

A route names what it uses (`store: StoreDep`) instead of reaching into `request.app.state`;
a test swaps a part with `app.dependency_overrides[deps.get_vision] = ...`. The parts are
made once, by `create_app` (web/app.py), and kept on `app.state` for these to hand out.
The providers are `async` so that FastAPI calls them on the event loop, not in a worker
thread (the pool is kept for fsync, decoding and the card reader).
"""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request

from scorekeeper.camera import CameraSupervisor
from scorekeeper.decks.adapting import Adapter
from scorekeeper.decks.learn import ScanFrames
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.http.auth import is_admin
from scorekeeper.web.http.limits import RateLimit
from scorekeeper.web.live.hub import Hub
from scorekeeper.web.live.writes import GameOwner, GameWriter
from scorekeeper.web.qr import QrCodes
from scorekeeper.web.vision import ScanImages, Vision


async def get_store(request: Request) -> GameStore:
    return cast(GameStore, request.app.state.store)


async def get_hub(request: Request) -> Hub:
    return cast(Hub, request.app.state.hub)


async def get_writer(request: Request) -> GameWriter:
    """The game API's one way to write a game (web/writes.py); a club server's
    `app.state.game_owner` refuses the games its tables forwarded."""
    owner = cast("GameOwner | None", getattr(request.app.state, "game_owner", None))
    return GameWriter(await get_store(request), await get_hub(request), owner)


async def get_camera(request: Request) -> CameraSupervisor:
    return cast(CameraSupervisor, request.app.state.camera)


async def get_settings(request: Request) -> Settings:
    return cast(Settings, request.app.state.settings)


async def get_vision(request: Request) -> Vision:
    return cast(Vision, request.app.state.vision)


async def get_scans(request: Request) -> ScanImages:
    return cast(ScanImages, request.app.state.scans)


async def get_scan_frames(request: Request) -> ScanFrames:
    return cast(ScanFrames, request.app.state.scan_frames)


async def get_adapter(request: Request) -> Adapter:
    return cast(Adapter, request.app.state.adapter)


async def get_qr_codes(request: Request) -> QrCodes:
    return cast(QrCodes, request.app.state.qr_codes)


async def get_knock_limit(request: Request) -> RateLimit:
    return cast(RateLimit, request.app.state.knock_limit)


async def get_admin(request: Request) -> bool:
    """Whether the request carries the admin token (routes are guarded by auth.py; this is
    for a public route that answers differently to the admin)."""
    return is_admin(request)


async def get_client(request: Request) -> str:
    """The client's address, for per-client caps ("" when the server cannot tell)."""
    return request.client.host if request.client else ""


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
AdminDep = Annotated[bool, Depends(get_admin)]
ClientDep = Annotated[str, Depends(get_client)]
