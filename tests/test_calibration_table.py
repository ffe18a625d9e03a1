"""Table mode: markers round a whole table, a melds and a hand zone per seat."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.calibration import (
    CalibrationError,
    Layout,
    MarkerSpec,
    calibrate_frame,
    layout_for,
    square_table_layout,
    synth,
)
from scorekeeper.calibration.detect import detect_markers
from scorekeeper.calibration.mat import marker_sheets, write_marker_sheets

SHIPPED = Path(__file__).resolve().parents[1] / "calibration" / "table-4seat-square.json"
FRAME = (1600, 1200)
PPM = 1.5
WOOD = (70, 110, 160)


def table_photo(layout: Layout, seed: int, cover: tuple[int, ...] = ()
                ) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    top = synth.layout_image(layout, PPM, surface=WOOD)
    for marker_id in cover:
        (x0, y0), _, (x1, y1), _ = layout.marker_by_id[marker_id].corners_mm
        top[int(y0 * PPM) - 3:int(y1 * PPM) + 3, int(x0 * PPM) - 3:int(x1 * PPM) + 3] = WOOD
    truth = synth.random_view(rng, layout.size_mm, FRAME, fill=0.85, tilt=0.08)
    frame = synth.photograph(top, PPM, truth, synth.cluttered_background(rng, FRAME), rng)
    return frame, truth


def test_shipped_example_is_the_generated_one() -> None:
    layout = layout_for(str(SHIPPED))
    assert layout == square_table_layout()
    assert layout.kind == "table" and [m.id for m in layout.markers] == list(range(4, 12))
    seats = {z.seat for z in layout.zones if z.seat}
    assert seats == {"seat 1", "seat 2", "seat 3", "seat 4"}


@pytest.mark.parametrize("seed", range(3))
def test_every_seat_read_from_one_frame(seed: int) -> None:
    layout = square_table_layout()
    frame, truth = table_photo(layout, seed)
    cal = calibrate_frame(frame, layout, px_per_mm=1.0)
    assert cal.markers_seen == list(range(4, 12))
    assert cal.output_size == (900, 900)

    def zone_at(x: float, y: float) -> object:
        (px,) = synth.project(truth, np.array([[x, y]]))
        return cal.zone_of(tuple(px))

    assert zone_at(450, 840) == ("seat 1", "hand")
    assert zone_at(450, 650) == ("seat 1", "melds")
    assert zone_at(60, 450) == ("seat 2", "hand")
    assert zone_at(250, 450) == ("seat 2", "melds")
    assert zone_at(450, 60) == ("seat 3", "hand")
    assert zone_at(450, 250) == ("seat 3", "melds")
    assert zone_at(840, 450) == ("seat 4", "hand")
    assert zone_at(650, 450) == ("seat 4", "melds")
    assert zone_at(450, 450) == "centre"
    assert zone_at(-50, 450) is None
    corners = np.array([[0, 0], [900, 0], [900, 900], [0, 900]], float)
    got = np.array([cal.to_mat_mm(tuple(p)) for p in synth.project(truth, corners)])
    assert np.abs(got - corners).max() < 5.0  # mm, on a 900 mm table at ~1.2 px/mm


def test_covered_markers(tmp_path: Path) -> None:
    layout = square_table_layout()
    frame, _ = table_photo(layout, 5, cover=(4, 9, 10))
    assert calibrate_frame(frame, layout).markers_seen == [5, 6, 7, 8, 11]
    frame, _ = table_photo(layout, 5, cover=(4, 5, 6, 8, 9))
    with pytest.raises(CalibrationError, match=r"only 3 of 8 .*need 4"):
        calibrate_frame(frame, layout)


def test_a_mat_is_not_a_table() -> None:
    frame, _ = table_photo(square_table_layout(), 1)
    with pytest.raises(CalibrationError, match="no markers of the A4 mat"):
        calibrate_frame(frame, layout_for("A4"))


def test_layouts_are_validated() -> None:
    marker = MarkerSpec(id=4, center_mm=(50, 50), size_mm=60)
    with pytest.raises(ValueError, match="unique"):
        Layout(name="t", kind="table", size_mm=(900, 900), markers=[marker, marker],
               min_markers=1)
    with pytest.raises(FileNotFoundError, match="not A4, A3"):
        layout_for("A5")
    rotated = MarkerSpec(id=5, center_mm=(0, 0), size_mm=2, rotation_deg=90)
    assert rotated.corners_mm[0] == (1.0, -1.0)  # TL after a quarter turn clockwise


def test_marker_sheets(tmp_path: Path) -> None:
    layout = square_table_layout()
    pages = marker_sheets(layout)
    assert len(pages) == 2
    paths = write_marker_sheets(layout, tmp_path, dpi=100)
    assert [p.name for p in paths] == ["table-4seat-square-markers.pdf",
                                       "table-4seat-square-markers-1.png",
                                       "table-4seat-square-markers-2.png"]
    found = {**detect_markers(cv2.imread(str(paths[1]))),
             **detect_markers(cv2.imread(str(paths[2])))}
    assert sorted(found) == list(range(4, 12))
    side_mm = np.linalg.norm(found[4][1] - found[4][0]) * 25.4 / 100
    assert abs(side_mm - 60) < 1.0
