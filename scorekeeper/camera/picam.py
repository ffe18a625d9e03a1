"""`picamera2`: the Raspberry Pi camera through libcamera, as full-resolution stills.

`picamera2` is imported inside `open()` because it exists only on a Pi (installed from
apt as python3-picamera2, so a venv needs --system-site-packages); importing this module
anywhere else must stay harmless. Tests inject a stand-in module via sys.modules.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import time
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.camera.base import CameraBase, CameraError, as_bgr

log = logging.getLogger(__name__)
AF_MANUAL, AF_AUTO, AF_CONTINUOUS = 0, 1, 2  # libcamera's AfModeEnum, without importing it


class Picamera2Config(BaseModel):
    model_config = ConfigDict(extra="forbid")

    camera_num: int = Field(default=0, ge=0)
    width: int = Field(default=2028, gt=0, description="HQ camera: 2028×1520 or 4056×3040")
    height: int = Field(default=1520, gt=0)
    settle_s: float = Field(default=1.0, ge=0, description="auto exposure/white balance")
    buffer_count: int = Field(default=1, ge=1, description="one still buffer saves memory")
    # Camera Module 3 focuses; the HQ and v2 cameras have fixed lenses and ignore this.
    # `once`: one autofocus cycle when the camera opens (the table does not move, and a hand
    # reaching in must not pull the focus); `continuous`; `manual` at `lens_position`; `off`.
    focus: Literal["once", "continuous", "manual", "off"] = "once"
    lens_position: float = Field(default=1.25, ge=0, le=32,
                                 description="manual focus in dioptres (1 / m): 1.25 = 80 cm")


def picamera2_present() -> bool:
    """A Pi camera can be used: the module imports and libcamera lists a camera."""
    try:
        module = importlib.import_module("picamera2")
        return bool(module.Picamera2.global_camera_info())
    except Exception as exc:  # noqa: BLE001 - any failure means "no Pi camera", never a crash
        log.debug("picamera2: no usable Pi camera: %r", exc)
        return False


class Picamera2Camera(CameraBase):
    def __init__(self, config: Picamera2Config | None = None) -> None:
        self.config = config or Picamera2Config()
        self.cam: Any = None
        self.frames_read = 0
        self.model = ""
        self.focus = ""

    def open(self) -> None:
        self.close()
        try:
            module = importlib.import_module("picamera2")
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: on a Raspberry Pi run "
                              "`sudo apt install python3-picamera2` and create the venv "
                              "with --system-site-packages", "not_found") from exc
        cams = module.Picamera2.global_camera_info()
        n = self.config.camera_num
        if n >= len(cams):
            raise CameraError(f"picamera2: no camera {n} (libcamera sees {len(cams)}): "
                              "check the ribbon cable", "not_found")
        self.model = str(cams[n].get("Model", ""))
        try:
            cam = module.Picamera2(camera_num=n)
        except RuntimeError as exc:
            busy = "busy" in str(exc).lower() or "acquire" in str(exc).lower()
            raise CameraError(f"picamera2: cannot acquire camera {n}: {exc}",
                              "busy" if busy else "failed") from exc
        try:
            size = (self.config.width, self.config.height)
            # RGB888 is stored B, G, R in memory: already the order OpenCV wants
            cam.configure(cam.create_still_configuration(
                main={"size": size, "format": "RGB888"}, buffer_count=self.config.buffer_count))
            cam.start()
        except Exception as exc:
            cam.close()
            raise CameraError(f"picamera2: cannot start camera {n}: {exc}", "failed") from exc
        self.cam = cam
        self.opened = True
        self.focus = self._focus(cam)
        if self.config.settle_s:
            time.sleep(self.config.settle_s)

    def _focus(self, cam: Any) -> str:
        """Set the lens up; a failed autofocus is logged, never a reason not to scan."""
        mode = self.config.focus
        if mode == "off" or "AfMode" not in getattr(cam, "camera_controls", {}):
            return "fixed"
        try:
            if mode == "manual":
                cam.set_controls({"AfMode": AF_MANUAL,
                                  "LensPosition": self.config.lens_position})
                return f"manual {self.config.lens_position:g} dioptres"
            if mode == "continuous":
                cam.set_controls({"AfMode": AF_CONTINUOUS})
                return "continuous"
            cam.set_controls({"AfMode": AF_AUTO})
            if cam.autofocus_cycle():
                return "focused once"
        except Exception as exc:  # noqa: BLE001 - a lens that will not move still takes pictures
            log.warning("picamera2: focus %s failed: %s", mode, exc)
            return f"focus failed: {exc}"
        log.warning("picamera2: autofocus did not lock; set focus=manual and lens_position")
        return "autofocus did not lock"

    def read(self) -> np.ndarray:
        self._ensure_open()
        try:
            frame = self.cam.capture_array("main")
        except Exception as exc:
            self.close()
            raise CameraError(f"picamera2: capture failed: {exc}", "vanished") from exc
        self.frames_read += 1
        return as_bgr(np.asarray(frame))

    def close(self) -> None:
        cam, self.cam = self.cam, None
        self.opened = False
        if cam is not None:
            for step in (cam.stop, cam.close):
                with contextlib.suppress(Exception):  # closing a dead camera must not raise
                    step()

    def info(self) -> dict[str, Any]:
        return {"kind": "picamera2", "camera_num": self.config.camera_num,
                "model": self.model, "size": (self.config.width, self.config.height),
                "focus": self.focus,
                "frames_read": self.frames_read}
