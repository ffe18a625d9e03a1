"""The variants as records in one registry: what the rules, the API and the page all read.

A record holds everything that differs between variants: the players' name for it, its
settings class (and so the values each setting allows), the decks, a complete hand's shape,
the knock limit where there is one, what melds, what cards are worth, and the scoring entry
point. Code that needs a variant's rule asks its record, never which variant it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, Literal, get_args, get_origin

from scorekeeper.registry import Registry
from scorekeeper.rules import chicago, explainers, rummy, rummy500
from scorekeeper.rules.cards import ACE, Card, pip_value
from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.errors import RulesError, malformed, shown
from scorekeeper.rules.explain import Explainer
from scorekeeper.rules.hand import PlayerHand
from scorekeeper.rules.melds import MeldRules
from scorekeeper.rules.settings import (
    ChicagoSettings,
    Rummy10Settings,
    Rummy500Settings,
    RummySettings,
    S,
    VariantSettings,
    validate_settings,
)

# players, settings, hand number (None: not known), complete-hand check → the scored hand
Scorer = Callable[[list[PlayerHand], S, int | None, bool], dict[str, Any]]
PROBE = range(0, 1001)  # whole numbers tried against a number setting's own validation
FEW = 20  # a number setting that accepts this few of them is a choice among them


@dataclass(frozen=True)
class HandShape:
    """The cards a complete hand holds, so that a hand with cards missing is refused."""

    cards: int | None = None  # every player shows this many (Chicago: 7)
    ender: int | None = None  # the player who ends the hand may show this many (Chicago: 8)
    dealt: Callable[[int], int] | None = None  # at most what was dealt, by number of players


@dataclass(frozen=True)
class Knock:
    """A variant where a player knocks with little enough deadwood (Chicago)."""

    limit: Callable[[int], int]  # the most deadwood a player with this total may knock with
    check: Callable[[list[Card], int, Any], dict[str, Any]]  # cards, total, settings → verdict


Mark = Literal["knocked", "went_out", "rummy"]  # a player's end-of-hand flags
# Laying off (adding cards to a meld already on the table): never (melds stay in the hand),
# on any meld, only after one's own first meld, or on any meld and scoring for the player
LayOff = Literal["none", "any", "after_melding", "for_you"]
Reads = Literal["hand", "leftovers", "melds"]


@dataclass(frozen=True)
class HandEnd:
    """How a hand ends and what is entered for each player at its end (what the page asks).

    `marks`: the flags a player may carry, the way the hand ended first; `rummy_goes_out`:
    rummy marks going out in one go (Rummy: it doubles), else it is its own way to end the
    hand (Chicago); `required`: a hand must name who ended it. `reads`: a player's whole
    hand (its minimal deadwood scores), only the cards left in losers' hands, or the melds
    in front of each player and the cards held. `typed`: the points a player may type
    instead of cards.
    """

    marks: tuple[Mark, ...] = ()
    rummy_goes_out: bool = False
    required: bool = False
    reads: Reads = "hand"
    typed: tuple[Literal["melded", "held"], ...] = ("held",)


@dataclass(frozen=True)
class SettingSchema:
    """A setting's type and the values it allows, as its settings class validates them."""

    key: str
    type: Literal["choice", "integer", "boolean"]
    default: Any
    options: tuple[Any, ...] | None = None  # choice and boolean: the allowed values
    min: int | None = None  # integer: the least allowed value
    optional: bool = False  # integer: may be left empty (null)
    max: int | None = None  # integer: the largest allowed value


