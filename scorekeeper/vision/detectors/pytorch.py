"""PyTorch backend through ultralytics: for training-time checks and comparison."""

from __future__ import annotations

from typing import Literal

import numpy as np

from scorekeeper.vision.detectors.base import Detection, YoloConfig


class TorchConfig(YoloConfig):
    type: Literal["torch"] = "torch"


class TorchDetector:
    def __init__(self, config: TorchConfig, names: tuple[str, ...]) -> None:
        import os

        from scorekeeper.vision.ultralytics_env import prepare

        prepare()
        import ultralytics.utils.torch_utils as tu
        from ultralytics import YOLO

        tu.NUM_THREADS = os.cpu_count() or 1
        self.model = YOLO(str(config.path), task="detect")
        self.config = config
        self.names = names

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        from scorekeeper.vision.detectors.yolo_decode import input_size

        size = input_size(image.shape, self.config.imgsz, scale or self.config.scale)
        res = self.model.predict(image, imgsz=size, conf=self.config.conf,
                                 iou=self.config.iou, verbose=False, device="cpu")[0]
        boxes = res.boxes
        return [Detection(tuple(map(float, b)), int(c), float(p))  # type: ignore[arg-type]
                for b, c, p in zip(boxes.xyxy.tolist(), boxes.cls.tolist(),
                                   boxes.conf.tolist(), strict=True)]
