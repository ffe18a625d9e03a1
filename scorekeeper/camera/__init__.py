"""Camera sources behind one small interface, and a supervisor that keeps one alive.

    cam = camera_from_spec("replay:tests/fixtures/frames")   # or picamera2, opencv:0, none
    CAMERAS.names()                # the sources, each with its typed config class
    sup = CameraSupervisor(cam); sup.start()
    frame = sup.capture()          # BGR ndarray, or None while the camera is down
    jpeg = sup.snapshot()          # always bytes: a placeholder says why when down
    sup.status().state             # "ok" | "lost" | "busy" | "none"
"""

from scorekeeper.camera.base import Camera, CameraError, Reason
from scorekeeper.camera.spec import (
    CAMERAS,
    SAMPLES,
    CameraSpecError,
    camera_from_spec,
    default_camera,
    parse_spec,
)
from scorekeeper.camera.supervisor import CameraStatus, CameraSupervisor

__all__ = [
    "CAMERAS",
    "SAMPLES",
    "Camera",
    "CameraError",
    "CameraSpecError",
    "CameraStatus",
    "CameraSupervisor",
    "Reason",
    "camera_from_spec",
    "default_camera",
    "parse_spec",
]
