"""Make ultralytics run fully offline: no font, weight or settings downloads.

Used by the PyTorch detector (`runtime = "torch"`) and by training
(lab/scorekeeper_lab/training/), so it sits on the runtime side.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def prepare(config_dir: Path | None = None) -> Path:
    """Point ultralytics at a writable folder inside the project holding its font."""
    cfg = config_dir or Path(os.environ.get("YOLO_CONFIG_DIR", ROOT / "data" / "yolo-config"))
    font_dir = cfg / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg)
    os.environ.setdefault("MPLCONFIGDIR", str(cfg / "matplotlib"))
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "0"
    font = font_dir / "Arial.ttf"
    if not font.exists():
        import matplotlib

        src = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        shutil.copy(src, font)
    return cfg

