"""`scorekeeper-lab`: the lab's commands (`python -m scorekeeper_lab` is the same).

    eval         accuracy of a model folder on rendered scenes, real photos, labelled
                 photos, or the fan benchmark alone (`--fans DIR`), and how far its shown
                 confidence can be trusted
    calibrate    fit each look's confidence → probability and the sure line on validation
                 sets, into the model folder's model.json
    deck-adapt   fine-tune the classifier on a table's deck; installed only when its check
                 sees a gain (the server's "Improve this deck" runs this, with `--events`)

Training the shipped model is `make model` (`python -m scorekeeper_lab.training.train`);
scenes are rendered by `python -m scorekeeper_lab.training.synth`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scorekeeper.cli.common import (
    EXIT_BAD_INPUT,
    add_deck_option,
    add_models,
    deck_for,
    models_dir,
    settings_for,
)
from scorekeeper.cli.decks import ADAPT_HELP, add_adapt_options


def _cmd_eval(args: argparse.Namespace) -> int:
    from scorekeeper_lab.evaluation.evaluate import open_reader, run

    if args.fans is not None:  # the fan benchmark alone
        from scorekeeper_lab.evaluation.fan_eval import eval_fans, format_fans
        from scorekeeper_lab.evaluation.reliability import SceneReads, format_figures, measure

        reader = open_reader(args.runtime, models_dir(args), sys.stdout, sys.stderr,
                             deck_for(args))
        if reader is None:
            return EXIT_BAD_INPUT
        reads: list[SceneReads] = []
        sys.stdout.write(format_fans(eval_fans(reader, args.fans, args.limit, reads)) + "\n")
        sys.stdout.write(format_figures("fans", measure(reads, reader.calibration)) + "\n")
        return 0
    return run(runtime=args.runtime, synthetic=args.synthetic, real=args.real,
               limit=args.limit, out=sys.stdout, models=models_dir(args), err=sys.stderr,
               deck=deck_for(args), labelled=args.labelled, skip=args.skip)


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from scorekeeper_lab.evaluation.calibrate_cmd import calibrate

    return calibrate(models=args.models or args.out, out_dir=args.out, val=args.val or [],
                     fans=args.fans or [], labelled=args.labelled, skip=args.skip or [],
                     real=args.real, runtime=args.runtime, out=sys.stdout, err=sys.stderr,
                     cache=args.cache, score_out=args.score_out, more=args.reads or [],
                     keep_maps=args.keep_maps, groups=args.groups)


def _event_line(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def _cmd_deck_adapt(args: argparse.Namespace) -> int:
    from scorekeeper.decks.profile import DeckError, open_deck
    from scorekeeper.vision.reader import VisionError
    from scorekeeper_lab.training.adapt import Cancelled, adapt_deck, no_report
    from scorekeeper_lab.training.adapt_scenes import adapt_deck_scenes

    report = _event_line if args.events else no_report
    models = models_dir(args)
    try:
        profile = open_deck(settings_for(args).data_dir, args.name)
        if args.scenes:
            outcome = adapt_deck_scenes(profile, models, args.minutes, args.seed,
                                        out=sys.stderr, detector=not args.classifier_only,
                                        fans=args.fans, report=report)
        else:
            outcome = adapt_deck(profile, models, args.minutes, args.seed, out=sys.stderr,
                                 report=report)
    except Cancelled as exc:
        sys.stderr.write(f"\n{exc}\n")
        return 130
    except (DeckError, VisionError) as exc:
        sys.stderr.write(f"scorekeeper deck adapt: {exc}\n")
        return EXIT_BAD_INPUT
    message = (f"deck {profile.name}: {outcome.message} "
               f"({outcome.steps} steps, {outcome.seconds / 60:.1f} min)")
    if args.events:
        report({"event": "done", "installed": outcome.installed, "message": message})
    else:
        sys.stdout.write(message + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper-lab",
                                     description="Make and measure scorekeeper's card model.")
    sub = parser.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("eval", help="accuracy on the held-out deck and real photographs")
    ev.add_argument("--runtime", choices=["onnx", "ncnn", "torch"], default=None)
    ev.add_argument("--synthetic", type=Path, default=None,
                    help="rendered held-out set (default: data/model-work/test)")
    ev.add_argument("--real", type=Path, default=None, help="real-photos-dev folder")
    ev.add_argument("--limit", type=int, default=None, help="first N synthetic images")
    ev.add_argument("--labelled", type=Path, default=None, metavar="FILE.jsonl",
                    help="only these labelled photos (`deck add --labels` format), exact "
                         "cards; photos beside the file, else in --real's images/")
    ev.add_argument("--skip", type=Path, action="append", default=None,
                    metavar="FILE.jsonl", help="with --labelled: leave out the photos this "
                                               "labels file names (a deck's enrolment)")
    ev.add_argument("--fans", type=Path, default=None, metavar="DIR",
                    help="only the fan benchmark: recall and false cards by how much of each "
                         "index is covered (scenes: `python -m scorekeeper_lab.training.synth "
                         "fans`)")
    add_deck_option(ev)
    add_models(ev)
    ev.set_defaults(func=_cmd_eval)

    cal = sub.add_parser("calibrate", help="fit the shown confidence and the sure line on "
                                           "validation sets (training designs only)")
    cal.add_argument("--val", type=Path, action="append", metavar="DIR",
                     help="rendered validation scenes (`synth render --decks train`)")
    cal.add_argument("--fans", type=Path, action="append", metavar="DIR",
                     help="validation fans (`synth fans --decks train`, or --real of the "
                          "validation half)")
    cal.add_argument("--labelled", type=Path, default=None, metavar="FILE.jsonl",
                     help="labelled photos to fit on: the validation half only")
    cal.add_argument("--skip", type=Path, action="append", metavar="FILE.jsonl",
                     help="with --labelled: leave out these photos (the judge half)")
    cal.add_argument("--real", type=Path, default=None, help="where --labelled's photos lie")
    cal.add_argument("--runtime", choices=["onnx", "ncnn", "torch"], default=None)
    cal.add_argument("--models", type=Path, default=None,
                     help="the model folder that reads (default: --out)")
    cal.add_argument("--out", type=Path, required=True,
                     help="the model folder whose model.json gets the calibration")
    cal.add_argument("--cache", type=Path, default=None, metavar="FILE.json",
                     help="keep the validation reads here; where it exists, fit from it "
                          "without reading the sets")
    cal.add_argument("--score-out", type=Path, default=None, metavar="FILE.json",
                     help="also fit the sure score (the lab's trial of more signals than "
                          "the raw confidence) and write it here")
    cal.add_argument("--reads", type=Path, action="append", metavar="FILE.json",
                     help="validation reads another run kept (--cache): fitted on too")
    cal.add_argument("--keep-maps", action="store_true",
                     help="keep --models' maps; choose only the lines (on the calibration "
                          "half, as the maps were split from it)")
    cal.add_argument("--groups", choices=["evidence", "path"], default="evidence",
                     help="lines of their own by evidence (two corners, or one; a group "
                          "too small keeps the pooled line) or by reading path (each "
                          "certified at 0.5 %% or never sure)")
    cal.set_defaults(func=_cmd_calibrate)

    adapt = sub.add_parser("deck-adapt", help=ADAPT_HELP)
    add_adapt_options(adapt)
    adapt.add_argument("--events", action="store_true",
                       help="progress and outcome as JSON lines on standard output")
    add_models(adapt)
    adapt.set_defaults(func=_cmd_deck_adapt)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))
