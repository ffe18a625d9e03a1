"""`scorekeeper calibrate …`: print the mat, measure it, save the calibration.

The command line adds it with `add_parser(subparsers)`; each command returns an exit code
(0 done, 1 no usable mat or camera, 2 bad input) and prints what a person must do next.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

if TYPE_CHECKING:  # the heavy modules load only when a command runs
    import numpy as np

    from scorekeeper.calibration.calibration import Calibration
    from scorekeeper.calibration.layout import Layout

from scorekeeper.cli.common import EXIT_BAD_INPUT

EXIT_FAILED = 1
ASSETS = Path("calibration")
MatSize = Literal["A4", "A3"]  # as layout.MatSize and MAT_SIZES, repeated to keep the parser light
MAT_SIZES: tuple[MatSize, ...] = ("A4", "A3")


def default_calibration_path() -> Path:
    """<data dir>/calibration/current.json, the data dir as the server's settings say."""
    from scorekeeper.settings import Settings

    return Settings().data_dir / "calibration" / "current.json"


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """`calibrate [options]`, `calibrate mat [options]`, `calibrate markers --layout F`."""
    cal = subparsers.add_parser(
        "calibrate", help="find the scan mat in a frame and save the calibration",
        description="Find the scan mat's markers in a camera frame (or --image), save the "
                    "frame→mat homography and a preview. Subcommands print the mat.")
    cal.add_argument("--camera", default=None,
                     help="camera spec (default: SCOREKEEPER_CAMERA, else auto-detect)")
    cal.add_argument("--image", type=Path, default=None, help="calibrate from this image")
    which = cal.add_mutually_exclusive_group()
    which.add_argument("--mat", default="auto", choices=["auto", *MAT_SIZES],
                       help="mat size (default: auto, the better fit of A4 and A3)")
    which.add_argument("--layout", type=Path, default=None,
                       help="table mode: a layout JSON, e.g. calibration/table-4seat-square.json")
    cal.add_argument("--px-per-mm", type=float, default=4.0,
                     help="scale of the rectified top-down view (default 4)")
    cal.add_argument("--out", type=Path, default=None,
                     help="calibration JSON (default: <data dir>/calibration/current.json)")
    cal.add_argument("--preview", type=Path, default=None,
                     help="preview image (default: next to the JSON, *-preview.jpg)")
    cal.set_defaults(func=cmd_calibrate)

    sub = cal.add_subparsers(dest="calibrate_command", metavar="{mat,markers}")
    mat = sub.add_parser("mat", help="write the printable scan mat (PDF, PNG, geometry JSON)")
    mat.add_argument("--size", choices=[*MAT_SIZES, "all"], default="all")
    mat.add_argument("--out", type=Path, default=ASSETS, help="folder (default: calibration/)")
    mat.add_argument("--dpi", type=float, default=300, help="PNG resolution (default 300)")
    mat.set_defaults(func=cmd_mat)
    markers = sub.add_parser("markers", help="write printable marker sheets for a table layout")
    markers.add_argument("--layout", type=Path, required=True, help="table layout JSON")
    markers.add_argument("--out", type=Path, default=ASSETS, help="folder (default: calibration/)")
    markers.add_argument("--dpi", type=float, default=300)
    markers.set_defaults(func=cmd_markers)
    return cal


