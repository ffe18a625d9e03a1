"""`none`: no camera configured. The server still runs (scores typed in by hand)."""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from scorekeeper.camera.base import CameraBase, CameraError


class NoCameraConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoCamera(CameraBase):
    def __init__(self, config: NoCameraConfig | None = None) -> None:
        self.config = config or NoCameraConfig()

    def open(self) -> None:
        self.opened = True

    def read(self) -> np.ndarray:
        raise CameraError("no camera configured (camera spec 'none')", "no_camera")

    def close(self) -> None:
        self.opened = False

    def info(self) -> dict[str, Any]:
        return {"kind": "none"}
