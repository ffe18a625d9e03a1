"""`python -m scorekeeper.vision.synth {install-art,render,preview}`.

    install-art  rasterise the card art installed by scripts/install_card_art.sh
    render       write a YOLO dataset: images/*.jpg, labels/*.txt, cards/*.json
    preview      a few scenes with their labels drawn, to look at
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
    from scorekeeper.vision.synth.deckset import load_decks
    from scorekeeper.vision.synth.fallback import fallback_deck

    if args.decks == "fallback":
        return [fallback_deck()]
    return load_decks(args.decks, args.cards, args.test_decks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scorekeeper.vision.synth", description=__doc__,
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
    ren.add_argument("--index-min-visible", type=float, default=0.6)
    pre = sub.add_parser("preview", help="scenes with labels drawn (PNG)")
    _common(pre)
    pre.add_argument("--out", type=Path, required=True)
    pre.add_argument("--count", type=int, default=8)
    args = ap.parse_args(argv)

    if args.cmd == "install-art":
        from scorekeeper.vision.synth.deckset import REPO, default_cards_dir
        from scorekeeper.vision.synth.docs import write_decks_md
        from scorekeeper.vision.synth.install import install

        cards = args.cards or default_cards_dir()
        npm = args.npm or REPO / "data" / "npm" / "package"
        path = install(cards, npm, args.workers, args.test_decks)
        print(f"wrote {path}; montages in {cards / 'montage'}", file=sys.stderr)
        if args.decks_md:
            write_decks_md(path, args.decks_md)
        return 0
    if args.cmd == "render":
        from scorekeeper.vision.synth.dataset import render_dataset

        decks = _decks(args) if args.decks == "fallback" else None
        split = "train" if args.decks == "fallback" else args.decks
        n = render_dataset(args.out, args.count, args.size, args.seed, split, args.workers,
                           args.classes, args.index_min_visible, args.cards, args.test_decks,
                           decks)
        print(f"rendered {n} new images into {args.out}", file=sys.stderr)
        return 0
    from scorekeeper.vision.synth.preview import write_previews

    for p in write_previews(args.out, _decks(args) or [], args.count, args.size, args.seed):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
