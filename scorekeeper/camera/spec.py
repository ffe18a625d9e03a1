"""Camera spec strings → cameras: `picamera2`, `opencv:0`, `replay:PATH`, `none`, `auto`.

Each source is an entry of the `CAMERAS` registry, as detectors and variants are: a pydantic
config (typed, validated, documented) and a class. Options ride on the spec as a query
string, e.g. `picamera2?size=4056x3040` or `opencv:1?width=1280&height=720`, so one settings
field can say everything. A stream URL keeps its own query string: options are split off
only when every key is an option.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from pydantic import BaseModel, ValidationError

from scorekeeper.camera.base import Camera, CameraError
from scorekeeper.camera.nocam import NoCamera, NoCameraConfig
from scorekeeper.camera.opencv_cam import OpenCVCamera, OpenCVConfig
from scorekeeper.camera.picam import Picamera2Camera, Picamera2Config, picamera2_present
from scorekeeper.camera.replay import ReplayCamera, ReplayConfig
from scorekeeper.registry import Plugin, Registry

log = logging.getLogger(__name__)
SAMPLES = Path(__file__).resolve().parent / "samples"


class CameraSpecError(ValueError):
    """A camera spec that cannot be understood; the message shows the accepted forms."""


@dataclass(frozen=True)
class Source(Plugin[Callable[[Any], Camera]]):
    """A camera source: its config and class, and how a spec string names it."""

    usage: str = ""  # the spec's form, for help texts
    target: str | None = None  # the config field that the part after "kind:" fills
    target_required: bool = False


CAMERAS: Registry[Source] = Registry("camera", [
    Source("picamera2", Picamera2Config, Picamera2Camera, "picamera2[?size=WxH]", "camera_num"),
    Source("opencv", OpenCVConfig, OpenCVCamera, "opencv:INDEX|URL[?width=W&height=H]",
           "source"),
    Source("replay", ReplayConfig, ReplayCamera, "replay:PATH", "path", target_required=True),
    Source("none", NoCameraConfig, NoCamera, "none"),
], error=CameraSpecError)
SPEC_HELP = ", ".join([*(source.usage for source in CAMERAS.entries()), "auto"])


def _split_options(kind: str, source: Source, rest: str) -> tuple[str, dict[str, str]]:
    if "?" not in rest:
        return rest, {}
    target, query = rest.rsplit("?", 1)
    pairs = parse_qsl(query, keep_blank_values=True)
    fields = set(source.config.model_fields) | {"size"}
    unknown = [k for k, _ in pairs if k not in fields]
    if not unknown:
        return target, dict(pairs)
    if "://" in rest:
        return rest, {}  # a URL's own query string
    raise CameraSpecError(f"unknown option {unknown[0]!r} for camera {kind!r}: use "
                          + ", ".join(sorted(fields - {source.target or ""})))


def parse_spec(spec: str, options: Mapping[str, Any] | None = None) -> tuple[str, BaseModel]:
    """'opencv:1?width=1280' → ('opencv', OpenCVConfig(source=1, width=1280, ...))."""
    spec = spec.strip()
    m = re.match(r"([A-Za-z0-9_]+)(:|(?=\?)|$)(.*)", spec, re.DOTALL)
    if m is None or m[1].lower() not in CAMERAS:
        raise CameraSpecError(f"unknown camera {spec!r}: use {SPEC_HELP}")
    kind, rest = m[1].lower(), m[3]
    source = CAMERAS.get(kind)
    target, opts = _split_options(kind, source, rest)
    values: dict[str, Any] = dict(opts)
    if "size" in values:
        w, _, h = str(values.pop("size")).lower().partition("x")
        values.update(width=w, height=h)
    if target:
        if source.target is None:
            raise CameraSpecError(f"camera {kind!r} takes no argument, got {spec!r}")
        values[source.target] = int(target) if target.isdigit() else target
    elif source.target_required:
        raise CameraSpecError(f"camera {kind!r} needs an argument: {kind}:{source.target.upper()}"
                              if source.target else f"camera {kind!r} needs an argument")
    values.update(options or {})
    try:
        return kind, source.config.model_validate(values)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise CameraSpecError(f"bad camera spec {spec!r}: {problems}") from exc


def camera_from_spec(spec: str | None, options: Mapping[str, Any] | None = None) -> Camera:
    """A closed camera for the spec; `None` or 'auto' picks one with `default_camera()`."""
    if spec is None or spec.strip().lower() in ("", "auto", "default"):
        return default_camera()
    kind, config = parse_spec(spec, options)
    return CAMERAS.get(kind).factory(config)


def default_camera(samples: Path = SAMPLES, try_opencv: bool = True) -> Camera:
    """The Pi camera if there is one, else webcam 0 if it gives a frame, else the samples."""
    if picamera2_present():
        log.info("camera: using the Raspberry Pi camera")
        return Picamera2Camera()
    if try_opencv:
        cam = OpenCVCamera(OpenCVConfig(source=0, warmup_frames=0))
        try:
            cam.open()
            cam.read()
        except CameraError as exc:
            log.info("camera: no usable webcam 0 (%s)", exc)
        else:
            log.info("camera: using OpenCV device 0")
            return cam
        finally:
            cam.close()
    log.info("camera: no camera found, replaying sample frames from %s", samples)
    return ReplayCamera(ReplayConfig(path=samples))
