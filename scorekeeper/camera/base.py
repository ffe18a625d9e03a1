"""What every camera source is: open, read a BGR frame, close, describe itself.

Sources fail in a handful of ways that the server must tell apart (a missing camera is
configured wrong; a busy one is held by another program; a vanished one may come back),
so `CameraError` carries a machine-readable `reason` as well as a message for people.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

Reason = Literal["not_found", "busy", "vanished", "timeout", "no_camera", "failed"]


class CameraError(RuntimeError):
    """A camera could not give a frame; `reason` says which kind of failure it was."""

    def __init__(self, message: str, reason: Reason = "failed") -> None:
        super().__init__(message)
        self.reason: Reason = reason


@runtime_checkable
class Camera(Protocol):
    """One frame source. `read()` may open lazily; `close()` is safe to call twice."""

    def open(self) -> None: ...

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...

    def info(self) -> dict[str, Any]: ...


class CameraBase:
    """Shared plumbing: context manager, read-opens-if-needed."""

    opened = False

    def open(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _ensure_open(self) -> None:
        if not self.opened:
            self.open()

    def __enter__(self) -> CameraBase:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """Gray → BGR and BGRA/XBGR → BGR, so every source returns 3-channel uint8."""
    import cv2

    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return np.ascontiguousarray(frame[:, :, :3])
    return frame
