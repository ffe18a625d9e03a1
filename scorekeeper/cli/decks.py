"""`scorekeeper deck list | remove | add | adapt | layout | enrol`.

The dispatch (settings, and the training import `adapt` needs) stays in scorekeeper/cli/__init__.py,
the one module allowed to reach training; everything else is here.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from scorekeeper.decks.profile import DeckError

Command = Callable[[argparse.Namespace], int]


ADAPT_HELP = ("fine-tune the classifier on the deck; installed only if it reads held-back "
              "photos no worse and shows a gain")


def add_adapt_options(adapt: argparse.ArgumentParser) -> None:
    """`deck adapt`'s options: the runtime's command passes them on to the lab's
    `deck-adapt`, which takes the same ones."""
    adapt.add_argument("name")
    adapt.add_argument("--minutes", type=float, default=5.0, help="training time (default 5)")
    adapt.add_argument("--scenes", action="store_true",
                       help="experimental: render scenes of the deck from its enrolled indices "
                            "and fine-tune the detector and classifier on them (docs/decks.md: "
                            "its detector has read held-back photos worse)")
    adapt.add_argument("--classifier-only", action="store_true",
                       help="with --scenes: keep the generic detector")
    adapt.add_argument("--fans", action="store_true",
                       help="with --scenes: draw half the deck's fans tight and teach its "
                            "covered corners by what shows (as `synth render --readable`)")
    adapt.add_argument("--seed", type=int, default=0)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], func: Command,
               common: Callable[[argparse.ArgumentParser], None]) -> None:
    """The `deck` command; `common` adds --models and --config to each action."""
    deck = sub.add_parser("deck", help="learn the table's own deck: enrol, add, adapt, list")
    actions = deck.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="the decks and what each has learned")
    remove = actions.add_parser("remove", help="delete a deck: its examples and its model")
    remove.add_argument("name")
    add = actions.add_parser("add", help="add labelled photos of a deck (creates it if new)")
    add.add_argument("name")
    add.add_argument("--labels", type=Path, required=True,
                     help='JSON lines: {"image": "PATH", "cards": [{"card": "QD", '
                          '"box": [x1, y1, x2, y2]}]}; PATH relative to the file')
    add_adapt_options(actions.add_parser("adapt", help=ADAPT_HELP))
    layout = actions.add_parser("layout", help="print the enrolment layout, or write its sheet")
    layout.add_argument("--out", type=Path, default=None,
                        help="write the sheet here (.pdf or .png) instead of printing it")
    layout.add_argument("--mat", choices=["A4", "A3"], default="A4")
    enrol = actions.add_parser("enrol", help="enrol a deck from photos of the prescribed "
                                             "layout on the scan mat (see `deck layout`)")
    enrol.add_argument("name")
    enrol.add_argument("photos", nargs="+", type=Path, help="at most 5, in the layout's order")
    for action in actions.choices.values():
        common(action)
    deck.set_defaults(func=func)


def cmd_list(data_dir: Path, models: Path, out: TextIO) -> int:
    from scorekeeper.decks.profile import list_decks

    decks = list_decks(data_dir)
    for d in decks:
        out.write(f"{d.summary(models)}\n" if not isinstance(d, DeckError) else f"broken: {d}\n")
    if not decks:
        out.write(f"no decks yet (in {data_dir / 'decks'}); `scorekeeper deck enrol` or "
                  "`scorekeeper deck add` makes one\n")
    return 0


def cmd_remove(data_dir: Path, name: str, out: TextIO) -> int:
    from scorekeeper.decks.profile import remove_deck

    out.write(f"removed deck {name!r} ({remove_deck(data_dir, name)})\n")
    return 0


def cmd_add(data_dir: Path, models: Path, name: str, labels: Path, out: TextIO) -> int:
    """Check the whole file, then cut and store each photo's examples."""
    from scorekeeper.decks.examples import store
    from scorekeeper.decks.labels import photo_examples, read_labels
    from scorekeeper.decks.profile import create_or_open
    from scorekeeper.vision.reader import CardReader, load_image

    photos = read_labels(labels)  # DeckError names the first bad line; nothing stored yet
    reader = CardReader(models)
    profile, created = create_or_open(data_dir, name)
    rng = random.Random(len(profile.examples()))
    added = 0
    for photo in photos:
        image = load_image(photo.path)
        dets, _ = reader.detect(image)
        examples = photo_examples(image, photo, dets, rng)
        store(profile, image, examples, f"{labels.name}:{photo.line}", photo.unboxed)
        added += sum(e.card != "none" for e in examples)
    out.write(f"{'created' if created else 'added to'} deck {name!r}: {added} index crops "
              f"from {len(photos)} photos; {profile.summary()}\n"
              f"next: scorekeeper deck adapt {name}\n")
    return 0


def run(args: argparse.Namespace, data_dir: Path, models: Path, out: TextIO) -> int:
    """Every action but `adapt` (scorekeeper/cli/__init__.py runs that one)."""
    if args.action == "list":
        return cmd_list(data_dir, models, out)
    if args.action == "remove":
        return cmd_remove(data_dir, args.name, out)
    if args.action == "add":
        return cmd_add(data_dir, models, args.name, args.labels, out)
    from scorekeeper.decks import enrol

    if args.action == "layout":
        return enrol.cmd_layout(args.mat, args.out, out)
    return enrol.cmd_enrol(data_dir, models, args.name, args.photos, out)
