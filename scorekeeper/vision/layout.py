"""Cards on the table → melds and leftovers, as each variant must read them.

Cards laid together (touching or overlapping rows) are clustered; a cluster is kept as a
meld when the rules say it is one, and the meld solver splits clusters that hold two melds
side by side. Cards in the mat's hand zone, or in no valid meld, are leftovers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median
from typing import Any

from scorekeeper.rules.cards import Card, parse_card, pip_value
from scorekeeper.rules.melds import MeldRules, is_meld
from scorekeeper.rules.scoring import deck_for, meld_rules_for
from scorekeeper.rules.solver import solve
from scorekeeper.rules.variants import variant_for
from scorekeeper.vision.pairing import PhysicalCard

NEIGHBOUR_GAP = 0.25  # cards closer than this × the scene's card size belong to one group
CARD_PER_INDEX = 4.9  # a card's long side in index long sides (standard 88 mm card)


@dataclass
class Layout:
    melds: list[list[str]] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    impossible: list[str] = field(default_factory=list)  # more copies than the decks hold


def _size(c: PhysicalCard) -> float:
    return max(c.box[2] - c.box[0], c.box[3] - c.box[1])


def card_scale(cards: list[PhysicalCard]) -> float:
    """One card's long side in pixels: all cards under one camera share it.

    Measured on whole cards where the detector saw any, else from the indices. A card
    known only by its index box must not shrink the gap: a joker's small index would
    otherwise cut it off from the meld it stands in.
    """
    index_sizes = [r.det.size for c in cards for r in c.indices]
    whole = [_size(c) for c in cards
             if c.indices and _size(c) > 2.5 * max(r.det.size for r in c.indices)]
    if whole:
        return median(whole)
    if index_sizes:
        return CARD_PER_INDEX * median(index_sizes)
    return median(_size(c) for c in cards) if cards else 0.0


def _near(a: PhysicalCard, b: PhysicalCard, gap: float) -> bool:
    return not (a.box[2] + gap < b.box[0] or b.box[2] + gap < a.box[0]
                or a.box[3] + gap < b.box[1] or b.box[3] + gap < a.box[1])


def cluster(cards: list[PhysicalCard]) -> list[list[PhysicalCard]]:
    """Connected groups of cards that touch or nearly touch, left to right within a group."""
    groups: list[list[PhysicalCard]] = []
    seen: set[int] = set()
    gap = NEIGHBOUR_GAP * card_scale(cards)
    for i in range(len(cards)):
        if i in seen:
            continue
        stack, group = [i], []
        seen.add(i)
        while stack:
            j = stack.pop()
            group.append(cards[j])
            for k in range(len(cards)):
                if k not in seen and _near(cards[j], cards[k], gap):
                    seen.add(k)
                    stack.append(k)
        groups.append(sorted(group, key=lambda c: (c.box[0], c.box[1])))
    return groups


def _split(cards: list[Card], rules: MeldRules) -> tuple[list[list[Card]], list[Card]]:
    """A group read as melds: whole if it is one, else the solver's best melds in it."""
    if is_meld(cards, rules):
        return [cards], []
    sol = solve(cards, rules, pip_value)
    return [list(m) for m in sol.melds], list(sol.unmelded)


def read_layout(cards: list[PhysicalCard], settings: Any,
                zones: list[str | None] | None = None) -> Layout:
    """Group read cards for the game's variant; `zones` gives each card's mat zone, if known."""
    zones = zones or [None] * len(cards)
    parsed = [parse_card(c.card) for c in cards]
    impossible = sorted(str(c) for c in deck_for(settings).too_many(parsed))
    rules = meld_rules_for(settings)
    if variant_for(settings).shows_whole_hand:
        # Chicago: the whole hand is read; the solver finds its melds
        sol = solve(parsed, rules, pip_value)
        return Layout([[str(c) for c in m] for m in sol.melds], [str(c) for c in parsed],
                      impossible)
    in_hand = [c for c, z in zip(cards, zones, strict=True) if z == "hand"]
    on_table = [c for c, z in zip(cards, zones, strict=True) if z != "hand"]
    melds: list[list[str]] = []
    hand = [c.card for c in in_hand]
    for group in cluster(on_table):
        group_cards = [parse_card(c.card) for c in group]
        found, loose = _split(group_cards, rules)
        melds += [[str(c) for c in m] for m in found]
        hand += [str(c) for c in loose]
    return Layout(melds, hand, impossible)
