"""One camera shared by the server: thread-safe captures, health state, reconnection.

Cameras fail in ordinary use (unplugged, another program grabs them, a stream drops).
The server must keep serving scores regardless, so nothing here raises: a failed capture
returns None and moves `state` to "lost"/"busy"/"none" with the error and since when;
reconnection is retried with exponential backoff (1 s, 2 s, 4 s … capped at 30 s) so a
missing camera costs almost nothing, and a returning one is picked up by itself.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import cv2
import numpy as np
from pydantic import BaseModel

from scorekeeper.camera.base import Camera, CameraError, Reason

log = logging.getLogger(__name__)
State = Literal["ok", "lost", "busy", "none"]
T = TypeVar("T")


class CameraStatus(BaseModel):
    state: State
    error: str | None = None
    reason: Reason | None = None
    since: datetime
    frames: int = 0
    last_frame_at: datetime | None = None
    retry_in_s: float | None = None
    camera: dict[str, Any] = {}


def _state_for(reason: Reason) -> State:
    return {"busy": "busy", "no_camera": "none"}.get(reason, "lost")  # type: ignore[return-value]


def call_with_timeout(fn: Callable[[], T], timeout_s: float, what: str) -> T:
    """Run a possibly-hanging driver call in a daemon thread; give up after `timeout_s`."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name=f"camera-{what}", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        raise CameraError(f"camera {what} took over {timeout_s:g} s (driver hung?)", "timeout")
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