@dataclass(frozen=True)
class Variant(Generic[S]):
    """One variant: a registry entry whose config is its settings class."""

    name: str  # the id in the API, the store and `scorekeeper score`
    label: str  # what players call it
    settings: type[S]
    score: Scorer[S]
    deck: Callable[[S], DeckSpec]  # every card's copies and the jokers in the whole game
    meld_rules: Callable[[S], MeldRules]
    points: Callable[[Card, S], int]  # a card left in hand
    players: tuple[int, int]  # fewest and most
    explain: Explainer[S]  # what the rules sheet says of it (rules/explainers.py)
    lay_off: LayOff = "none"
    hand: HandShape = field(default_factory=HandShape)
    knock: Knock | None = None
    low_wins: bool = False  # the lowest total leads (a penalty game)
    target: Callable[[S], int] | None = None  # the total that ends the game
    hand_limit: Callable[[S], int | None] | None = None  # or the hands played, if set
    low_ace: Callable[[S], int] | None = None  # an ace's points inside A-2-3, if different
    deck_keys: tuple[str, ...] = ()  # the settings the decks depend on
    points_keys: tuple[str, ...] = ()  # the settings card points depend on
    end: HandEnd = field(default_factory=HandEnd)
    goal_key: str | None = None  # the setting holding the total that ends the game
    hand_limit_key: str | None = None  # the setting holding a number of hands, if set

    @property
    def shows_whole_hand(self) -> bool:
        """Every player lays the whole hand down (Chicago), so a reader finds its melds."""
        return self.hand.cards is not None

    @property
    def config(self) -> type[S]:
        """The registry's name for the settings class."""
        return self.settings

    def parse(self, raw: object, *, lenient: bool = False) -> S:
        """The settings from JSON; `lenient` reads them as a store written earlier did."""
        return validate_settings(self.name, self.settings, raw, lenient=lenient)

    def accepts(self, key: str, value: object) -> bool:
        try:
            self.parse({key: value})
        except RulesError:
            return False
        return True

    @cached_property
    def schema(self) -> tuple[SettingSchema, ...]:
        """Every setting with its allowed values (computed once: the rules are fixed)."""
        return tuple(self._setting(key) for key in self.settings.model_fields)

    def _setting(self, key: str) -> SettingSchema:
        """A number's allowed values come from asking the validation (Rummy 10-card's
        target takes 100, 300 or 500 by a validator, not by its type)."""
        info = self.settings.model_fields[key]
        annotation, default = info.annotation, info.default
        args = get_args(annotation)
        optional = type(None) in args
        if optional:
            annotation = next(a for a in args if a is not type(None))
        if get_origin(annotation) is Literal:
            return SettingSchema(key, "choice", default, get_args(annotation))
        if annotation is bool:
            return SettingSchema(key, "boolean", default, (False, True))
        accepted = tuple(v for v in PROBE if self.accepts(key, v))
        if len(accepted) <= FEW:
            return SettingSchema(key, "choice", default, accepted)
        # the Field's `le` (pydantic keeps it as a constraint among the field's metadata)
        largest = next((m.le for m in info.metadata if isinstance(getattr(m, "le", None), int)),
                       None)
        return SettingSchema(key, "integer", default, min=accepted[0], optional=optional,
                             max=largest)

    def options(self, key: str) -> tuple[Any, ...]:
        """The values a setting with a finite choice allows; RulesError for any other."""
        found = next((s for s in self.schema if s.key == key), None)
        if found is None or found.options is None:
            raise malformed(f"{self.label} has no setting {shown(key)} with a fixed choice",
                            "setting", "invalid")
        return found.options


def _chicago_score(players: list[PlayerHand], s: ChicagoSettings, hand_number: int | None,
                   complete: bool) -> dict[str, Any]:
    """Chicago ends by elimination or an instant win: the hand number plays no part."""
    return chicago.score(players, s, complete=complete)


def _rummy_score(players: list[PlayerHand], s: rummy.RummyFamily, hand_number: int | None,
                 complete: bool) -> dict[str, Any]:
    return rummy.score(players, s, hand_number, complete=complete)


def _rummy500_score(players: list[PlayerHand], s: Rummy500Settings, hand_number: int | None,
                   complete: bool) -> dict[str, Any]:
    """Rummy 500 scores what is shown (no hand is short of cards) and has no hand limit."""
    return rummy500.score(players, s)


def _dealt(name: str) -> Callable[[int], int]:
    return lambda players: rummy.deal_size(name, players)


