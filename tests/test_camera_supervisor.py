"""CameraSupervisor: state, backoff, reconnection, snapshots, thread safety."""

from __future__ import annotations

import threading
import time
from typing import Any

import cv2
import numpy as np
import pytest

from scorekeeper.camera import CameraError, CameraSupervisor, camera_from_spec
from scorekeeper.camera.base import Reason


class FlakyCamera:
    """Gives `frames_before_failure` frames, then vanishes until `present` is set again."""

    def __init__(self, frames_before_failure: int | None = None, present: bool = True,
                 open_reason: Reason = "not_found") -> None:
        self.left = frames_before_failure
        self.present = present
        self.open_reason: Reason = open_reason
        self.opens = self.reads = self.closes = 0
        self.is_open = False

    def open(self) -> None:
        self.opens += 1
        if not self.present:
            raise CameraError("fake camera unplugged", self.open_reason)
        self.is_open = True

    def read(self) -> np.ndarray:
        if not self.is_open:
            self.open()
        if self.left is not None:
            if self.left <= 0:
                self.present = False
                self.is_open = False
                raise CameraError("fake camera vanished", "vanished")
            self.left -= 1
        self.reads += 1
        return np.full((30, 40, 3), self.reads % 256, np.uint8)

    def close(self) -> None:
        self.closes += 1
        self.is_open = False

    def info(self) -> dict[str, Any]:
        return {"kind": "flaky"}


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_vanishing_camera_is_lost_then_reconnected_with_backoff() -> None:
    cam, clock = FlakyCamera(frames_before_failure=3), Clock()
    sup = CameraSupervisor(cam, clock=clock)
    assert all(sup.capture() is not None for _ in range(3))
    assert sup.state == "ok"

    assert sup.capture() is None  # the 4th read fails: never raises
    status = sup.status()
    assert (status.state, status.reason) == ("lost", "vanished")
    assert "vanished" in (status.error or "")
    assert status.retry_in_s == 1.0
    since = status.since

    delays = []
    for _ in range(8):  # still unplugged: each retry fails and doubles the wait
        opens = cam.opens
        assert sup.capture() is None  # too early: no attempt
        assert cam.opens == opens
        delays.append(sup.status().retry_in_s)
        clock.t += delays[-1] or 0
        assert sup.capture() is None
        assert cam.opens == opens + 1
    assert delays == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert sup.status().retry_in_s == 30.0
    assert sup.status().since == since  # still the same outage

    cam.present, cam.left = True, None  # plugged back in
    clock.t += 30
    assert sup.capture() is not None
    assert sup.state == "ok" and sup.status().error is None
    # a new failure starts the backoff from 1 s again
    cam.left = 0
    assert sup.capture() is None
    assert sup.status().retry_in_s == 1.0


def test_busy_and_none_states() -> None:
    busy = CameraSupervisor(FlakyCamera(present=False, open_reason="busy"), clock=Clock())
    assert busy.capture() is None
    assert busy.state == "busy"

    none = CameraSupervisor(camera_from_spec("none"), clock=Clock())
    assert none.capture() is None
    assert none.state == "none"
    assert "no camera configured" in (none.status().error or "")


