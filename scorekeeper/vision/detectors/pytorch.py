"""PyTorch backend through ultralytics: for training-time checks and comparison."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from scorekeeper.vision.detectors.base import Detection, YoloConfig


class TorchConfig(YoloConfig):
    type: Literal["torch"] = "torch"


class TorchDetector:
    def __init__(self, config: TorchConfig, names: tuple[str, ...]) -> None:
        import importlib
        import os

        from scorekeeper.vision.ultralytics_env import prepare

        prepare()
        # untyped handles: the lab (ultralytics) may be missing where this is type-checked
        torch_utils: Any = importlib.import_module("ultralytics.utils.torch_utils")
        ultralytics: Any = importlib.import_module("ultralytics")

        torch_utils.NUM_THREADS = os.cpu_count() or 1
        self.model: Any = ultralytics.YOLO(str(config.path), task="detect")
        self.config = config
        self.names = names

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        from scorekeeper.vision.detectors.yolo_decode import input_size

        size = input_size(image.shape, self.config.imgsz, scale or self.config.scale)
        res = self.model.predict(image, imgsz=size, conf=self.config.conf,
                                 iou=self.config.iou, agnostic_nms=self.config.agnostic,
                                 verbose=False, device="cpu")[0]
        boxes = res.boxes
        return [Detection((float(b[0]), float(b[1]), float(b[2]), float(b[3])), int(c), float(p))
                for b, c, p in zip(boxes.xyxy.tolist(), boxes.cls.tolist(),
                                   boxes.conf.tolist(), strict=True)]
