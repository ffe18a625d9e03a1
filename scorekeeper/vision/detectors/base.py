"""One interface for every inference runtime, so the reader never knows which one runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self

import numpy as np
from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from scorekeeper.vision.manifest import DetectorSpec


class YoloConfig(BaseModel):
    """What every runtime of the YOLO detector is told; each backend adds its own keys."""

    model_config = ConfigDict(extra="forbid")
    path: Path
    imgsz: int = 0  # 0: chosen per frame, `scale` × its long side
    scale: float = 0.75
    conf: float = 0.25
    iou: float = 0.5
    # one NMS over all classes: a detector whose classes are the cards must not keep two
    # names for one index (an index and a card box barely overlap, so they never compete)
    agnostic: bool = False

    @classmethod
    def for_model(cls, spec: DetectorSpec, file: Path) -> Self:
        """The config a model folder's manifest gives this runtime, reading `file`."""
        return cls(path=file, imgsz=spec.infer_imgsz, scale=spec.scale, conf=spec.conf)


@dataclass(frozen=True)
class Detection:
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in the input image's pixels
    cls: int
    conf: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def size(self) -> float:
        """The longer side: an index's long side tracks the card's scale at any rotation."""
        return max(self.box[2] - self.box[0], self.box[3] - self.box[1])


class Detector(Protocol):
    names: tuple[str, ...]

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        """Detections in a BGR uint8 image, read at `scale` (default: the config's)."""
        ...
