"""`deck adapt` for an experiment: the adapted classifier is installed whatever the install
check says, so what the method learns can be measured on photos the check never sees.

    SCOREKEEPER_DATA_DIR=DIR .venv/bin/python -m scorekeeper_lab.analyses.adapt_candidate DIR NAME \
        [--minutes 10] [--seed 0] [--hold-back 0.2] [--composed 16]
    SCOREKEEPER_DATA_DIR=DIR .venv/bin/scorekeeper-lab eval --deck NAME --fans SCENES

Never on a table's own data folder: the check is what keeps a worse model from a game.
The check's own figures are printed first (`real check: ...`). `--hold-back 0` trains on
all but one of the deck's cards (the check keeps at least one). docs/decks.md, "A deck
enrolled from one photo of it in fans", was measured with it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import scorekeeper_lab.training.adapt as adapt
import scorekeeper_lab.training.adapt_check as adapt_check
from scorekeeper.decks.profile import open_deck


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data_dir", type=Path, help="the data folder holding decks/NAME")
    ap.add_argument("name")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hold-back", type=float, default=adapt_check.HOLD_BACK,
                    help="share of the deck's cards held back for the check")
    ap.add_argument("--composed", type=int, default=adapt.COMPOSED,
                    help="composed crops of each card without one (0: none)")
    ap.add_argument("--models", type=Path, default=Path("models"))
    args = ap.parse_args()

    adapt_check.HOLD_BACK = args.hold_back
    adapt.COMPOSED = args.composed
    real_check = adapt.crop_check

    def check(*a: Any, **k: Any) -> dict:
        c = real_check(*a, **k)
        print("real check:", {x: v for x, v in c.items() if not x.endswith("_key")},
              file=sys.stderr)
        c["adapted_key"] = (float("inf"), 0)  # the check's verdict is set aside
        return c

    adapt.crop_check = check
    adapt.refusal = lambda mine, rivals: None  # type: ignore[assignment]
    outcome = adapt.adapt_deck(open_deck(args.data_dir, args.name), args.models,
                               args.minutes, args.seed, out=sys.stderr)
    print(f"{outcome.message} ({outcome.steps} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