CHICAGO: Variant[ChicagoSettings] = Variant(
    name="chicago", label=chicago.LABEL, settings=ChicagoSettings, score=_chicago_score,
    deck=lambda s: chicago.DECK, meld_rules=chicago.meld_rules,
    points=lambda card, s: pip_value(card),
    players=(chicago.MIN_PLAYERS, chicago.MAX_PLAYERS), explain=explainers.CHICAGO,
    hand=HandShape(cards=chicago.SEVEN, ender=chicago.SEVEN + 1),
    knock=Knock(limit=chicago.knock_limit, check=chicago.knock_check), low_wins=True,
    end=HandEnd(marks=("knocked", "rummy"), required=True, reads="hand"),
    goal_key="elimination_total")
RUMMY: Variant[RummySettings] = Variant(
    name="rummy", label=rummy.LABELS["rummy"], settings=RummySettings, score=_rummy_score,
    deck=lambda s: rummy.DECK, meld_rules=rummy.meld_rules, points=rummy.card_points,
    players=(rummy.MIN_PLAYERS, rummy.MAX_PLAYERS["rummy"]), hand=HandShape(dealt=_dealt("rummy")),
    explain=explainers.RUMMY, lay_off="any",
    target=lambda s: s.target, hand_limit=lambda s: s.hand_limit, points_keys=("ace",),
    end=HandEnd(marks=("went_out", "rummy"), rummy_goes_out=True, required=True,
                reads="leftovers"),
    goal_key="target", hand_limit_key="hands")
RUMMY10: Variant[Rummy10Settings] = Variant(
    name="rummy10", label=rummy.LABELS["rummy10"], settings=Rummy10Settings,
    score=_rummy_score, deck=lambda s: rummy.DECK, meld_rules=rummy.meld_rules,
    points=rummy.card_points, players=(rummy.MIN_PLAYERS, rummy.MAX_PLAYERS["rummy10"]),
    explain=explainers.RUMMY10, lay_off="after_melding",
    hand=HandShape(dealt=_dealt("rummy10")), target=lambda s: s.target,
    end=HandEnd(marks=("went_out", "rummy"), rummy_goes_out=True, reads="leftovers"),
    goal_key="target")
RUMMY500: Variant[Rummy500Settings] = Variant(
    name="rummy500", label=rummy500.LABEL, settings=Rummy500Settings, score=_rummy500_score,
    deck=rummy500.deck, meld_rules=rummy500.meld_rules,
    points=rummy500.card_points,
    players=(rummy500.MIN_PLAYERS, rummy500.MAX_PLAYERS), target=lambda s: s.target,
    explain=explainers.RUMMY500, lay_off="for_you",
    low_ace=lambda s: rummy500.card_points(Card(ACE, "S"), s, low_ace=True),
    deck_keys=("decks", "jokers"), points_keys=("scoring",),
    end=HandEnd(reads="melds", typed=("melded", "held")), goal_key="target")

# In the order the page lists them.
def _unknown_variant(message: str) -> RulesError:
    return RulesError(message, "variant_unknown", variants=list(VARIANTS.names()))


VARIANTS: Registry[Variant[Any]] = Registry("variant", [CHICAGO, RUMMY, RUMMY10, RUMMY500],
                                            error=_unknown_variant, show=shown)
_BY_SETTINGS: dict[type[object], Variant[Any]] = {v.settings: v for v in VARIANTS.entries()}


def variant(name: object) -> Variant[Any]:
    """The variant called `name`; RulesError naming the variants that exist if none is."""
    return VARIANTS.get(name)


def variant_for(settings: object) -> Variant[Any]:
    """The variant a settings object belongs to; anything else is a bug, not input."""
    found = _BY_SETTINGS.get(type(settings))
    if found is None:
        raise TypeError(f"not a variant's settings: {settings!r}")
    return found


def parse_settings(name: object, raw: object, *, lenient: bool = False) -> VariantSettings:
    """A variant's settings from JSON; `lenient` reads settings stored before true/false
    was refused in a number's place as they were read then (true as 1)."""
    settings: VariantSettings = variant(name).parse(raw, lenient=lenient)
    return settings


__all__ = ["VARIANTS", "HandEnd", "HandShape", "Knock", "SettingSchema", "Variant",
           "parse_settings", "variant", "variant_for"]
