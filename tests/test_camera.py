"""Camera sources: replay (images, folders, video), none, picamera2 stand-in, specs."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from scorekeeper.camera import (
    SAMPLES,
    Camera,
    CameraError,
    CameraSpecError,
    camera_from_spec,
    default_camera,
    parse_spec,
)
from scorekeeper.camera import spec as spec_module
from scorekeeper.camera.nocam import NoCamera
from scorekeeper.camera.opencv_cam import OpenCVCamera, OpenCVConfig
from scorekeeper.camera.picam import Picamera2Camera, Picamera2Config
from scorekeeper.camera.replay import ReplayCamera


def _write_frames(folder: Path, names: list[str]) -> None:
    """Each frame is a flat grey whose level is the number in its name."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        level = int("".join(c for c in name if c.isdigit()))
        cv2.imwrite(str(folder / name), np.full((24, 32, 3), level, np.uint8))


def _level(frame: np.ndarray) -> int:
    return round(float(frame.mean()))


def _write_video(path: Path, levels: list[int]) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5, (64, 48))
    assert writer.isOpened()
    for level in levels:
        writer.write(np.full((48, 64, 3), level, np.uint8))
    writer.release()


def test_replay_folder_cycles_in_natural_order(tmp_path: Path) -> None:
    _write_frames(tmp_path, ["frame10.png", "frame2.png", "frame1.png", "notes.txt"][:3])
    (tmp_path / "notes.txt").write_text("not an image")
    cam = camera_from_spec(f"replay:{tmp_path}")
    assert isinstance(cam, Camera)
    with cam:  # type: ignore[attr-defined]
        levels = [_level(_next_shot(cam)) for _ in range(7)]
    assert levels == [1, 2, 10, 1, 2, 10, 1]
    assert cam.info()["frames"] == 3


def _next_shot(cam: Any) -> np.ndarray:
    """The shot a replay gives now, then moved on, as a scan moves it."""
    frame = cam.read()
    cam.advance()
    return frame


def test_replay_holds_its_shot_until_a_scan_moves_it_on(tmp_path: Path) -> None:
    """Reads (the aim view's, once a second) leave the shot as it is: the scan that follows
    reads the very shot the players aimed at."""
    _write_frames(tmp_path, ["a1.png", "a2.png"])
    cam = camera_from_spec(f"replay:{tmp_path}")
    assert [_level(cam.read()) for _ in range(5)] == [1] * 5
    cam.advance()
    assert [_level(cam.read()) for _ in range(3)] == [2] * 3


def test_replay_without_loop_vanishes_after_last_frame(tmp_path: Path) -> None:
    _write_frames(tmp_path, ["a1.png", "a2.png"])
    cam = camera_from_spec(f"replay:{tmp_path}?loop=false")
    assert [_level(_next_shot(cam)), _level(_next_shot(cam))] == [1, 2]
    with pytest.raises(CameraError) as err:
        cam.read()
    assert err.value.reason == "vanished"


def test_replay_single_image_and_resize(tmp_path: Path) -> None:
    _write_frames(tmp_path, ["shot7.jpg"])
    cam = camera_from_spec(f"replay:{tmp_path / 'shot7.jpg'}?width=16")
    frames = [cam.read() for _ in range(3)]
    assert all(f.shape == (12, 16, 3) for f in frames)


def test_replay_video_in_order_and_loops(tmp_path: Path) -> None:
    video = tmp_path / "game.avi"
    _write_video(video, [0, 50, 100, 150])
    cam = camera_from_spec(f"replay:{video}")
    levels = [_level(_next_shot(cam)) for _ in range(6)]
    assert [round(v / 50) for v in levels] == [0, 1, 2, 3, 0, 1]
    assert cam.info()["source"] == "video"
    cam.close()


def test_replay_missing_and_empty(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="does not exist") as err:
        camera_from_spec(f"replay:{tmp_path / 'nope'}").open()
    assert err.value.reason == "not_found"
    with pytest.raises(CameraError, match="no images"):
        camera_from_spec(f"replay:{tmp_path}").open()


def test_none_camera_says_so() -> None:
    cam = camera_from_spec("none")
    assert isinstance(cam, NoCamera)
    cam.open()
    with pytest.raises(CameraError, match="no camera configured") as err:
        cam.read()
    assert err.value.reason == "no_camera"


