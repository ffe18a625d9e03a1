"""Detector backends as small plugins behind one interface, each with its own typed config."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from scorekeeper.vision.detectors.base import Detection, Detector
from scorekeeper.vision.detectors.ncnn import NcnnConfig
from scorekeeper.vision.detectors.onnx import OnnxConfig
from scorekeeper.vision.detectors.pytorch import TorchConfig

DetectorConfig = Annotated[OnnxConfig | NcnnConfig | TorchConfig, Field(discriminator="type")]


def create_detector(config: OnnxConfig | NcnnConfig | TorchConfig,
                    names: tuple[str, ...]) -> Detector:
    """Build the backend a config names; its runtime is imported only now."""
    if isinstance(config, OnnxConfig):
        from scorekeeper.vision.detectors.onnx import OnnxDetector

        return OnnxDetector(config, names)
    if isinstance(config, NcnnConfig):
        from scorekeeper.vision.detectors.ncnn import NcnnDetector

        return NcnnDetector(config, names)
    from scorekeeper.vision.detectors.pytorch import TorchDetector

    return TorchDetector(config, names)


__all__ = ["Detection", "Detector", "DetectorConfig", "create_detector"]
