"""`scorekeeper-lab calibrate`: read the validation sets with the shipped reader, fit
(`calibration.fit`) and write the model folder's `calibration`.

Each set is scored as `scorekeeper-lab eval` scores it (`evaluate.eval_synthetic`,
`eval_labelled`, `fan_eval.eval_fans`), so a card is right here exactly when it is right
there. `cache`: a file the reads are kept in (`reliability.dump_reads`), read from instead
of the sets where it exists: refitting then costs no reading. `score_out`: also fit the
sure score (`sure_score`, `calibration.fit_halves`) and write it there, with its figures.
`more`: reads other runs kept, fitted on too. `keep_maps`: the model folder's maps kept,
only the lines chosen (`calibration.fit`). `groups`: what cards get lines of their own by
("evidence", or "path": a strict line per reading path, `calibration.fit`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorekeeper_lab.evaluation.calibration import fit, write_calibration
from scorekeeper_lab.evaluation.reliability import (
    SceneReads,
    dump_reads,
    format_figures,
    load_reads,
    measure,
)


def calibrate(models: Path, out_dir: Path, val: list[Path], fans: list[Path],
              labelled: Path | None, skip: list[Path], real: Path | None, runtime: str | None,
              out: Any, err: Any, cache: Path | None = None,
              score_out: Path | None = None, more: list[Path] | None = None,
              keep_maps: bool = False, groups: str = "evidence") -> int:
    from scorekeeper.vision.confidence import Calibration
    from scorekeeper_lab.evaluation.evaluate import (
        eval_labelled,
        eval_synthetic,
        open_reader,
        read_labelled,
    )
    from scorekeeper_lab.evaluation.fan_eval import eval_fans

    if not (val or fans or labelled or more):
        err.write("error: name at least one validation set (--val, --fans, --labelled, "
                  "--reads)\n")
        return 2
    kept = None
    if keep_maps:
        from scorekeeper.vision.manifest import load_manifest

        kept = load_manifest(models).calibration
        if kept is None or not kept.paths:
            err.write(f"error: --keep-maps: {models}/model.json has no maps to keep\n")
            return 2
    reads: list[SceneReads] = []
    names: list[str] = [f"{root} (rendered scenes)" for root in val]
    names += [f"{root} (fans)" for root in fans]
    if labelled is not None:
        less = f" less {', '.join(map(str, skip))}" if skip else ""
        names.append(f"{labelled}{less} (labelled photos)")
    names += [f"{f} (kept reads)" for f in more or []]
    if cache is not None and cache.exists():
        reads = load_reads(cache)
    elif val or fans or labelled:
        reader = open_reader(runtime, models, out, err)
        if reader is None:
            return 2
        for root in val:
            eval_synthetic(reader, root, reads=reads)
        for root in fans:
            eval_fans(reader, root, reads=reads)
        if labelled is not None:
            left_out = {Path(p.image).name for f in skip for p in read_labelled(f)}
            eval_labelled(reader, labelled, real, left_out, reads)
        if cache is not None:
            dump_reads(cache, reads)
    for f in more or []:
        reads += load_reads(f)
    spec = fit(reads, "; ".join(names), keep_maps=kept, groups=groups)
    path = write_calibration(out_dir, spec)
    out.write(f"{len(reads)} validation scenes, {sum(len(s.cards) for s in reads)} read "
              f"cards; looks fitted: {', '.join(spec.paths) or 'none'}; sure line "
              f"{spec.sure:.4f}" + "".join(f", {g} {v:.4f}" for g, v in spec.lines.items())
              + f"\nwritten to {path}\n")
    out.write(format_figures("validation (both halves, for the record)",
                             measure(reads, Calibration(spec))) + "\n")
    if score_out is not None:
        from scorekeeper_lab.evaluation.calibration import fit_halves
        from scorekeeper_lab.evaluation.sure_score import Scored

        score = fit_halves(reads)
        score_out.write_text(score.model_dump_json(indent=1) + "\n", encoding="utf-8")
        out.write(f"sure score: {score.sure_rule}; line {score.line:.5f}\nwritten to "
                  f"{score_out}\n")
        out.write(format_figures("validation, sure score (both halves, for the record)",
                                 measure(reads, Scored(Calibration(spec), score))) + "\n")
    return 0
