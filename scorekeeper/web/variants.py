"""The variants' rule data for the page, read from the rules' registry (never restated).

The page used to carry its own copy of settings, allowed values, card values, deck
composition, hand sizes and knock limits; a rule change then had to be made twice. This
module turns each record of `scorekeeper.rules.variants.VARIANTS` into JSON, asking the
record's own functions for every figure, so the page shows what the server scores.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from scorekeeper.rules.cards import JOKER, RANKS, Card
from scorekeeper.rules.variants import VARIANTS, HandShape, Knock
from scorekeeper.rules.variants import Variant as Rules


class Setting(BaseModel):
    key: str
    type: Literal["choice", "integer", "boolean"]
    default: Any
    options: list[Any] | None = None  # choice and boolean: the allowed values
    min: int | None = None  # integer: the least allowed value
    optional: bool = False  # integer: may be left empty (null)
    max: int | None = None  # integer: the largest allowed value (totals stay exact on a page)


class Rule(BaseModel):
    """A figure that depends on some settings: `when` names them, `values` holds the figure."""

    when: dict[str, Any]
    values: dict[str, Any]


class Variant(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    settings: list[Setting]
    deck: list[Rule]  # copies of each card and jokers in the whole game
    card_values: list[Rule]  # points per rank ("A".."K", "JK")
    hand_size: dict[str, Any]
    knock: dict[str, int] | None = None
    low_wins: bool = Field(description="the lowest total leads (a penalty game)")
    end: dict[str, Any] = Field(description="how a hand ends and what is entered for each "
                                            "player: marks, rummy_goes_out, required, reads, "
                                            "typed (rules/variants.py HandEnd)")
    goal_key: str | None = Field(description="the setting holding the total that ends the "
                                             "game")
    hand_limit_key: str | None = Field(description="the setting holding a number of hands "
                                                   "that ends the game instead, when set")


class Variants(BaseModel):
    variants: list[Variant]


_CARDS = [Card(rank, "S") for rank in range(1, len(RANKS) + 1)]


def _by_settings(rules: Rules[Any], figure: Callable[[Any], dict[str, Any]],
                 keys: tuple[str, ...]) -> list[Rule]:
    """`figure(settings)` for each combination of the named settings' values."""
    combos = itertools.product(*(rules.options(k) for k in keys))
    whens = [dict(zip(keys, values, strict=True)) for values in combos]
    return [Rule(when=when, values=figure(rules.parse(when))) for when in whens]


def _deck(rules: Rules[Any]) -> list[Rule]:
    def figure(settings: Any) -> dict[str, Any]:
        spec = rules.deck(settings)
        return {"copies": spec.decks, "jokers": spec.jokers}

    return _by_settings(rules, figure, rules.deck_keys)


def _card_values(rules: Rules[Any], jokers: bool) -> list[Rule]:
    """Points per rank; a joker's where the decks can hold one; Rummy 500's low ace."""

    def figure(settings: Any) -> dict[str, Any]:
        values = {RANKS[c.rank - 1]: rules.points(c, settings) for c in _CARDS}
        if jokers:
            values["JK"] = rules.points(JOKER, settings)
        if rules.low_ace is not None:
            values["A_low"] = rules.low_ace(settings)
        return values

    return _by_settings(rules, figure, rules.points_keys)


def _hand_size(shape: HandShape, players: tuple[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if shape.cards is not None:
        out["cards"] = shape.cards
    if shape.ender is not None:
        out["ender"] = shape.ender
    if shape.dealt is not None:
        fewest, most = players
        out["dealt"] = {str(n): shape.dealt(n) for n in range(fewest, most + 1)}
    return out


def _knock(knock: Knock) -> dict[str, int]:
    """The limit as min(ceiling, base - total), both read off the rules' `limit`."""
    ceiling = knock.limit(0)
    base = 1 + next(t for t in range(1000) if knock.limit(t) <= 1)
    return {"ceiling": ceiling, "base": base}


def _variant(rules: Rules[Any]) -> Variant:
    settings = [Setting(key=s.key, type=s.type, default=s.default, min=s.min, max=s.max,
                        options=None if s.options is None else list(s.options),
                        optional=s.optional) for s in rules.schema]
    deck = _deck(rules)
    jokers = any(rule.values["jokers"] for rule in deck)
    fewest, most = rules.players
    return Variant(id=rules.name, name=rules.label, min_players=fewest, max_players=most,
                   settings=settings, deck=deck, card_values=_card_values(rules, jokers),
                   hand_size=_hand_size(rules.hand, rules.players),
                   knock=None if rules.knock is None else _knock(rules.knock),
                   low_wins=rules.low_wins, end=dataclasses.asdict(rules.end),
                   goal_key=rules.goal_key, hand_limit_key=rules.hand_limit_key)


@cache
def variants() -> Variants:
    """Every variant, in the registry's order (computed once: the rules are fixed)."""
    return Variants(variants=[_variant(v) for v in VARIANTS.entries()])
