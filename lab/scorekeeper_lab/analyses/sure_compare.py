"""Judge sets under several calibrations at once: each set is read once (its reads kept in
`--cache`, so a second run reads nothing), then weighed under the old rule (raw figure,
sure from 0.8), under each model.json's `calibration` named with `--under`, and under each
sure score (`calibrate --score-out`) named with `--score` (beside the last `--under`'s
calibration, whose `offer` map it keeps), and under each second-opinion veto
(`sure_veto --out`) named with `--veto` (beside the last `--under`'s maps); prints
`scorekeeper-lab eval`'s confidence lines per set and calibration, and one table; with
`--by-band`, a second table of each fan set's cards by how much of their best corner is
covered (`evaluation/by_band.py`).

    .venv/bin/python -m scorekeeper_lab.analyses.sure_compare \\
        --synthetic data/held-judge --fans data/fans-judge --fans data/fans-real-judge \\
        --labelled data/real-halves/judge.jsonl --real $R \\
        --under "raw confidence alone=models/model.json" --score "sure score=score.json" \\
        --cache data/judge-reads
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorekeeper.vision.confidence import Calibration, CalibrationSpec
from scorekeeper_lab.analyses.sure_veto import RULES, Vetoed, ask, with_disputes
from scorekeeper_lab.evaluation.by_band import BAND_HEADER, band_rows, by_band, place
from scorekeeper_lab.evaluation.reliability import (
    Figures,
    SceneReads,
    Shows,
    dump_reads,
    format_figures,
    load_reads,
    measure,
)
from scorekeeper_lab.evaluation.sure_score import Scored, SureScore


def _read_set(kind: str, where: Path, real: Path | None, models: Path, cache: Path
              ) -> list[SceneReads]:
    from scorekeeper_lab.evaluation.evaluate import eval_labelled, eval_synthetic, open_reader
    from scorekeeper_lab.evaluation.fan_eval import eval_fans, with_hands

    kept = cache / f"{kind}-{where.stem}.json"
    if kept.exists():
        # reads kept before they recorded a hand's size get it from the labels
        return with_hands(load_reads(kept), where) if kind == "fans" else load_reads(kept)
    reader = open_reader(None, models, sys.stdout, sys.stderr)
    assert reader is not None, f"{models}: no reader"
    reads: list[SceneReads] = []
    if kind == "synthetic":
        eval_synthetic(reader, where, reads=reads)
    elif kind == "fans":
        eval_fans(reader, where, reads=reads)
    else:
        eval_labelled(reader, where, real, None, reads)
    dump_reads(kept, reads)
    return reads


def _row(name: str, under: str, f: Figures) -> str:
    wrong = f.sure_wrong / max(1, f.sure)
    cover = f.right_sure / max(1, f.right)
    return (f"| {name} | {under} | {f.line:.4f} | {f.ece:.3f} | {f.sure_wrong}/{f.sure} "
            f"({wrong:.2%}) | {f.right_sure}/{f.right} ({cover:.1%}) | "
            f"{f.silent}/{f.scenes} (of {f.with_error}) | "
            f"{f.quiet}/{f.scenes - f.with_error} "
            f"({f.quiet / max(1, f.scenes - f.with_error):.0%}) |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=Path, action="append", default=[])
    parser.add_argument("--fans", type=Path, action="append", default=[])
    parser.add_argument("--labelled", type=Path, action="append", default=[])
    parser.add_argument("--real", type=Path, default=None)
    parser.add_argument("--models", type=Path, default=Path("models"))
    parser.add_argument("--under", action="append", default=[], metavar="NAME=MODEL.json")
    parser.add_argument("--score", action="append", default=[], metavar="NAME=SCORE.json")
    parser.add_argument("--veto", action="append", default=[], metavar="NAME=VETO.json")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--by-band", action="store_true",
                        help="also each fan set's cards by their best corner's covered share")
    parser.add_argument("--band-step", type=float, default=None, metavar="SHARE",
                        help="with --by-band: bands this wide (0.05) instead of the fan "
                             "benchmark's four")
    parser.add_argument("--by-evidence", action="store_true",
                        help="with --by-band: each band's cards read from one corner and "
                             "from two apart")
    args = parser.parse_args(argv)
    unders: list[tuple[str, Calibration | Shows]] = [("old rule (raw ≥ 0.8)", Calibration())]
    beside = Calibration()
    for item in args.under:
        name, _, path = item.partition("=")
        section = json.loads(Path(path).read_text(encoding="utf-8")).get("calibration")
        beside = Calibration(CalibrationSpec.model_validate(section) if section else None)
        unders.append((name, beside))
    for item in args.score:
        name, _, path = item.partition("=")
        score = SureScore.model_validate_json(Path(path).read_text(encoding="utf-8"))
        unders.append((name, Scored(beside, score)))
    rule = "second"
    for item in args.veto:
        name, _, path = item.partition("=")
        veto = json.loads(Path(path).read_text(encoding="utf-8"))
        unders.append((name, Vetoed(beside, veto["cap"], veto["line"])))
        rule = veto.get("rule", "second")  # every --veto shares one rule's marks
    sets = ([("synthetic", p) for p in args.synthetic] + [("fans", p) for p in args.fans]
            + [("labelled", p) for p in args.labelled])
    rows = ["| set | shown by | line | ECE | wrong among sure | right shown sure | "
            "silent error | no error, nothing to check |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    banded = list(BAND_HEADER)
    for kind, where in sets:
        reads = _read_set(kind, where, args.real, args.models, args.cache)
        if args.veto:  # each read card asked the veto's opinion (kept beside the reads)
            kept = args.cache / f"{kind}-{where.stem}.json"
            reads = with_disputes(reads, ask(kept, where, args.real, args.models,
                                             RULES[rule][0]), rule)
        labelled = (place(reads, where, args.band_step) if args.by_band and kind == "fans"
                    else None)
        for under, cal in unders:
            figures = measure(reads, cal)
            sys.stdout.write(format_figures(f"{where.name}, {under}", figures) + "\n")
            rows.append(_row(where.name, under, figures))
            if labelled is not None:
                banded += band_rows(where.name, under,
                                    by_band(reads, cal, labelled, args.by_evidence))
    sys.stdout.write("\n".join(rows) + "\n")
    if len(banded) > len(BAND_HEADER):
        sys.stdout.write("\n" + "\n".join(banded) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
