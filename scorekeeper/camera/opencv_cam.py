"""`opencv:INDEX` / `opencv:URL`: USB webcams, /dev/videoN, RTSP/HTTP streams.

OpenCV reports every failure as "no frame", so the cause is inferred: a device node that
does not exist is not found, one that exists but will not open is busy (held by another
program), and a read that fails after frames came is a camera that vanished (unplugged,
stream dropped). Network streams get open/read timeouts so a dead server cannot hang us.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.camera.base import CameraBase, CameraError, as_bgr


class OpenCVConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: int | str = Field(default=0, description="device index, /dev path, or stream URL")
    width: int | None = Field(default=1920, gt=0)
    height: int | None = Field(default=1080, gt=0)
    fourcc: str | None = Field(default="MJPG", description="USB cameras need MJPG for >720p")
    timeout_s: float = Field(default=5.0, gt=0, description="open and read timeout, streams")
    warmup_frames: int = Field(default=2, ge=0, description="dropped after open: exposure")


class OpenCVCamera(CameraBase):
    def __init__(self, config: OpenCVConfig) -> None:
        self.config = config
        self.cap: cv2.VideoCapture | None = None
        self.frames_read = 0

    @property
    def _is_stream(self) -> bool:
        return isinstance(self.config.source, str) and "://" in self.config.source

    def _device_path(self) -> Path | None:
        src = self.config.source
        if isinstance(src, int):
            return Path(f"/dev/video{src}") if sys.platform.startswith("linux") else None
        return Path(src) if src.startswith("/dev/") else None

    def open(self) -> None:
        self.close()
        src = self.config.source
        dev = self._device_path()
        if dev is not None and not dev.exists():
            raise CameraError(f"opencv: {dev} does not exist (camera unplugged?)", "not_found")
        if self._is_stream:
            ms = int(self.config.timeout_s * 1000)
            cap = cv2.VideoCapture(str(src), cv2.CAP_ANY, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms,
                                                            cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
        else:
            cap = cv2.VideoCapture(src)
        if not cap.isOpened():
            cap.release()
            if dev is not None:
                raise CameraError(f"opencv: {dev} exists but will not open: busy (another "
                                  "program has it) or not a capture device", "busy")
            raise CameraError(f"opencv: cannot open {src!r}", "not_found")
        self._configure(cap)
        self.cap = cap
        self.opened = True
        for _ in range(self.config.warmup_frames):
            cap.grab()

    def _configure(self, cap: cv2.VideoCapture) -> None:
        c = self.config
        if self._is_stream:
            return  # a stream's size is the sender's business
        if c.fourcc:
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*c.fourcc[:4]))
        if c.width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, c.width)
        if c.height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, c.height)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # we take stills: a stale queued frame is wrong

    def read(self) -> np.ndarray:
        self._ensure_open()
        assert self.cap is not None
        ok, frame = self.cap.read()
        if not ok or frame is None:
            self.close()
            raise CameraError(f"opencv: {self.config.source!r} stopped giving frames "
                              "(unplugged or stream dropped)", "vanished")
        self.frames_read += 1
        return as_bgr(frame)

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()
            self.cap = None
        self.opened = False

    def info(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "opencv", "source": self.config.source,
                               "frames_read": self.frames_read}
        if self.cap is not None:
            out["size"] = (int(self.cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                           int(self.cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
            out["backend"] = self.cap.getBackendName()
        return out
