"""Draw the reliability diagram of `scorekeeper-lab eval` outputs (its "reliability"
lines): per set, the share of cards right against the probability shown, per equal-mass
bin; on the diagonal, a shown figure is a card's chance of being right.

    .venv/bin/scorekeeper-lab eval --fans data/fans-judge > fans.txt   # and other sets
    .venv/bin/python -m scorekeeper_lab.analyses.reliability_plot fans.txt ... \
        --out docs/img/reliability.png
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

SET = re.compile(r"^confidence, (.+?): ECE ([0-9.]+)")
BIN = re.compile(r"([0-9.]+)→([0-9.]+) \((\d+)\)")


def parse(text: str) -> list[tuple[str, float, list[tuple[float, float, int]]]]:
    """(set name, ECE, bins) for each set an eval output reports."""
    out: list[tuple[str, float, list[tuple[float, float, int]]]] = []
    for line in text.splitlines():
        if m := SET.match(line):
            out.append((m.group(1), float(m.group(2)), []))
        elif line.strip().startswith("reliability") and out:
            out[-1][2].extend((float(p), float(r), int(n)) for p, r, n in BIN.findall(line))
    return out


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outputs", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    ax.plot([0, 1.005], [0, 1.005], color="grey", linestyle="--", linewidth=1)
    for path in args.outputs:
        for name, ece, bins in parse(path.read_text(encoding="utf-8")):
            ax.plot([b[0] for b in bins], [b[1] for b in bins], marker="o", markersize=3,
                    label=f"{path.stem}: {name} (ECE {ece:.3f})")
    ax.set_xlabel("probability shown (bin mean)")
    ax.set_ylabel("share of cards right")
    ax.set_xlim(0.65, 1.0)
    ax.set_ylim(0.65, 1.005)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Read cards: shown confidence against right (15 equal-mass bins)", fontsize=9)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
