"""The variants' rule data for the page, read from `scorekeeper.rules` (never restated).

The page used to carry its own copy of settings, allowed values, card values, deck
composition, hand sizes and knock limits; a rule change then had to be made twice. This
module derives every figure by asking the rules (their settings models, their deck and
point functions), so the page shows what the server scores.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from scorekeeper.rules import chicago, rummy, rummy500
from scorekeeper.rules.cards import JOKER, RANKS, Card, pip_value
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.scoring import LABELS, deck_for, player_limits
from scorekeeper.rules.settings import SETTINGS, parse_settings

ORDER = ("chicago", "rummy", "rummy10", "rummy500")


class Setting(BaseModel):
    key: str
    type: Literal["choice", "integer", "boolean"]
    default: Any
    options: list[Any] | None = None  # choice and boolean: the allowed values
    min: int | None = None  # integer: the least allowed value
    optional: bool = False  # integer: may be left empty (null)


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


class Variants(BaseModel):
    variants: list[Variant]


PROBE = range(0, 1001)  # whole numbers tried against a number setting's own validation
FEW = 20  # a number setting that accepts this few of them is a choice among them


def _accepts(variant: str, key: str, value: Any) -> bool:
    try:
        parse_settings(variant, {key: value})
    except RulesError:
        return False
    return True


def _setting(variant: str, key: str, field: FieldInfo) -> Setting:
    """A setting's type and allowed values; a number's by asking the settings' validation
    (Rummy 10-card's target takes 100, 300 or 500 by a validator, not by its type)."""
    annotation = field.annotation
    args = get_args(annotation)
    optional = type(None) in args
    if optional:
        annotation = next(a for a in args if a is not type(None))
    if get_origin(annotation) is Literal:
        return Setting(key=key, type="choice", default=field.default,
                       options=list(get_args(annotation)))
    if annotation is bool:
        return Setting(key=key, type="boolean", default=field.default, options=[False, True])
    accepted = [v for v in PROBE if _accepts(variant, key, v)]
    if len(accepted) <= FEW:
        return Setting(key=key, type="choice", default=field.default, options=accepted)
    return Setting(key=key, type="integer", default=field.default, min=accepted[0],
                   optional=optional)


def _choices(variant: str) -> dict[str, list[Any]]:
    """Every setting with a finite set of values, for the figures that may depend on them."""
    out: dict[str, list[Any]] = {}
    for key, field in SETTINGS[variant].model_fields.items():
        s = _setting(variant, key, field)
        if s.options is not None:
            out[key] = s.options
    return out


def _by_settings(variant: str, figure: Any, keys: tuple[str, ...]) -> list[Rule]:
    """`figure(settings)` for each combination of the named settings' values."""
    choices = _choices(variant)
    rules = []
    for values in itertools.product(*(choices[k] for k in keys)):
        when = dict(zip(keys, values, strict=True))
        settings = parse_settings(variant, when)
        rules.append(Rule(when=when, values=figure(settings)))
    return rules


def _deck(settings: Any) -> dict[str, int]:
    spec = deck_for(settings)
    return {"copies": spec.decks, "jokers": spec.jokers}


_CARDS = [Card(rank, "S") for rank in range(1, len(RANKS) + 1)]


def _values(points: Any, jokers: bool) -> dict[str, int]:
    values = {RANKS[c.rank - 1]: points(c) for c in _CARDS}
    if jokers:
        values["JK"] = points(JOKER)
    return values


def _rummy_values(settings: Any) -> dict[str, int]:
    return _values(lambda c: rummy.card_points(c, settings), jokers=False)


def _rummy500_values(settings: Any) -> dict[str, int]:
    values = _values(lambda c: rummy500.card_points(c, settings), jokers=True)
    values["A_low"] = rummy500.card_points(_CARDS[0], settings, low_ace=True)
    return values


def _hand_size(variant: str, most: int) -> dict[str, Any]:
    if variant == "chicago":
        return {"cards": chicago.SEVEN, "ender": chicago.SEVEN + 1}
    if variant == "rummy500":
        return {}
    return {"dealt": {str(n): rummy.deal_size(variant, n) for n in range(2, most + 1)}}


def _knock() -> dict[str, int]:
    """Chicago's limit as min(ceiling, base - total), both read off `knock_limit`."""
    ceiling = chicago.knock_limit(0)
    base = 1 + next(t for t in range(1000) if chicago.knock_limit(t) <= 1)
    return {"ceiling": ceiling, "base": base}


def _variant(variant: str) -> Variant:
    fewest, most = player_limits(variant)
    fields = SETTINGS[variant].model_fields
    settings = [_setting(variant, key, field) for key, field in fields.items()]
    if variant == "rummy500":
        deck = _by_settings(variant, _deck, ("decks", "jokers"))
        values = _by_settings(variant, _rummy500_values, ("scoring",))
    elif variant == "rummy":
        deck = _by_settings(variant, _deck, ())
        values = _by_settings(variant, _rummy_values, ("ace",))
    elif variant == "rummy10":
        deck = _by_settings(variant, _deck, ())
        values = _by_settings(variant, _rummy_values, ())
    else:
        deck = _by_settings(variant, _deck, ())
        values = _by_settings(variant, lambda _: _values(pip_value, jokers=False), ())
    return Variant(id=variant, name=LABELS[variant], min_players=fewest, max_players=most,
                   settings=settings, deck=deck, card_values=values,
                   hand_size=_hand_size(variant, most),
                   knock=_knock() if variant == "chicago" else None)


@cache
def variants() -> Variants:
    """All four variants, in the order the page lists them (computed once: rules are fixed)."""
    return Variants(variants=[_variant(v) for v in ORDER])
