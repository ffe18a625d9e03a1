"""Write DECKS.md (the committed licence table) from the installed decks.json."""

from __future__ import annotations

import json
from pathlib import Path

HEADER = """# Card designs used by the synthetic data generator

The art itself is never committed: `lab/install_card_art.sh` installs it from Debian and
npm and renders it into `data/cards/` (git-ignored). This table is written by
`python -m scorekeeper_lab.training.synth install-art \
--decks-md lab/scorekeeper_lab/training/synth/DECKS.md`
from each package's own licence statement (Debian `copyright` files, npm `package.json` and
README). Split: `train` decks are sampled for training, `test` is the held-out design that
training never sees (change with `--test-decks` / `SCOREKEEPER_TEST_DECKS`); `unused` is a
deck of the held-out design's family (a re-colouring), kept out of training too.

| deck | split | package | source | licence |
| --- | --- | --- | --- | --- |
"""

LEFT_OUT = """
Not used (looked at, then left out): aisleriot `tango`, `tango_nuevo` (suit pip in the
top-right corner, not under the rank), `guyenne-classic` (court cards carry no rank letter),
`dondorf` (indices in all four corners), `ancient_french`, `berlin`, `lattmann`,
`rheinland`, `atlasnye*`, `Атласные`, `slavic_costumes`, `tarocco`, `swiss-xvii` (French,
German, Russian, Italian or Swiss indices or suits), `anglo_bitmap`, `gnomangelo_bitmap`
(bitmap copies); KDE `oxygen*` (rank alone in the top-right corner), `future` (not a card
face), `gm-paris`, `dondorf`, `nicu-ornamental` (copies of aisleriot designs), `konqi-modern`,
`xskat-french` (librsvg cannot render them), `xskat-german` (German suits). The Kennard
(react-playing-cards) joker has no corner index, so it is not used; nor are the 2-colour
big-face and 4-colour normal variants (near copies of the two kept).
"""


def write_decks_md(decks_json: Path, out: Path) -> None:
    index = json.loads(decks_json.read_text())
    rows = [f"| {d['name']} | {d['split']} | {d['package']} | `{d['source']}` | {d['licence']} |"
            for d in index["decks"]]
    out.write_text(HEADER + "\n".join(rows) + "\n" + LEFT_OUT)
