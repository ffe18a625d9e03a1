"""`replay:PATH`: frames from an image, a folder of images, or a video file.

The stand-in camera everything is tested and demoed with (like OctoPrint's virtual
printer): deterministic, no hardware, and a folder of real table shots replays a game.

A replay is a still table between scans: every read gives the same shot until `advance()`
(a scan of it) moves on to the next. Moving on at every read made the shot depend on who
had looked: the aim view reads once a second, so the scan read a later shot than the one
the players had just aimed at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.camera.base import CameraBase, CameraError, as_bgr

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


class ReplayConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: Path
    loop: bool = Field(default=True, description="start again at the end; else the camera "
                       "vanishes after the last frame")
    width: int | None = Field(default=None, gt=0, description="resize frames to this width")


def _natural_key(path: Path) -> list[int | str]:
    """frame2 before frame10, as a person numbering shots would expect."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", path.name)]


class ReplayCamera(CameraBase):
    def __init__(self, config: ReplayConfig) -> None:
        self.config = config
        self.files: list[Path] = []
        self.video: cv2.VideoCapture | None = None
        self.index = 0
        self.frames_read = 0
        self.shot: np.ndarray | None = None  # the current shot, as every read gives it

    def open(self) -> None:
        path = self.config.path
        if not path.exists():
            raise CameraError(f"replay: {path} does not exist", "not_found")
        self.index, self.shot = 0, None
        if path.is_dir():
            self.files = sorted((p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
                                key=_natural_key)
            if not self.files:
                raise CameraError(f"replay: no images in {path}", "not_found")
        elif path.suffix.lower() in IMAGE_SUFFIXES:
            self.files = [path]
        else:
            self.video = cv2.VideoCapture(str(path))
            if not self.video.isOpened():
                raise CameraError(f"replay: {path} is neither an image nor a video OpenCV "
                                  "can read", "not_found")
        self.opened = True

    def read(self) -> np.ndarray:
        """The current shot (the first after opening): the same until `advance()`."""
        self._ensure_open()
        if self.shot is None:
            frame = self._next_video() if self.video is not None else self._next_image()
            if self.config.width and frame.shape[1] != self.config.width:
                h = round(frame.shape[0] * self.config.width / frame.shape[1])
                frame = cv2.resize(frame, (self.config.width, h), interpolation=cv2.INTER_AREA)
            self.shot = frame
        self.frames_read += 1
        return self.shot

    def advance(self) -> None:
        """The table changed (a scan read the shot): the next read gives the next shot."""
        self.shot = None

    def _next_image(self) -> np.ndarray:
        if self.index >= len(self.files):
            if not self.config.loop:
                raise CameraError("replay: no more frames", "vanished")
            self.index = 0
        path = self.files[self.index]
        self.index += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"replay: {path} is not a readable image", "failed")
        return frame

    def _next_video(self) -> np.ndarray:
        assert self.video is not None
        ok, frame = self.video.read()
        if not ok and self.config.loop and self.index > 0:
            self.video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self.index = 0
            ok, frame = self.video.read()
        if not ok or frame is None:
            raise CameraError(f"replay: no more frames in {self.config.path}", "vanished")
        self.index += 1
        return as_bgr(frame)

    def close(self) -> None:
        if self.video is not None:
            self.video.release()
            self.video = None
        self.opened = False
        self.shot = None

    def info(self) -> dict[str, Any]:
        kind = "video" if self.video is not None else "images"
        return {"kind": "replay", "path": str(self.config.path), "source": kind,
                "frames": len(self.files) if self.files else None, "loop": self.config.loop,
                "frames_read": self.frames_read}