def cmd_mat(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from scorekeeper.calibration.mat import write_mat

    sizes: tuple[MatSize, ...] = MAT_SIZES if args.size == "all" else (args.size,)
    for size in sizes:
        for path in write_mat(size, args.out, args.dpi):
            out.write(f"wrote {path}\n")
    out.write("Print the PDF at 100 % (actual size) and check the ruler measures 100 mm.\n")
    return 0


def cmd_markers(args: argparse.Namespace, out: TextIO = sys.stdout,
                err: TextIO = sys.stderr) -> int:
    from scorekeeper.calibration.layout import Layout
    from scorekeeper.calibration.mat import write_marker_sheets

    try:
        layout = Layout.load(args.layout)
    except (OSError, ValueError) as exc:
        err.write(f"{args.layout}: not a usable layout: {exc}\n")
        return EXIT_BAD_INPUT
    for path in write_marker_sheets(layout, args.out, args.dpi):
        out.write(f"wrote {path}\n")
    out.write(f"Place each marker's centre where its label says ({layout.name}).\n")
    return 0


def _grab_frame(args: argparse.Namespace, err: TextIO) -> tuple[np.ndarray | None, str, int]:
    import cv2

    if args.image is not None:
        frame = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
        if frame is None:
            err.write(f"{args.image}: not an image that can be read\n")
            return None, "", EXIT_BAD_INPUT
        return frame, str(args.image), 0
    from scorekeeper.camera import CameraError, CameraSpecError, camera_from_spec
    from scorekeeper.settings import Settings

    spec = args.camera if args.camera is not None else Settings().camera
    try:
        camera = camera_from_spec(spec)
    except CameraSpecError as exc:
        err.write(f"{exc}\n")
        return None, "", EXIT_BAD_INPUT
    try:
        camera.open()
        frame = camera.read()
    except CameraError as exc:
        err.write(f"camera: {exc}\n")
        return None, "", EXIT_FAILED
    finally:
        camera.close()
    source = spec or str(camera.info().get("kind", "auto"))
    return frame, f"camera {source}", 0


def _layouts(args: argparse.Namespace, err: TextIO) -> list[Layout] | None:
    from scorekeeper.calibration.layout import Layout, mat_layout

    if args.layout is not None:
        try:
            return [Layout.load(args.layout)]
        except (OSError, ValueError) as exc:
            err.write(f"{args.layout}: not a usable layout: {exc}\n")
            return None
    mats: tuple[MatSize, ...] = MAT_SIZES if args.mat == "auto" else (args.mat,)
    return [mat_layout(s) for s in mats]


def cmd_calibrate(args: argparse.Namespace, out: TextIO = sys.stdout,
                  err: TextIO = sys.stderr) -> int:
    import cv2

    from scorekeeper.calibration.calibration import CalibrationError, best_calibration
    from scorekeeper.calibration.preview import preview

    layouts = _layouts(args, err)
    if layouts is None:
        return EXIT_BAD_INPUT
    frame, source, code = _grab_frame(args, err)
    if frame is None:
        return code
    json_path = args.out or default_calibration_path()
    preview_path = args.preview or json_path.with_name(json_path.stem + "-preview.jpg")
    try:
        cal = best_calibration(frame, layouts, args.px_per_mm, source)
    except CalibrationError as exc:
        preview_path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(preview_path), frame)
        err.write(f"calibration failed: {exc}\n(the frame is in {preview_path})\n")
        return EXIT_FAILED
    _warn_other_size(frame, cal, args, err)
    cal.save(json_path)
    cv2.imwrite(str(preview_path), preview(cal, frame))
    w, h = cal.output_size
    out.write(f"{cal.layout.name} {cal.layout.kind}: markers {cal.markers_seen}, fit rms "
              f"{cal.rms_mm:.2f} mm (worst {cal.max_mm:.2f} mm); top-down view {w}×{h} px\n"
              f"wrote {json_path}\nwrote {preview_path} (check the zones sit on the mat)\n")
    return 0


def _warn_other_size(frame: np.ndarray, cal: Calibration, args: argparse.Namespace,
                     err: TextIO) -> None:
    """A4 and A3 share marker ids: a size given by hand is checked against the other."""
    from scorekeeper.calibration.calibration import CalibrationError, calibrate_frame
    from scorekeeper.calibration.layout import mat_layout

    if args.layout is not None or args.mat == "auto":
        return
    other = "A3" if args.mat == "A4" else "A4"
    try:
        alt = calibrate_frame(frame, mat_layout(other))  # type: ignore[arg-type]
    except CalibrationError:
        return
    if alt.rms_mm * 3 < cal.rms_mm:
        err.write(f"warning: this looks like an {other} mat (fit {alt.rms_mm:.2f} mm vs "
                  f"{cal.rms_mm:.2f} mm); try --mat {other} or --mat auto\n")
