"""ONNX Runtime backend: the default on x86 and a Pi alike, no training stack needed."""

from __future__ import annotations

from typing import Literal

import numpy as np

from scorekeeper.vision.detectors.base import Detection, YoloConfig
from scorekeeper.vision.detectors.yolo_decode import decode, input_size, letterbox, to_tensor


class OnnxConfig(YoloConfig):
    type: Literal["onnx"] = "onnx"
    threads: int = 0  # 0: one per core


class OnnxDetector:
    def __init__(self, config: OnnxConfig, names: tuple[str, ...]) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        if config.threads:
            opts.intra_op_num_threads = config.threads
        self.session = ort.InferenceSession(str(config.path), opts,
                                            providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name
        self.config = config
        self.names = names

    def detect(self, image: np.ndarray, scale: float | None = None) -> list[Detection]:
        size = input_size(image.shape, self.config.imgsz, scale or self.config.scale)
        boxed, ratio, pad = letterbox(image, size, square=False)
        raw = self.session.run(None, {self.input: to_tensor(boxed)})[0]
        return decode(raw, ratio, pad, self.config.conf, self.config.iou, image.shape[:2],
                      self.config.agnostic)