@pytest.mark.parametrize(("spec", "field", "value"), [
    ("opencv:0", "source", 0),
    ("opencv:/dev/video2", "source", "/dev/video2"),
    ("opencv:1?width=1280&height=720", "width", 1280),
    ("opencv:rtsp://cam.local/live?channel=1", "source", "rtsp://cam.local/live?channel=1"),
    ("opencv:rtsp://cam.local/live?channel=1?timeout_s=2", "timeout_s", 2.0),
    ("picamera2?size=4056x3040", "height", 3040),
    ("picamera2:1", "camera_num", 1),
    ("replay:some/folder?loop=false", "loop", False),
])
def test_spec_options(spec: str, field: str, value: Any) -> None:
    _, config = parse_spec(spec)
    assert getattr(config, field) == value


@pytest.mark.parametrize(("spec", "message"), [
    ("webcam:0", "unknown camera 'webcam:0': use picamera2"),
    ("replay", "needs an argument: replay:PATH"),
    ("none:3", "takes no argument"),
    ("opencv:0?width=wide", "width: Input should be a valid integer"),
    ("picamera2?size=4056x-1", "height: Input should be greater than 0"),
    ("opencv:0?colour=red", "unknown option 'colour' for camera 'opencv'"),
])
def test_bad_spec_is_a_clear_error(spec: str, message: str) -> None:
    with pytest.raises(CameraSpecError, match=message.replace("?", r"\?")):
        camera_from_spec(spec)


def test_opencv_missing_device_is_not_found() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("device nodes are a Linux thing")
    with pytest.raises(CameraError, match="does not exist") as err:
        OpenCVCamera(OpenCVConfig(source=97)).open()
    assert err.value.reason == "not_found"


def test_opencv_source_that_runs_dry_has_vanished(tmp_path: Path) -> None:
    video = tmp_path / "short.avi"
    _write_video(video, [10, 20])
    cam = camera_from_spec(f"opencv:{video}?warmup_frames=0")
    cam.read()
    cam.read()
    with pytest.raises(CameraError, match="stopped giving frames") as err:
        cam.read()
    assert err.value.reason == "vanished"


# --- picamera2 stand-in ------------------------------------------------------------------

class FakePicamera2:
    """Just enough of picamera2.Picamera2 for our driver, recording what it was asked."""

    cameras: ClassVar[list[dict[str, Any]]] = [{"Model": "imx477", "Num": 0}]
    fail_open: str | None = None
    fail_capture_after: int | None = None
    instances: ClassVar[list[FakePicamera2]] = []
    camera_controls: ClassVar[dict[str, Any]] = {}  # {"AfMode": ...} on a Camera Module 3
    af_locks = True

    def __init__(self, camera_num: int = 0) -> None:
        if self.fail_open:
            raise RuntimeError(self.fail_open)
        self.camera_num = camera_num
        self.config: dict[str, Any] = {}
        self.started = self.closed = False
        self.captures = 0
        self.controls: dict[str, Any] = {}
        self.af_cycles = 0
        type(self).instances.append(self)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.update(controls)

    def autofocus_cycle(self) -> bool:
        assert self.started and self.controls.get("AfMode") == 1
        self.af_cycles += 1
        return self.af_locks

    @classmethod
    def global_camera_info(cls) -> list[dict[str, Any]]:
        return cls.cameras

    def create_still_configuration(self, main: dict[str, Any], **kw: Any) -> dict[str, Any]:
        return {"main": main, **kw}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_array(self, name: str = "main") -> np.ndarray:
        limit = self.fail_capture_after
        if limit is not None and self.captures >= limit:
            raise RuntimeError("Camera frontend has timed out!")
        self.captures += 1
        w, h = self.config["main"]["size"]
        return np.full((h, w, 3), 7, np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    fake = type("Picamera2", (FakePicamera2,), {"instances": [], "cameras": list(
        FakePicamera2.cameras)})
    module.Picamera2 = fake  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return fake


def test_picamera2_still_capture(fake_picamera2: type[FakePicamera2]) -> None:
    cam = camera_from_spec("picamera2?size=4056x3040&settle_s=0")
    frame = cam.read()
    assert frame.shape == (3040, 4056, 3)
    inst = fake_picamera2.instances[-1]
    assert inst.config["main"] == {"size": (4056, 3040), "format": "RGB888"}
    assert cam.info()["model"] == "imx477"
    cam.close()
    assert inst.closed and not inst.started


def test_picamera2_focus(fake_picamera2: type[FakePicamera2]) -> None:
    cam = camera_from_spec("picamera2?settle_s=0")  # HQ camera: a fixed lens, nothing to set
    cam.open()
    assert cam.info()["focus"] == "fixed" and not fake_picamera2.instances[-1].controls

    fake_picamera2.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 32.0, 1.0)}
    cam = camera_from_spec("picamera2?settle_s=0")  # Camera Module 3: focus once on open
    cam.open()
    inst = fake_picamera2.instances[-1]
    assert inst.af_cycles == 1 and cam.info()["focus"] == "focused once"

    cam = camera_from_spec("picamera2?settle_s=0&focus=manual&lens_position=2")
    cam.open()
    assert fake_picamera2.instances[-1].controls == {"AfMode": 0, "LensPosition": 2.0}
    cam = camera_from_spec("picamera2?settle_s=0&focus=continuous")
    cam.open()
    assert fake_picamera2.instances[-1].controls == {"AfMode": 2}

    fake_picamera2.af_locks = False  # no lock: still a working camera, and it says so
    cam = camera_from_spec("picamera2?settle_s=0")
    assert cam.read().shape == (1520, 2028, 3)
    assert cam.info()["focus"] == "autofocus did not lock"
    with pytest.raises(CameraSpecError, match="focus"):
        camera_from_spec("picamera2?focus=sharp")


