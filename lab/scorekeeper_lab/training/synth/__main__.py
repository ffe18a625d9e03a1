"""`python -m scorekeeper_lab.training.synth {install-art,render,preview,table,fans,games}`.

    install-art  rasterise the card art installed by lab/install_card_art.sh
    render       write a YOLO dataset: images/*.jpg, labels/*.txt, cards/*.json
    preview      a few scenes with their labels drawn, to look at
    table        the named test tables (tests/fixtures/layouts): NAME.jpg + NAME.json
    fans         the fan benchmark (synth/fans.py): `scorekeeper-lab eval --fans DIR`; with
                 --real, of cards cut from labelled photos (synth/realcards.py)
    games        random game tables (melds and hands of 2-4 players) at a set-up's scale,
                 in render's dataset layout plus truth/*.json: `scorekeeper-lab eval --synthetic`
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--decks", default="train", choices=["train", "test", "all", "fallback"],
                   help="deck split; 'fallback' is the built-in drawn deck (no art needed)")
    p.add_argument("--cards", type=Path, default=None, help="art cache (default data/cards)")
    p.add_argument("--test-decks", default=None,
                   help="comma-separated held-out deck names (default: from decks.json)")
    p.add_argument("--size", type=int, default=640)
    p.add_argument("--seed", type=int, default=0)


def _decks(args: argparse.Namespace) -> list | None:
    from scorekeeper_lab.training.synth.deckset import load_decks
    from scorekeeper_lab.training.synth.fallback import fallback_deck

    if args.decks == "fallback":
        return [fallback_deck()]
    return load_decks(args.decks, args.cards, args.test_decks)


def _fan_decks(args: argparse.Namespace) -> list:
    """`fans`' decks: the installed art, or the cards cut from `--real`'s photos."""
    if args.real is None:
        decks = _decks(args) or []
        if args.font_decks:
            from scorekeeper_lab.training.synth.fontdeck import make_decks

            decks = [*decks, *make_decks(args.font_decks, args.seed)]
        return decks
    from scorekeeper_lab.training.synth.realcards import faces_from_labels, real_deck, skip_names

    skip = skip_names(args.skip) if args.skip else None
    faces, why = faces_from_labels(args.real, args.real_images, skip)
    print(f"{len(faces)} cards cut ({len({f.card for f in faces})} codes); turned away: "
          + ", ".join(f"{k} {v}" for k, v in why.items() if k != "ok"), file=sys.stderr)
    if not faces:
        raise SystemExit("no card could be cut from the photos")
    return [real_deck(args.real.stem, faces)]


def _dump_truth(truth: dict) -> str:
    """JSON with one line per group and per card, so a fixture's truth reads at a glance."""
    import json

    lines = []
    for key, value in truth.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = ",\n".join(f"  {json.dumps(v)}" for v in value)
            lines.append(f' "{key}": [\n{items}\n ]')
        else:
            lines.append(f' "{key}": {json.dumps(value)}')
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _tables(args: argparse.Namespace) -> list[Path]:
    import cv2

    from scorekeeper_lab.training.synth import tables
    from scorekeeper_lab.training.synth.deckset import REPO, default_cards_dir, load_deck

    unknown = set(args.names) - set(tables.LAYOUTS)
    if unknown:
        raise SystemExit(f"unknown layout(s) {', '.join(sorted(unknown))}; "
                         f"have {', '.join(tables.LAYOUTS)}")
    deck = load_deck((args.cards or default_cards_dir()) / args.deck)
    if "JK" not in deck.by_card:
        art = None
        if args.deck.startswith("kennard_"):
            design = "4color-bf" if "4color" in args.deck else "2color"
            art = tables.kennard_joker_art(args.npm or REPO / "data" / "npm" / "package", design)
        deck = tables.with_joker(deck, art)
    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    for i, name in enumerate(args.names or tables.LAYOUTS):
        layout = tables.LAYOUTS[name]
        image, truth = tables.render_table(layout["spec"], deck, (args.width, args.height),
                                           seed=args.seed + i, surface=layout["surface"])
        jpg = args.out / f"{name}.jpg"
        cv2.imwrite(str(jpg), image, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        truth = {"name": name, "image": jpg.name, "spec": layout["spec"], **truth}
        (args.out / f"{name}.json").write_text(_dump_truth(truth))
        written.append(jpg)
    return written


def _games(args: argparse.Namespace) -> int:
    import json

    from scorekeeper_lab.training.synth import games

    lo, _, hi = args.players.partition("-")
    players = (int(lo), int(hi or lo))
    if not 1 <= players[0] <= players[1]:
        raise SystemExit(f"--players must be LO-HI with 1 <= LO <= HI, got {args.players}")
    setup = games.SETUPS[args.setup]
    if args.width:
        setup = setup.at_width(args.width)
    meta = games.render_games(args.out, args.count, _decks(args) or [], setup, args.seed,
                              players, args.mat, args.look, args.decks)
    print(json.dumps({"setup": meta["setup"], **meta["summary"]}))
    return 0


def main(argv: list[str] | None = None) -> int:
    from scorekeeper_lab.training.synth.compose import LEGACY, READABLE, Style

    ap = argparse.ArgumentParser(prog="python -m scorekeeper_lab.training.synth",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ins = sub.add_parser("install-art", help="render deck faces + index boxes into the cache")
    ins.add_argument("--cards", type=Path, default=None)
    ins.add_argument("--npm", type=Path, default=None,
                     help="unpacked @heruka_urgyen/react-playing-cards (default data/npm/package)")
    ins.add_argument("--workers", type=int, default=2)
    ins.add_argument("--test-decks", default=None)
    ins.add_argument("--decks-md", type=Path, default=None, help="also write this licence table")
    ren = sub.add_parser("render", help="write a YOLO dataset")
    _common(ren)
    ren.add_argument("--out", type=Path, required=True)
    ren.add_argument("--count", type=int, required=True)
    ren.add_argument("--workers", type=int, default=1)
    ren.add_argument("--classes", default="detector", choices=["detector", "cards"],
                     help="detector: 0=index 1=card; cards: 53 card classes for indices, 53=card")
    ren.add_argument("--index-min-visible", type=float, default=Style.index_min_visible)
    ren.add_argument("--pip-min-visible", type=float, default=Style.pip_min_visible,
                     help="share of an index's suit pip that must show for a label (0: any)")
    ren.add_argument("--distractors", type=float, default=Style.distractors,
                     help="share of scenes with printed matter that is not a card")
    ren.add_argument("--font-decks", type=int, default=0,
                     help="add this many procedural designs printed in installed fonts")
    ren.add_argument("--readable", action="store_true",
                     help="label covered corners by what a person reads of them, and draw "
                          "half the fans tight (compose.READABLE: the training scenes)")
    ren.add_argument("--print-wear", type=float, default=0.0,
                     help="share of face-up cards printed worn as a real deck's print is "
                          "(stroke weight, bleed, fade, paper, misregistration: synth/wear.py)")
    ren.add_argument("--legacy", action="store_true",
                     help="the earlier generator's scenes and labels (no distractors, no pip "
                          "rule): the old held-out set")
    pre = sub.add_parser("preview", help="scenes with labels drawn (PNG)")
    _common(pre)
    pre.add_argument("--out", type=Path, required=True)
    pre.add_argument("--count", type=int, default=8)
    tab = sub.add_parser("table", help="the named tables of tables.LAYOUTS, JPEG + JSON truth")
    tab.add_argument("--out", type=Path, required=True)
    tab.add_argument("--deck", default="kennard_2color",
                     help="installed deck to draw with (only kennard_* art is CC0)")
    tab.add_argument("--cards", type=Path, default=None, help="art cache (default data/cards)")
    tab.add_argument("--npm", type=Path, default=None,
                     help="react-playing-cards package, for the Kennard joker picture "
                          "(default data/npm/package)")
    tab.add_argument("--width", type=int, default=1280)
    tab.add_argument("--height", type=int, default=960)
    tab.add_argument("--quality", type=int, default=85, help="JPEG quality")
    tab.add_argument("--seed", type=int, default=0)
    tab.add_argument("names", nargs="*", help="layouts to write (default: all)")
    fan = sub.add_parser("fans", help="the fan benchmark: tight hands, every corner labelled")
    _common(fan)
    fan.add_argument("--out", type=Path, required=True)
    fan.add_argument("--count", type=int, default=200)
    fan.add_argument("--real", type=Path, default=None, metavar="LABELS",
                     help="cut the cards from these labelled photos (`deck add --labels` "
                          "format) and fan them instead of --decks (synth/realcards.py)")
    fan.add_argument("--real-images", type=Path, default=None,
                     help="where --real's image paths start (default: beside the file)")
    fan.add_argument("--skip", type=Path, default=None, metavar="LABELS",
                     help="leave out the photos this labels file names (an enrolment set)")
    fan.add_argument("--one-of-each", action="store_true",
                     help="each scene deals from one face of each card (with --real: a real "
                          "deck holds one of each card, the photos several cuts of some)")
    fan.add_argument("--font-decks", type=int, default=0,
                     help="procedural designs printed in the installed fonts (synth/fontdeck.py), "
                          "fanned beside the art decks: more print for training")
    fan.add_argument("--whole-deck", action="store_true",
                     help="each photo one deck's 52 cards in four fans of 13 (1600 × 1200), "
                          "with labels.jsonl for `deck add --labels`: a deck enrolled in fans")
    fan.add_argument("--spread", type=float, default=None, metavar="SHARE",
                     help="spread hands: one fan a scene, drawn until every card's best "
                          "corner is at most SHARE covered (0.05: each index shows whole)")
    fan.add_argument("--apart", type=float, default=None, metavar="SHARE",
                     help="hands laid out side by side in rows, drawn until each card shows "
                          "two corners at most SHARE covered (use --size 1024: cards stay "
                          "a fan's size)")
    gam = sub.add_parser("games", help="random game tables at a camera set-up's scale")
    gam.add_argument("--out", type=Path, required=True)
    gam.add_argument("--count", type=int, required=True)
    gam.add_argument("--decks", default="test", choices=["train", "test", "all", "fallback"],
                     help="deck designs, one drawn per table (test: the held-out design)")
    gam.add_argument("--cards", type=Path, default=None, help="art cache (default data/cards)")
    gam.add_argument("--test-decks", default=None,
                     help="comma-separated held-out deck names (default: from decks.json)")
    gam.add_argument("--setup", default="a3", choices=["a3", "a4", "table"],
                     help="camera and field: a3/a4 = 1280x960 over that scan mat with a "
                          "margin, table = 2304x1296 over a 90 cm table (games.SETUPS)")
    gam.add_argument("--width", type=int, default=None,
                     help="frame width, the set-up's field kept (default: the set-up's)")
    gam.add_argument("--players", default="2-4", help="players a table, LO-HI")
    gam.add_argument("--mat", type=float, default=0.5,
                     help="share of tables laid on the printed scan mat")
    gam.add_argument("--look", default="mild", choices=["mild", "harsh"],
                     help="mild: even light, clean camera; harsh: the random scenes' light, "
                          "glare, blur and JPEG")
    gam.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    if args.cmd == "install-art":
        from scorekeeper_lab.training.synth.deckset import REPO, default_cards_dir
        from scorekeeper_lab.training.synth.docs import write_decks_md
        from scorekeeper_lab.training.synth.install import install

        cards = args.cards or default_cards_dir()
        npm = args.npm or REPO / "data" / "npm" / "package"
        path = install(cards, npm, args.workers, args.test_decks)
        print(f"wrote {path}; montages in {cards / 'montage'}", file=sys.stderr)
        if args.decks_md:
            write_decks_md(path, args.decks_md)
        return 0
    if args.cmd == "render":
        from scorekeeper_lab.training.synth.dataset import render_dataset

        decks = _decks(args) if args.decks == "fallback" else None
        split = "train" if args.decks == "fallback" else args.decks
        style = LEGACY if args.legacy else Style(
            index_min_visible=args.index_min_visible, pip_min_visible=args.pip_min_visible,
            distractors=args.distractors, readable=args.readable,
            tight_fans=READABLE.tight_fans if args.readable else 0.0,
            print_wear=args.print_wear)
        n = render_dataset(args.out, args.count, args.size, args.seed, split, args.workers,
                           args.classes, style, args.cards, args.test_decks, decks,
                           args.font_decks)
        print(f"rendered {n} new images into {args.out}", file=sys.stderr)
        return 0
    if args.cmd == "table":
        for path in _tables(args):
            print(path)
        return 0
    if args.cmd == "games":
        return _games(args)
    if args.cmd == "fans":
        from scorekeeper_lab.training.synth.fans import render_deck_photos, render_fans

        if args.whole_deck:
            n = render_deck_photos(args.out, args.count, _fan_decks(args)[0], args.seed)
            print(f"rendered {n} photos of a whole deck into {args.out}", file=sys.stderr)
            return 0
        n = render_fans(args.out, args.count, _fan_decks(args), args.seed,
                        (args.size, args.size), args.one_of_each, args.spread, args.apart)
        print(f"rendered {n} fan scenes into {args.out}", file=sys.stderr)
        return 0
    from scorekeeper_lab.training.synth.preview import write_previews

    for p in write_previews(args.out, _decks(args) or [], args.count, args.size, args.seed):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
