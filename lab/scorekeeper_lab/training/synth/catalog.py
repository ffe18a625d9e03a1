"""Which installed card designs we use, where they come from, and the train/test split.

Only designs whose corner index reads the English way (A K Q J 10..2 over a suit pip in the
top-left corner, repeated rotated in the bottom-right) are listed: a French `R D V` or German
`K D B` deck would teach the 53-class detector wrong letters. Decks judged out after looking
at them (see DECKS.md): tango/tango_nuevo (suit pip in the other corner), guyenne-classic (court
cards have no rank letter), dondorf (indices in all four corners), the oxygen family (rank
top-right, no pip under it), konqi/xskat-french (librsvg cannot render them), bitmap
duplicates, and the non-English ones.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

AISLERIOT_DIR = "/usr/share/aisleriot/cards"
KDE_DIR = "/usr/share/carddecks"


@dataclass(frozen=True)
class DeckSource:
    """One card design: `kind` selects the id scheme, `family` groups re-colourings of one art."""

    name: str
    kind: str  # "aisleriot" | "kde" | "kennard"
    path: str  # SVG(Z) sheet, or the folder of per-card SVGs for kennard
    package: str
    family: str
    big_index: bool = False  # rank over a large pip (nicu designs): wider search window


def _ais(name: str, family: str | None = None, big: bool = False) -> DeckSource:
    return DeckSource(f"aisleriot_{name}", "aisleriot", f"{AISLERIOT_DIR}/{name}.svgz",
                      "gnome-cards-data", family or name, big)


def _kde(folder: str, svg: str, family: str | None = None, big: bool = False) -> DeckSource:
    return DeckSource(f"kde_{folder.removeprefix('svg-').replace('-', '_')}", "kde",
                      f"{KDE_DIR}/{folder}/{svg}", "kdegames-card-data-kf5", family or folder,
                      big)


CATALOG: tuple[DeckSource, ...] = (
    _ais("anglo"), _ais("anglo_modern"), _ais("anglo_modern_4_color", "anglo_modern"),
    _ais("anglo_poker"), _ais("bellot"), _ais("gnomangelo"), _ais("neoclassical"),
    _ais("neoclassical_4_color", "neoclassical"), _ais("orell"),
    _ais("ornamental", "nicu", big=True), _ais("paris"), _ais("plastic"), _ais("simplistic"),
    _ais("tigullio"),
    _kde("svg-ancient-egyptians", "Ancient_Egyptians.svgz"),
    _kde("svg-jolly-royal", "jolly-royal.svgz"),
    _kde("svg-nicu-white", "white.svgz", "nicu", big=True),
    _kde("svg-penguins", "penguins.svgz"),
    _kde("svg-standard", "standard.svgz"),
    _kde("svg-tigullio-international", "tigullio-international.svgz"),
    DeckSource("kennard_2color", "kennard", "2color", "@heruka_urgyen/react-playing-cards",
               "kennard"),
    DeckSource("kennard_4color_bigface", "kennard", "4color-bf",
               "@heruka_urgyen/react-playing-cards", "kennard_bf", big_index=True),
)

# The held-out design: a plain traditional English pattern (KDE "Standard") whose art shares
# no family with any training deck. Override with SCOREKEEPER_TEST_DECKS=a,b or --test-decks.
DEFAULT_TEST_DECKS: tuple[str, ...] = ("kde_standard",)


def test_deck_names(override: str | None = None) -> tuple[str, ...]:
    """The held-out deck names: argument, else environment, else the default."""
    raw = override or os.environ.get("SCOREKEEPER_TEST_DECKS", "")
    names = tuple(n.strip() for n in raw.split(",") if n.strip())
    return names or DEFAULT_TEST_DECKS


def split_names(all_names: list[str], families: dict[str, str], split: str,
                test_names: tuple[str, ...]) -> list[str]:
    """Deck names for `split`; train also drops every deck of a held-out deck's family, so
    a re-coloured twin of the test deck cannot leak into training."""
    if split == "test":
        return [n for n in all_names if n in test_names]
    if split == "all":
        return list(all_names)
    held = {families.get(n, n) for n in test_names}
    return [n for n in all_names if n not in test_names and families.get(n, n) not in held]