def test_picamera2_failures_say_why(fake_picamera2: type[FakePicamera2]) -> None:
    cam = Picamera2Camera(Picamera2Config(settle_s=0, camera_num=1))
    with pytest.raises(CameraError, match="no camera 1") as err:
        cam.open()
    assert err.value.reason == "not_found"

    fake_picamera2.fail_open = "Failed to acquire camera: Device or resource busy"
    with pytest.raises(CameraError) as err:
        Picamera2Camera(Picamera2Config(settle_s=0)).open()
    assert err.value.reason == "busy"

    fake_picamera2.fail_open = None
    fake_picamera2.fail_capture_after = 1
    cam = Picamera2Camera(Picamera2Config(settle_s=0))
    cam.read()
    with pytest.raises(CameraError, match="capture failed") as err:
        cam.read()
    assert err.value.reason == "vanished"


def test_picamera2_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import now raises ImportError
    with pytest.raises(CameraError, match="apt install python3-picamera2") as err:
        camera_from_spec("picamera2").open()
    assert err.value.reason == "not_found"


# --- default_camera -------------------------------------------------------------------------

def test_default_prefers_the_pi_camera(fake_picamera2: type[FakePicamera2]) -> None:
    assert isinstance(default_camera(), Picamera2Camera)


def test_default_falls_back_to_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)

    def no_webcam(self: OpenCVCamera) -> None:
        raise CameraError("no /dev/video0", "not_found")

    monkeypatch.setattr(OpenCVCamera, "open", no_webcam)
    cam = camera_from_spec("auto")
    assert isinstance(cam, ReplayCamera)
    assert cam.config.path == SAMPLES
    frames = [_next_shot(cam) for _ in range(3)]
    assert len({f.shape for f in frames}) >= 2  # mat shots and the webcam photo differ


def test_default_uses_a_working_webcam(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spec_module, "picamera2_present", lambda: False)
    monkeypatch.setattr(OpenCVCamera, "open", lambda self: setattr(self, "opened", True))
    monkeypatch.setattr(OpenCVCamera, "read", lambda self: np.zeros((4, 4, 3), np.uint8))
    assert isinstance(default_camera(), OpenCVCamera)


def test_samples_are_shipped_small_jpegs() -> None:
    files = sorted(SAMPLES.glob("*.jpg"))
    assert 2 <= len(files) <= 6
    assert all(f.stat().st_size < 300_000 for f in files)
    assert "Apache" in (SAMPLES / "README.md").read_text()
