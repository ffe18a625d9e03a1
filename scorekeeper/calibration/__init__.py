"""Scan-mat and table calibration: printable markers, frame → millimetres, zones.

    cal = best_calibration(frame, [mat_layout("A4"), mat_layout("A3")])
    cal.save(path); cal = load_calibration(path)   # None when never calibrated
    cal.zone_of((x, y))        # "melds" | "hand" | None, or ("seat 2", "melds") for tables
    cal.to_mat_mm((x, y)); cal.rectify(frame)

Names are imported on first use, so `scorekeeper.cli.calibrate` (which the command line
loads for every command to build its parser) does not pull in OpenCV.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Calibration": "calibration", "CalibrationError": "calibration", "ZoneKey": "calibration",
    "best_calibration": "calibration", "calibrate_frame": "calibration",
    "group_by_zone": "calibration", "load_calibration": "calibration",
    "Layout": "layout", "MarkerSpec": "layout", "Zone": "layout", "layout_for": "layout",
    "mat_layout": "layout", "square_table_layout": "table",
}
__all__ = [
    "Calibration",
    "CalibrationError",
    "Layout",
    "MarkerSpec",
    "Zone",
    "ZoneKey",
    "best_calibration",
    "calibrate_frame",
    "group_by_zone",
    "layout_for",
    "load_calibration",
    "mat_layout",
    "square_table_layout",
]

if TYPE_CHECKING:
    from scorekeeper.calibration.calibration import (
        Calibration,
        CalibrationError,
        ZoneKey,
        best_calibration,
        calibrate_frame,
        group_by_zone,
        load_calibration,
    )
    from scorekeeper.calibration.layout import Layout, MarkerSpec, Zone, layout_for, mat_layout
    from scorekeeper.calibration.table import square_table_layout


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
