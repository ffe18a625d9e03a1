"""Which cards a reader gets wrong on a fan set, and whether a deck's enrolment showed them.

    .venv/bin/python -m scorekeeper_lab.analyses.fan_confusions data/fans-real-test \\
        [--deck data/real-deck-20-after:real ...] [--enrolled data/real-deck/enrol-20.jsonl]

`scorekeeper-lab eval --fans` counts false cards per band; this names them (labelled card →
read card, per band, most frequent first) for the generic model and each `--deck
DATA_DIR:NAME`, scored by the same matching (`fan_eval`), so two readers' mistakes on the
same scenes can be set side by side. `--enrolled`: cards under 40 % covered split by
whether the enrolment photos show their code.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from scorekeeper.decks.profile import deck_for_reading
from scorekeeper.vision.matching import match_reads
from scorekeeper.vision.reader import CardReader, load_image
from scorekeeper_lab import REPO
from scorekeeper_lab.evaluation.evaluate import read_labels
from scorekeeper_lab.evaluation.fan_eval import BAND_NAMES, fan_truth

ROOT = REPO


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fans", type=Path)
    ap.add_argument("--models", type=Path, default=ROOT / "models")
    ap.add_argument("--deck", action="append", default=[], metavar="DATA_DIR:NAME")
    ap.add_argument("--enrolled", type=Path, default=None)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--limit", type=int, default=None, help="the first N scenes only")
    args = ap.parse_args()
    readers = {"generic": CardReader(args.models)}
    for spec in args.deck:
        data_dir, name = spec.rsplit(":", 1)
        profile, warning = deck_for_reading(Path(data_dir), name)
        if warning or profile is None:
            raise SystemExit(f"{spec}: {warning}")
        readers[spec] = CardReader(args.models, deck=profile)
    enrolled = {c["card"] for line in args.enrolled.read_text().splitlines() if line.strip()
                for c in json.loads(line)["cards"]} if args.enrolled else None
    wrong: dict[str, Counter[str]] = {n: Counter() for n in readers}
    tally: dict[str, Counter[str]] = {n: Counter() for n in readers}
    for meta in sorted((args.fans / "cards").glob("*.json"))[:args.limit]:
        truth = fan_truth(read_labels(meta))
        ids = list(truth)
        image = load_image(args.fans / "images" / f"{meta.stem}.jpg")
        for name, reader in readers.items():
            hits = match_reads(reader.read(image).cards,
                               [(truth[c]["card"], truth[c]["boxes"]) for c in ids]).hits
            for k, cid in enumerate(ids):
                t = truth[cid]
                got = hits.get(k)
                seen = "" if enrolled is None else \
                    (" enrolled" if t["card"] in enrolled else " not enrolled")
                outcome = "missed" if got is None else \
                    "exact" if got.card == t["card"] else "false"
                if BAND_NAMES.index(t["band"]) < 2:
                    tally[name][f"under 40 %{seen}: {outcome}"] += 1
                if got is not None and outcome == "false":
                    wrong[name][f"{t['band']} {t['card']} → {got.card}"] += 1
    for name in readers:
        print(name)
        for key, n in sorted(tally[name].items()):
            print(f"  {key} {n}")
        print("  false: " + ", ".join(f"{k} ×{n}" for k, n in wrong[name].most_common(args.top)))


if __name__ == "__main__":
    main()
