"""The model folder's manifest (`models/model.json`), typed and read once.

Training writes it (`make model`, the lab); everything that reads a model folder (the
reader, a deck's profile, the deck install check) reads it through `load_manifest`, so a
missing or malformed file is one clear `ManifestError` naming the file and the field, not
a KeyError deep in a scan. Fields the runtime does not use (the training record) are kept
as they are and ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from scorekeeper.vision.confidence import CalibrationSpec
from scorekeeper.vision.hand_look import HandLookConfig
from scorekeeper.vision.refocus import INDEX_PX, MAX_SCALE

MIN_CARD_PROB = 0.5  # a classifier answer below this is no card (`classifier.min_prob`)
# the upright look's answer from which a crop is not read at the other three turns
# (`IndexClassifier.sure`; `classifier.sure`, null for four turns always)
SURE = 0.95
MANIFEST = "model.json"


class ManifestError(RuntimeError):
    """A model folder without a readable manifest: the message names the file and why."""


class DetectorSpec(BaseModel):
    """`detector`: the frame detector's files per runtime and how a frame is looked at."""

    model_config = ConfigDict(extra="ignore")

    names: tuple[str, ...]
    imgsz: int  # the size it was trained at
    infer_imgsz: int = 0  # 0: each frame at `scale` × its long side
    scale: float = 0.75
    conf: float = 0.25
    onnx: str | None = None
    ncnn: str | None = None
    pt: str | None = None
    ncnn_imgsz: int | None = None  # NCNN's export has fixed shapes: the size it runs at
    index_px: float = INDEX_PX
    max_scale: float = MAX_SCALE
    hand: HandLookConfig | None = None

    def file_for(self, runtime: str) -> str | None:
        """The detector's file for a runtime (`torch` reads the PyTorch weights)."""
        return {"onnx": self.onnx, "ncnn": self.ncnn, "torch": self.pt}.get(runtime)


class SecondSpec(BaseModel):
    """`classifier.second`: the classifier taught covered corners and its threshold."""

    model_config = ConfigDict(extra="ignore")

    onnx: str
    min_prob: float


class ClassifierSpec(BaseModel):
    """`classifier`: the index classifier, how sure an answer must be, the second."""

    model_config = ConfigDict(extra="ignore")

    onnx: str
    turns: bool = False
    sure: float | None = SURE
    min_prob: float = MIN_CARD_PROB
    second: SecondSpec | None = None


class ModelManifest(BaseModel):
    model_config = ConfigDict(extra="ignore")  # `training`: a record only

    runtime: str
    detector: DetectorSpec
    classifier: ClassifierSpec | None = None  # none: the detector names the cards
    # each look's raw confidence → probability, and the sure line (`confidence.py`); none:
    # the raw figure shown, sure from 0.8
    calibration: CalibrationSpec | None = None
    path: Path = Field(default=Path(MANIFEST), exclude=True)

    @property
    def min_prob(self) -> float:
        """The classifier answer counted as a card."""
        return self.classifier.min_prob if self.classifier else MIN_CARD_PROB


def load_manifest(models: Path) -> ModelManifest:
    """The manifest of the model folder `models`; `ManifestError` if there is none that
    reads."""
    path = Path(models) / MANIFEST
    if not path.is_file():
        raise ManifestError(f"no trained model: {path} is missing (run `make model`)")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return ModelManifest.model_validate({**raw, "path": path})
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # ValidationError is one
        detail = _first_error(exc) if isinstance(exc, ValidationError) else str(exc)[:200]
        raise ManifestError(f"{path}: {detail}") from exc


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" + (f" ({exc.error_count()} errors)"
                                         if exc.error_count() > 1 else "")
