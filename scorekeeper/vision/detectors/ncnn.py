"""NCNN backend: the fastest runtime on a Raspberry Pi's ARM cores."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal, Self

import numpy as np

from scorekeeper.vision.detectors.base import Detection, YoloConfig
from scorekeeper.vision.detectors.yolo_decode import decode, input_size, letterbox, to_tensor

if TYPE_CHECKING:
    from scorekeeper.vision.manifest import DetectorSpec


class NcnnConfig(YoloConfig):
    type: Literal["ncnn"] = "ncnn"
    threads: int = 0
    path: Path  # the folder ultralytics exports: model.ncnn.param + model.ncnn.bin

    @classmethod
    def for_model(cls, spec: DetectorSpec, file: Path) -> Self:
        """NCNN's export has fixed shapes: it runs at the size it was exported at, the
        camera's working size (0.75 × 1280 for the default 1280 × 960 frame)."""
        return cls(path=file, imgsz=spec.ncnn_imgsz or spec.imgsz, scale=spec.scale,
                   conf=spec.conf)


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

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        import ncnn

        size = input_size(image.shape, self.config.imgsz, scale or self.config.scale)
        boxed, ratio, pad = letterbox(image, size)
        tensor = to_tensor(boxed)[0]  # keep it alive: ncnn.Mat wraps its memory, no copy
        with self.net.create_extractor() as ex:
            ex.input("in0", ncnn.Mat(tensor))
            _, out = ex.extract("out0")
        raw = np.array(out)[None]
        return decode(raw, ratio, pad, self.config.conf, self.config.iou, image.shape[:2],
                      self.config.agnostic)
