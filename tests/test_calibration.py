"""Scan mat: printable files, detection under perspective, homography accuracy, zones."""

from __future__ import annotations

import argparse
import io
import json
import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.calibration import (
    Calibration,
    CalibrationError,
    best_calibration,
    calibrate_frame,
    group_by_zone,
    load_calibration,
    mat_layout,
    synth,
)
from scorekeeper.calibration.detect import detect_markers
from scorekeeper.calibration.layout import Layout, MatSize
from scorekeeper.calibration.mat import write_mat
from scorekeeper.camera import SAMPLES
from scorekeeper.cli.calibrate import add_parser

FRAME = (1280, 960)
DPI = 100  # enough for a 1280-px view; keeps the test quick
PPM = DPI / 25.4


@pytest.fixture(scope="module")
def mat_pngs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    """The mats as the user gets them: rendered to PNG files, read back."""
    out = tmp_path_factory.mktemp("mats")
    pngs = {}
    for size in ("A4", "A3"):
        write_mat(size, out, dpi=DPI)  # type: ignore[arg-type]
        pngs[size] = cv2.imread(str(out / f"mat-{size}.png"), cv2.IMREAD_COLOR)
    return pngs


def photographed(mat_png: np.ndarray, size: str, seed: int,
                 cover: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The mat seen from a random angle on clutter; returns (frame, true mm → frame)."""
    rng = np.random.default_rng(seed)
    layout = mat_layout(size)  # type: ignore[arg-type]
    top = mat_png.copy()
    for marker_id in cover:  # a hand over a marker
        (x0, y0), _, (x1, y1), _ = layout.marker_by_id[marker_id].corners_mm
        cv2.rectangle(top, (int(x0 * PPM) - 5, int(y0 * PPM) - 5),
                      (int(x1 * PPM) + 5, int(y1 * PPM) + 5), (90, 120, 200), -1)
    truth = synth.random_view(rng, layout.size_mm, FRAME)
    frame = synth.photograph(top, PPM, truth, synth.cluttered_background(rng, FRAME), rng)
    return frame, truth


def corners_mm(layout: Layout) -> np.ndarray:
    w, h = layout.size_mm
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)


@pytest.mark.parametrize("size", ["A4", "A3"])
@pytest.mark.parametrize("seed", range(5))
def test_recovered_homography_within_2mm(mat_pngs: dict[str, np.ndarray], size: str,
                                         seed: int) -> None:
    frame, truth = photographed(mat_pngs[size], size, seed)
    layout = mat_layout(size)  # type: ignore[arg-type]
    cal = calibrate_frame(frame, layout)
    assert cal.markers_seen == [0, 1, 2, 3]
    seen_at = synth.project(truth, corners_mm(layout))
    recovered = np.array([cal.to_mat_mm(tuple(p)) for p in seen_at])
    assert np.abs(recovered - corners_mm(layout)).max() < 2.0
    back = np.array([cal.to_frame(tuple(p)) for p in corners_mm(layout)])
    assert np.abs(back - seen_at).max() < 3.0  # pixels
    assert cal.rms_mm < 1.0


@pytest.mark.parametrize("size", ["A4", "A3"])
def test_auto_tells_a4_from_a3(mat_pngs: dict[str, np.ndarray], size: str) -> None:
    frame, _ = photographed(mat_pngs[size], size, seed=7)
    cal = best_calibration(frame, [mat_layout("A4"), mat_layout("A3")])
    assert cal.layout.name == size


def test_rectified_view_is_top_down(mat_pngs: dict[str, np.ndarray]) -> None:
    frame, _ = photographed(mat_pngs["A4"], "A4", seed=1)
    cal = calibrate_frame(frame, mat_layout("A4"), px_per_mm=4)
    top = cal.rectify(frame)
    assert top.shape == (840, 1188, 3) and cal.output_size == (1188, 840)
    found = detect_markers(top)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, quad in found.items():
        want = np.asarray(mat_layout("A4").marker_by_id[marker_id].corners_mm) * 4
        assert np.abs(quad - want).max() < 6  # px at 4 px/mm: 1.5 mm


def test_zone_of_known_points(mat_pngs: dict[str, np.ndarray]) -> None:
    frame, truth = photographed(mat_pngs["A4"], "A4", seed=2)
    cal = calibrate_frame(frame, mat_layout("A4"))

    def zone_at(x_mm: float, y_mm: float) -> object:
        (px,) = synth.project(truth, np.array([[x_mm, y_mm]]))
        return cal.zone_of(tuple(px))

    assert zone_at(90, 100) == "melds"
    assert zone_at(230, 100) == "hand"
    assert zone_at(150, 25) is None  # the title band
    assert zone_at(176, 100) is None  # the gap between the zones
    assert zone_at(400, 100) is None  # off the mat


def test_one_covered_marker_is_fine_two_are_not(mat_pngs: dict[str, np.ndarray]) -> None:
    frame, _ = photographed(mat_pngs["A4"], "A4", seed=3, cover=(2,))
    assert calibrate_frame(frame, mat_layout("A4")).markers_seen == [0, 1, 3]
    frame, _ = photographed(mat_pngs["A4"], "A4", seed=3, cover=(1, 2))
    with pytest.raises(CalibrationError, match=r"only 2 of 4 .*missing 1, 2") as err:
        calibrate_frame(frame, mat_layout("A4"))
    assert err.value.kind == "too_few"


def test_no_markers_is_a_clear_error() -> None:
    rng = np.random.default_rng(0)
    empty = synth.cluttered_background(rng, FRAME)
    with pytest.raises(CalibrationError, match="no markers of the A4 mat or A3 mat") as err:
        best_calibration(empty, [mat_layout("A4"), mat_layout("A3")])
    assert err.value.kind == "no_markers"
    assert "reads frames as they are" in str(err.value)


def test_save_load_and_other_resolutions(mat_pngs: dict[str, np.ndarray],
                                         tmp_path: Path) -> None:
    frame, truth = photographed(mat_pngs["A3"], "A3", seed=4)
    cal = calibrate_frame(frame, mat_layout("A3"), source="test")
    path = cal.save(tmp_path / "cal" / "current.json")
    loaded = load_calibration(path)
    assert loaded is not None and loaded.homography == cal.homography
    assert loaded.layout == mat_layout("A3")
    assert load_calibration(tmp_path / "missing.json") is None
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(CalibrationError, match="not a scorekeeper calibration"):
        Calibration.load(tmp_path / "bad.json")

    # the same view at half resolution (a preview stream) maps to the same millimetres
    (p,) = synth.project(truth, np.array([[200.0, 150.0]]))
    half = ((p[0] + 0.5) / 2 - 0.5, (p[1] + 0.5) / 2 - 0.5)
    x, y = loaded.to_mat_mm(half, frame_size=(640, 480))
    assert abs(x - 200) < 2 and abs(y - 150) < 2
    assert loaded.rectify(cv2.resize(frame, (640, 480))).shape[:2] == (1188, 1680)
    with pytest.raises(CalibrationError, match="aspect ratio"):
        loaded.rectify(np.zeros((480, 480, 3), np.uint8))


def test_drift_detects_a_bumped_camera(mat_pngs: dict[str, np.ndarray]) -> None:
    frame, _ = photographed(mat_pngs["A4"], "A4", seed=5)
    cal = calibrate_frame(frame, mat_layout("A4"))
    assert (cal.drift_mm(frame) or 99) < 1.0
    moved, _ = photographed(mat_pngs["A4"], "A4", seed=6)
    assert (cal.drift_mm(moved) or 0) > 10


@dataclass
class Card:
    card: str
    box: tuple[float, float, float, float]


def test_group_cards_by_zone(mat_pngs: dict[str, np.ndarray]) -> None:
    frame, truth = photographed(mat_pngs["A4"], "A4", seed=8)
    cal = calibrate_frame(frame, mat_layout("A4"))

    def card_at(name: str, x: float, y: float) -> Card:
        (px,) = synth.project(truth, np.array([[x, y]]))
        return Card(name, (px[0] - 20, px[1] - 30, px[0] + 20, px[1] + 30))

    cards = [card_at("TH", 60, 100), card_at("TD", 90, 100), card_at("QS", 240, 120)]
    groups = group_by_zone(cards, cal)
    assert [c.card for c in groups["melds"]] == ["TH", "TD"]
    assert [c.card for c in groups["hand"]] == ["QS"]
    assert group_by_zone(cards, None) == {None: cards}  # uncalibrated: frames as they are


# --- printable files and the CLI -----------------------------------------------------------

@pytest.mark.parametrize("size", ["A4", "A3"])
def test_mat_files(tmp_path: Path, size: MatSize) -> None:
    pdf, png, geo = write_mat(size, tmp_path, dpi=150)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    w_mm, h_mm = mat_layout(size).size_mm
    assert f"/MediaBox [0 0 {w_mm * 72 / 25.4:.3f}".rstrip("0").encode() in data
    assert len(data) < 20_000  # vector, not an embedded bitmap
    raw = png.read_bytes()
    ppm, _, unit = struct.unpack(">IIB", raw[raw.index(b"pHYs") + 4:][:9])
    assert unit == 1 and round(ppm * 0.0254) == 150  # prints at true size
    img = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert img.shape == (round(h_mm * 150 / 25.4), round(w_mm * 150 / 25.4))
    found = detect_markers(img)
    for marker_id, quad in found.items():
        want = np.asarray(mat_layout(size).marker_by_id[marker_id].corners_mm)
        assert np.abs((quad + 0.5) * 25.4 / 150 - want).max() < 0.5
    assert sorted(found) == [0, 1, 2, 3]
    meta = json.loads(geo.read_text())
    assert {z["name"] for z in meta["zones"]} == {"melds", "hand"}
    assert meta["markers"][0]["corners_mm"][0] == [10.0, 10.0]
    assert Layout.model_validate(meta) == mat_layout(size)


def test_committed_mats_match_the_code() -> None:
    assets = Path(__file__).resolve().parents[1] / "calibration"
    for size in ("A4", "A3"):
        meta = Layout.model_validate_json((assets / f"mat-{size}.json").read_text())
        assert meta == mat_layout(size)  # type: ignore[arg-type]
        assert (assets / f"mat-{size}.pdf").stat().st_size < 50_000
        assert (assets / f"mat-{size}.png").stat().st_size < 500_000


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="scorekeeper")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    if args.func.__name__ == "cmd_mat":
        return args.func(args, out), out.getvalue(), ""
    return args.func(args, out, err), out.getvalue(), err.getvalue()


def test_cli_mat(tmp_path: Path) -> None:
    code, out, _ = run_cli(["calibrate", "mat", "--size", "A3", "--out", str(tmp_path),
                            "--dpi", "50"])
    assert code == 0 and "mat-A3.pdf" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mat-A3.json", "mat-A3.pdf",
                                                         "mat-A3.png"]


def test_cli_calibrate_from_image_and_camera(tmp_path: Path) -> None:
    sample = SAMPLES / "sample-1-mat-a4.jpg"
    out_json = tmp_path / "current.json"
    code, out, _ = run_cli(["calibrate", "--image", str(sample), "--out", str(out_json)])
    assert code == 0 and "A4 mat: markers [0, 1, 2, 3]" in out
    assert load_calibration(out_json) is not None
    assert cv2.imread(str(tmp_path / "current-preview.jpg")).shape == (840, 1188, 3)

    code, out, _ = run_cli(["calibrate", "--camera", f"replay:{SAMPLES / 'sample-2-mat-a4.jpg'}",
                            "--mat", "A4", "--px-per-mm", "2", "--out", str(out_json)])
    assert code == 0
    cal = load_calibration(out_json)
    assert cal is not None and cal.output_size == (594, 420) and "replay:" in cal.source


def test_cli_calibrate_failures(tmp_path: Path) -> None:
    code, _, err = run_cli(["calibrate", "--image", str(SAMPLES / "sample-3-no-mat.jpg"),
                            "--out", str(tmp_path / "c.json")])
    assert code == 1 and "no markers" in err
    assert not (tmp_path / "c.json").exists()
    assert (tmp_path / "c-preview.jpg").exists()  # what the camera saw, for the user
    code, _, err = run_cli(["calibrate", "--camera", "webcam", "--out", str(tmp_path / "c")])
    assert code == 2 and "unknown camera" in err
    code, _, err = run_cli(["calibrate", "--camera", "none", "--out", str(tmp_path / "c")])
    assert code == 1 and "no camera configured" in err
    code, _, err = run_cli(["calibrate", "--image", str(tmp_path / "nope.jpg")])
    assert code == 2


def test_the_mats_own_print_is_known_in_millimetres() -> None:
    from scorekeeper.calibration.mat import on_print, printed_text_mm

    layout = mat_layout("A4")
    melds = next(z for z in layout.zones if z.name == "melds").polygon_mm
    (x0, y0), (x1, y1) = melds[0], melds[2]
    title = printed_text_mm("A4")[0]  # the first zone's title, inside the zone
    assert x0 <= title[0] + 2 <= x1 and y0 <= title[1] + 2 <= y1
    assert on_print(layout, ((title[0] + title[2]) / 2, (title[1] + title[3]) / 2))
    assert on_print(layout, (x0, (y0 + y1) / 2))  # on the zone's dashed outline
    assert not on_print(layout, ((x0 + x1) / 2, (y0 + y1) / 2 + 10))  # where melds lie
