"""NCNN backend: the fastest runtime on a Raspberry Pi's ARM cores."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from scorekeeper.vision.detectors.base import Detection
from scorekeeper.vision.detectors.yolo_decode import decode, input_size, letterbox, to_tensor


class NcnnConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ncnn"] = "ncnn"
    path: Path  # the folder ultralytics exports: model.ncnn.param + model.ncnn.bin
    imgsz: int = 0  # 0: chosen per frame, `scale` × its long side
    scale: float = 0.75
    conf: float = 0.25
    iou: float = 0.5
    threads: int = 0


class NcnnDetector:
    def __init__(self, config: NcnnConfig, names: tuple[str, ...]) -> None:
        import os

        import ncnn

        self.net = ncnn.Net()
        self.net.opt.use_vulkan_compute = False
        self.net.opt.num_threads = config.threads or os.cpu_count() or 1
        self.net.load_param(str(config.path / "model.ncnn.param"))
        self.net.load_model(str(config.path / "model.ncnn.bin"))
        self.config = config
        self.names = names

    def detect(self, image: np.ndarray) -> list[Detection]:
        import ncnn

        size = input_size(image.shape, self.config.imgsz, self.config.scale)
        boxed, scale, pad = letterbox(image, size)
        with self.net.create_extractor() as ex:
            ex.input("in0", ncnn.Mat(to_tensor(boxed)[0]).clone())
            _, out = ex.extract("out0")
        raw = np.array(out)[None]
        return decode(raw, scale, pad, self.config.conf, self.config.iou, image.shape[:2])
