"""Rendered game tables → a `deck add --labels` file, as confirmed scans would store them.

`python -m scorekeeper_lab.training.scan_labels TABLES --count 20 --out scans.jsonl [--unboxed]`

Learning from play (`decks/learn.py`) stores a scan's cards as the players confirmed them:
each card the reader found keeps the reader's box, with its code corrected where it was
wrong; a card the reader read that is not there was removed by the players and is not
sent; a card the reader missed was added by hand and has no box: it is kept with the photo
as `unboxed` (`--unboxed` lists it so), and was left out before (the default here, as the
figures of docs/decks.md were measured). So each table of `synth games` (its labels say
which card lies where) is read with the generic model and its reads matched to the labels
as `scorekeeper-lab eval` matches them; the figures (the curve) add the first N tables of a
set rendered apart from the test tables.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from scorekeeper.vision.matching import match_reads
from scorekeeper.vision.reader import MODELS, CardReader, load_image
from scorekeeper_lab.evaluation.evaluate import read_labels


def confirmed(reader: CardReader, image_path: Path,
              labels: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The cards a confirmed scan of this table would send: the reader's boxes, the
    labels' codes (reads on no labelled card, or on one taken already, are dropped); and
    the codes of the labelled cards it missed (added by hand, without a box)."""
    truth: dict[int, tuple[str, list[list[float]]]] = {}
    for o in read_labels(labels):
        if o["kind"] == "index":
            truth.setdefault(o["card_id"], (o["card"], []))[1].append(o["box"])
    ids = list(truth)
    matched = match_reads(reader.read(load_image(image_path)).cards, [truth[k] for k in ids])
    out = [{"card": truth[ids[k]][0], "box": [round(v, 1) for v in card.box]}
           for k, card in matched.hits.items()]
    return out, [truth[ids[k]][0] for k in range(len(ids)) if k not in matched.hits]


def write_scans(tables: Path, count: int, out: Path, models: Path = MODELS,
                unboxed: bool = False) -> dict[str, int]:
    """The first `count` tables of `tables` as a labels file at `out` (`unboxed`: with the
    cards the reader missed, as the server now keeps them); what it holds."""
    reader = CardReader(models)
    out.parent.mkdir(parents=True, exist_ok=True)
    lines, cards, labelled, missed = [], 0, 0, 0
    for meta in sorted((tables / "cards").glob("*.json"))[:count]:
        image = tables / "images" / f"{meta.stem}.jpg"
        sent, lost = confirmed(reader, image, meta)
        cards += len(sent)
        missed += len(lost)
        labelled += len({o["card_id"] for o in read_labels(meta) if o["kind"] == "index"})
        line: dict[str, Any] = {"image": os.path.relpath(image, out.parent), "cards": sent}
        if unboxed and lost:
            line["unboxed"] = lost
        lines.append(json.dumps(line))
    out.write_text("\n".join(lines) + "\n")
    return {"scans": len(lines), "cards": cards, "labelled": labelled,
            "unboxed": missed if unboxed else 0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper_lab.training.scan_labels",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", type=Path, help="a `synth games` folder")
    parser.add_argument("--count", type=int, required=True, help="its first COUNT tables")
    parser.add_argument("--out", type=Path, required=True, help="the labels file to write")
    parser.add_argument("--models", type=Path, default=MODELS)
    parser.add_argument("--unboxed", action="store_true",
                        help="list the cards the reader missed as unboxed (added by hand)")
    args = parser.parse_args(argv)
    got = write_scans(args.tables, args.count, args.out, args.models, args.unboxed)
    sys.stdout.write(f"{args.out}: {got['scans']} scans, {got['cards']} of their "
                     f"{got['labelled']} cards confirmed with the reader's box"
                     + (f", {got['unboxed']} without" if args.unboxed else "") + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