def test_snapshot_is_jpeg_of_the_frame_or_of_the_problem() -> None:
    big = np.zeros((2400, 3200, 3), np.uint8)

    class Big(FlakyCamera):
        def read(self) -> np.ndarray:
            return big

    sup = CameraSupervisor(Big(), snapshot_max_side=800)
    img = cv2.imdecode(np.frombuffer(sup.snapshot(), np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == (600, 800, 3)

    none = CameraSupervisor(camera_from_spec("none"))
    img = cv2.imdecode(np.frombuffer(none.snapshot(), np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == (480, 640, 3)  # a placeholder saying why, for the phone's <img>


def test_recent_frame_is_reused_within_max_age() -> None:
    cam, clock = FlakyCamera(), Clock()
    sup = CameraSupervisor(cam, clock=clock)
    first = sup.capture()
    assert sup.capture(max_age_s=2.0) is first
    clock.t += 3
    assert sup.capture(max_age_s=2.0) is not first
    assert cam.reads == 2


def test_driver_errors_and_hangs_never_reach_the_caller() -> None:
    class Broken(FlakyCamera):
        def read(self) -> np.ndarray:
            raise ZeroDivisionError("driver bug")

    sup = CameraSupervisor(Broken())
    assert sup.capture() is None
    assert sup.state == "lost" and "ZeroDivisionError" in (sup.status().error or "")

    release = threading.Event()

    class Hung(FlakyCamera):
        def read(self) -> np.ndarray:
            release.wait(5)
            return np.zeros((2, 2, 3), np.uint8)

    sup = CameraSupervisor(Hung(), timeout_s=0.2)
    start = time.monotonic()
    assert sup.capture() is None
    assert time.monotonic() - start < 3
    assert sup.status().reason == "timeout"
    release.set()


def test_factory_gets_a_fresh_camera_after_failure() -> None:
    made: list[FlakyCamera] = []

    def factory() -> FlakyCamera:
        made.append(FlakyCamera(frames_before_failure=1))
        return made[-1]

    clock = Clock()
    sup = CameraSupervisor(factory, clock=clock)
    assert sup.capture() is not None
    assert sup.capture() is None
    clock.t += 1
    assert sup.capture() is not None
    assert len(made) == 2


def test_background_thread_reconnects_by_itself() -> None:
    cam = FlakyCamera(present=False)
    sup = CameraSupervisor(cam, backoff_start_s=0.01, backoff_cap_s=0.05)
    sup.start(poll_s=0.01)
    try:
        deadline = time.monotonic() + 2
        while cam.opens < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sup.state == "lost"
        cam.present = True
        while sup.state != "ok" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sup.state == "ok"
    finally:
        sup.close()
    assert not cam.is_open


def test_concurrent_captures_are_serialised(tmp_path: Any) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 8, 3), i, np.uint8))
    sup = CameraSupervisor(EveryReadMovesOn(camera_from_spec(f"replay:{tmp_path}")))
    errors: list[BaseException] = []
    got: list[int] = []

    def worker() -> None:
        try:
            for _ in range(25):
                frame = sup.capture()
                assert frame is not None
                got.append(int(frame[0, 0, 0]))
                sup.status()
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which fails on it
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sup.status().frames == 200
    assert sorted(got) == sorted([i % 3 for i in range(200)])


class EveryReadMovesOn:
    """A replay moved on at every read, as a table that never stands still: captures not
    serialised would read one shot twice and skip another."""

    def __init__(self, cam: Any) -> None:
        self.cam = cam

    def open(self) -> None:
        self.cam.open()

    def read(self) -> np.ndarray:
        frame: np.ndarray = self.cam.read()
        self.cam.advance()
        return frame

    def close(self) -> None:
        self.cam.close()

    def info(self) -> dict[str, Any]:
        return dict(self.cam.info())


def test_the_aim_view_and_the_scan_see_the_same_replay_shot(tmp_path: Any) -> None:
    """The aim view's snapshots (one a second) do not move a replay on: the scan's capture
    is the shot they showed, and only the scan moves it to the next."""
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 8, 3), 40 + 100 * i, np.uint8))
    sup = CameraSupervisor(camera_from_spec(f"replay:{tmp_path}"))

    def shown() -> int:
        jpeg = np.frombuffer(sup.snapshot(max_age_s=0), np.uint8)
        return round(float(cv2.imdecode(jpeg, cv2.IMREAD_COLOR).mean()))

    aimed = [shown() for _ in range(4)]
    frame = sup.capture()
    assert frame is not None and aimed == [40] * 4 and int(frame[0, 0, 0]) == 40
    sup.advance()  # what a scan of the camera's frame does
    assert shown() == 140
    sup.close()


@pytest.mark.parametrize("state", ["lost", "busy"])
def test_status_serialises(state: str) -> None:
    reason: Reason = "busy" if state == "busy" else "not_found"
    sup = CameraSupervisor(FlakyCamera(present=False, open_reason=reason))
    sup.capture()
    data = sup.status().model_dump(mode="json")
    assert data["state"] == state and data["since"] and data["retry_in_s"] is not None
