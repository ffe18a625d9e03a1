"""Detector backends as registry entries: each a typed config and the class built from it.

A backend imports its runtime (onnxruntime, ncnn, ultralytics and torch) in its
constructor, so the table below costs nothing to load and only the chosen runtime is ever
imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field

from scorekeeper.registry import Plugin, Registry
from scorekeeper.vision.detectors.base import Detection, Detector
from scorekeeper.vision.detectors.ncnn import NcnnConfig, NcnnDetector
from scorekeeper.vision.detectors.onnx import OnnxConfig, OnnxDetector
from scorekeeper.vision.detectors.pytorch import TorchConfig, TorchDetector

# config, the model's class names → a ready detector
DetectorFactory = Callable[[Any, tuple[str, ...]], Detector]

DETECTORS: Registry[Plugin[DetectorFactory]] = Registry("detector runtime", [
    Plugin("onnx", OnnxConfig, OnnxDetector),  # the default, x86 and Pi alike
    Plugin("ncnn", NcnnConfig, NcnnDetector),  # fastest on a Pi's ARM cores
    Plugin("torch", TorchConfig, TorchDetector),  # training-time checks (the `train` extra)
])

DetectorConfig = Annotated[OnnxConfig | NcnnConfig | TorchConfig, Field(discriminator="type")]


def create_detector(config: OnnxConfig | NcnnConfig | TorchConfig,
                    names: tuple[str, ...]) -> Detector:
    """Build the backend a config names; its runtime is imported only now."""
    return DETECTORS.get(config.type).factory(config, names)


__all__ = ["DETECTORS", "Detection", "Detector", "DetectorConfig", "DetectorFactory",
           "create_detector"]
