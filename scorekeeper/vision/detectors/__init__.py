"""Detector backends as registry entries: each a typed config and the class built from it.

A backend imports its runtime (onnxruntime, ncnn, ultralytics and torch) in its
constructor, so the table below costs nothing to load and only the chosen runtime is ever
imported.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

from pydantic import Field

from scorekeeper.registry import Plugin, Registry
from scorekeeper.vision.detectors.base import Detection, Detector, YoloConfig
from scorekeeper.vision.detectors.ncnn import NcnnConfig, NcnnDetector
from scorekeeper.vision.detectors.onnx import OnnxConfig, OnnxDetector
from scorekeeper.vision.detectors.pytorch import TorchConfig, TorchDetector

# config, the model's class names → a ready detector
DetectorFactory = Callable[[Any, tuple[str, ...]], Detector]

DETECTORS: Registry[Plugin[DetectorFactory]] = Registry("detector runtime", [
    Plugin("onnx", OnnxConfig, OnnxDetector),  # the default, x86 and Pi alike
    Plugin("ncnn", NcnnConfig, NcnnDetector),  # fastest on a Pi's ARM cores
    Plugin("torch", TorchConfig, TorchDetector),  # training-time checks (the lab installed)
])

if TYPE_CHECKING:
    from scorekeeper.vision.manifest import DetectorSpec

DetectorConfig = Annotated[OnnxConfig | NcnnConfig | TorchConfig, Field(discriminator="type")]


def config_for(runtime: str, spec: DetectorSpec, models: Path
               ) -> OnnxConfig | NcnnConfig | TorchConfig:
    """The runtime's config for a model folder's detector (a `RegistryError` names the
    runtimes there are; a `LookupError` says the folder has no file for this one)."""
    config = cast(type[YoloConfig], DETECTORS.get(runtime).config)
    file = spec.file_for(runtime)
    if file is None:
        raise LookupError(f"the model names no detector file for the {runtime} runtime")
    return cast(OnnxConfig | NcnnConfig | TorchConfig, config.for_model(spec, models / file))


def create_detector(config: OnnxConfig | NcnnConfig | TorchConfig,
                    names: tuple[str, ...]) -> Detector:
    """Build the backend a config names; its runtime is imported only now."""
    return DETECTORS.get(config.type).factory(config, names)


__all__ = ["DETECTORS", "Detection", "Detector", "DetectorConfig", "DetectorFactory",
           "config_for", "create_detector"]