class CameraSupervisor:
    """Owns a camera for the server. `capture()`/`snapshot()` never raise."""

    def __init__(self, camera: Camera | Callable[[], Camera], *, backoff_start_s: float = 1.0,
                 backoff_cap_s: float = 30.0, timeout_s: float = 15.0, jpeg_quality: int = 85,
                 snapshot_max_side: int = 1600,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._factory: Callable[[], Camera] | None = None
        if isinstance(camera, Camera):
            self._camera: Camera | None = camera
        else:
            self._factory, self._camera = camera, None
        self.backoff_start_s, self.backoff_cap_s = backoff_start_s, backoff_cap_s
        self.timeout_s = timeout_s
        self.jpeg_quality, self.snapshot_max_side = jpeg_quality, snapshot_max_side
        self._clock = clock
        self._io = threading.Lock()  # one driver call at a time
        self._meta = threading.Lock()  # state fields; never held during driver calls
        self._is_open = False
        self._failures = 0
        self._next_try = 0.0
        self._state: State = "lost"
        self._error: str | None = "not connected yet"
        self._reason: Reason | None = None
        self._since = datetime.now(UTC)
        self._frames = 0
        self._frame: np.ndarray | None = None
        self._frame_t = 0.0
        self._last_frame_at: datetime | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- public ---------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self._state

    def status(self) -> CameraStatus:
        with self._meta:
            retry = None
            if self._state in ("lost", "busy") and not self._is_open:
                retry = round(max(0.0, self._next_try - self._clock()), 1)
            cam = self._camera
            return CameraStatus(state=self._state, error=self._error, reason=self._reason,
                                since=self._since, frames=self._frames,
                                last_frame_at=self._last_frame_at, retry_in_s=retry,
                                camera=_safe_info(cam))

    def capture(self, max_age_s: float = 0.0) -> np.ndarray | None:
        """A fresh BGR frame (or one at most `max_age_s` old), or None: see `status()`."""
        with self._io:
            now = self._clock()
            if self._frame is not None and max_age_s > 0 and now - self._frame_t <= max_age_s:
                return self._frame
            if self._state == "none":
                return None
            if not self._is_open and now < self._next_try:
                return None  # backing off: cheap, never blocks the server
            try:
                cam = self._get_camera()
                if not self._is_open:
                    call_with_timeout(cam.open, self.timeout_s, "open")
                    self._is_open = True
                frame = call_with_timeout(cam.read, self.timeout_s, "read")
            except CameraError as exc:
                self._fail(exc)
                return None
            except Exception as exc:  # a driver bug must not take the server down
                log.exception("camera: unexpected error")
                self._fail(CameraError(f"camera error: {exc!r}", "failed"))
                return None
            self._succeed(frame)
            return frame

    def advance(self) -> None:
        """The frame just captured was scanned: a replay moves on to its next shot (a live
        camera sees the table change by itself, and has no `advance`)."""
        with self._io:
            step = getattr(self._camera, "advance", None)
            if callable(step):
                step()
            self._frame = None  # the aim view's next picture is the new shot

    def snapshot(self, max_age_s: float = 0.5) -> bytes:
        """JPEG of a frame, scaled for phones; a picture of the problem when there is none."""
        frame = self.capture(max_age_s)
        if frame is None:
            frame = placeholder(self.status())
        else:
            side = max(frame.shape[:2])
            if side > self.snapshot_max_side:
                k = self.snapshot_max_side / side
                frame = cv2.resize(frame, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        return buf.tobytes() if ok else b""

    def start(self, poll_s: float = 1.0) -> None:
        """Background reconnection: a camera that comes back is found without a request."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(poll_s,), name="camera",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.timeout_s)
            self._thread = None
        with self._io:
            self._release()

    # --- internals ------------------------------------------------------------------------

    def _run(self, poll_s: float) -> None:
        while not self._stop.is_set():
            if self._state in ("lost", "busy") and self._clock() >= self._next_try:
                self.capture()
            wait = max(0.01, min(poll_s, self._next_try - self._clock()))
            self._stop.wait(wait)

    def _get_camera(self) -> Camera:
        if self._camera is None:
            assert self._factory is not None
            self._camera = self._factory()
        return self._camera

    def _release(self) -> None:
        cam, self._is_open = self._camera, False
        if cam is not None:
            try:
                call_with_timeout(cam.close, 2.0, "close")
            except Exception as exc:  # noqa: BLE001 - a dead camera may not close cleanly
                log.debug("camera: close failed: %s", exc)
        if self._factory is not None:
            self._camera = None  # a fresh object next time, in case this one is stuck

    def _set_state(self, state: State, error: str | None, reason: Reason | None) -> None:
        with self._meta:
            if state != self._state:
                self._since = datetime.now(UTC)
                log.log(logging.INFO if state == "ok" else logging.WARNING,
                        "camera: %s%s", state, f" ({error})" if error else "")
            self._state, self._error, self._reason = state, error, reason

    def _fail(self, exc: CameraError) -> None:
        self._release()
        self._failures += 1
        delay = min(self.backoff_cap_s, self.backoff_start_s * 2 ** (self._failures - 1))
        with self._meta:
            self._next_try = self._clock() + delay
        self._set_state(_state_for(exc.reason), str(exc), exc.reason)

    def _succeed(self, frame: np.ndarray) -> None:
        self._failures = 0
        with self._meta:
            self._frames += 1
            self._frame, self._frame_t = frame, self._clock()
            self._last_frame_at = datetime.now(UTC)
        self._set_state("ok", None, None)


def _safe_info(cam: Camera | None) -> dict[str, Any]:
    if cam is None:
        return {}
    try:
        return dict(cam.info())
    except Exception as exc:  # noqa: BLE001 - info is for display only, never a failure
        log.debug("camera: info failed: %r", exc)
        return {}


def placeholder(status: CameraStatus, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A grey frame that says why there is no picture, for the phone's <img>."""
    w, h = size
    img = np.full((h, w, 3), 60, np.uint8)
    lines = [f"camera {status.state}"]
    if status.error:
        words, line = status.error.split(), ""
        for word in words:
            if len(line) + len(word) > 44:
                lines.append(line)
                line = ""
            line = f"{line} {word}".strip()
        lines.append(line)
    if status.retry_in_s is not None:
        lines.append(f"retrying in {status.retry_in_s:.0f} s")
    for i, text in enumerate(lines):
        scale = 1.0 if i == 0 else 0.6
        cv2.putText(img, text, (24, 60 + 36 * i), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (230, 230, 230), 1 if i else 2, cv2.LINE_AA)
    return img
