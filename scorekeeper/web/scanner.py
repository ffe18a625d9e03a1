"""The scan service (scorekeeper/scanning) as a route calls it: in a worker thread, since
loading a model and reading a frame take a second or more on a Pi, with the service's two
refusals said as the API's (503: no card reader, no camera frame)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from fastapi.concurrency import run_in_threadpool

from scorekeeper.scanning import NoFrame, ReaderUnavailable
from scorekeeper.web.http.errors import ApiError

P = ParamSpec("P")
T = TypeVar("T")


async def scanning(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`call(*args, **kwargs)`, a method of the scan service, in a worker thread."""
    try:
        return await run_in_threadpool(call, *args, **kwargs)
    except ReaderUnavailable as exc:
        raise ApiError(503, f"card reader unavailable: {exc}", code="reader_unavailable") from exc
    except NoFrame as exc:
        status = exc.status
        raise ApiError(503, f"camera {status.state}: {status.error or 'no frame'}",
                       code="camera_none" if status.state == "none" else "camera_unavailable",
                       state=status.state) from None
