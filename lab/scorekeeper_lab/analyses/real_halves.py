"""Split the labelled real photos into a validation half (to calibrate the shown
confidence on real print) and a judge half (to measure it), by a fixed rule.

    .venv/bin/python -m scorekeeper_lab.analyses.real_halves \
        --labels models/eval/real-photos-dev-cards.jsonl --out data/real-halves

Writes `val.jsonl` and `judge.jsonl` (the file's lines, unchanged). A photo goes by a hash
of its name's stem with the number's last digit dropped (IMG_123 and IMG_128 go together),
so consecutive shots of one table, which often show the same cards, fall in one half.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from pathlib import Path


def half_of(image: str) -> str:
    """"val" or "judge" for a photo's file name."""
    stem = re.sub(r"\d\.\w+$", "", Path(image).name)
    return "val" if hashlib.sha1(stem.encode()).digest()[0] % 2 == 0 else "judge"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    halves: dict[str, list[str]] = {"val": [], "judge": []}
    for line in args.labels.read_text(encoding="utf-8").splitlines():
        if line.strip():
            halves[half_of(str(json.loads(line)["image"]))].append(line)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, lines in halves.items():
        (args.out / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(lines)} photos")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
