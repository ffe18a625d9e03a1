"""Carry the rasterised card art to a machine with no package access, losslessly.

The art cache (data/cards) is PNG; as lossless WebP it is a third of the size, which fits
the GPU machine's transfer limit. `pack` here, `unpack` there: pixels are identical.
"""

from __future__ import annotations

import json
import shutil
import sys
from multiprocessing import Pool
from pathlib import Path

from PIL import Image

SKIP = {"montage"}  # previews only; the renderer never reads them


def _convert(job: tuple[Path, Path, str, str | None]) -> tuple[str, str]:
    src, dst, ext, mode = job
    with Image.open(src) as image:
        # exact: keep the colour under transparent pixels, which resizing blends in
        options = {"lossless": True, "exact": True, "method": 4} if ext == ".webp" else {}
        # WebP drops an alpha channel that is opaque everywhere: put it back as it was
        out = image.convert(mode) if mode and image.mode != mode else image
        out.save(dst.with_suffix(ext), **options)
        return str(dst.with_suffix(ext)), image.mode


def copy_tree(src: Path, dst: Path, from_ext: str, to_ext: str) -> int:
    modes_file = src / "modes.json"
    modes = json.loads(modes_file.read_text()) if modes_file.exists() else {}
    jobs = []
    for path in src.rglob("*"):
        rel = path.relative_to(src)
        if path.is_dir() or rel.parts[0] in SKIP:
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == from_ext:
            jobs.append((path, dst / rel, to_ext, modes.get(str(rel.with_suffix("")))))
        elif path != modes_file:
            shutil.copy2(path, dst / rel)
    with Pool() as pool:
        done = pool.map(_convert, jobs, chunksize=16)
    if to_ext == ".webp":
        (dst / "modes.json").write_text(json.dumps(
            {str(Path(out).relative_to(dst).with_suffix("")): mode for out, mode in done}))
    return len(jobs)


if __name__ == "__main__":
    cmd, src, dst = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    exts = (".png", ".webp") if cmd == "pack" else (".webp", ".png")
    print(f"{cmd}: {copy_tree(src, dst, *exts)} images {src} → {dst}")
