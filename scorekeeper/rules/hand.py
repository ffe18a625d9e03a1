"""The players' part of a hand as typed, read or posted: validated into plain values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.cards import Card, parse_card, parse_cards
from scorekeeper.rules.errors import RulesError, malformed, shown
from scorekeeper.rules.names import clean_name

MAX_HAND = 14
MAX_TYPED_POINTS = 1000  # no hand of any variant comes near; more is a slip of the thumb
_KEYS = {"name", "total", "hand", "melds", "knocked", "went_out", "rummy", "held", "melded"}


@dataclass(frozen=True)
class MeldEntry:
    """Cards in front of a player; `on` is the meld they were laid off on, if given."""

    cards: tuple[Card, ...]
    on: tuple[Card, ...] = ()


@dataclass(frozen=True)
class PlayerHand:
    name: str
    total: int = 0
    hand: tuple[Card, ...] = ()
    melds: tuple[MeldEntry, ...] = field(default_factory=tuple)
    knocked: bool = False
    went_out: bool = False
    rummy: bool = False
    # Points typed instead of cards (no camera, no tapping): held in hand, and in Rummy 500
    # melded in front of the player. None when the player's cards were entered.
    held: int | None = None
    melded: int | None = None

    @property
    def typed(self) -> bool:
        """The player's part of the hand was entered as points, not cards."""
        return self.held is not None or self.melded is not None

    def all_cards(self) -> Iterable[Card]:
        yield from self.hand
        for m in self.melds:
            yield from m.cards


def _flag(raw: dict[str, Any], key: str, who: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise malformed(f"player {who}: {key!r} must be true or false, got {shown(value)}",
                        key, "bool")
    return value


def _typed_points(raw: dict[str, Any], key: str, who: str) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed(f"player {who}: {key} points must be a whole number, got "
                        f"{shown(value)}", key, "whole")
    if not 0 <= value <= MAX_TYPED_POINTS:
        raise RulesError(f"player {who}: {value} {key} points is not possible "
                         f"(0 to {MAX_TYPED_POINTS})", "points_range", player=who,
                         points=value, max=MAX_TYPED_POINTS)
    return value


def _meld_entry(raw: object) -> MeldEntry:
    """A meld as a list of cards, or {"cards": [...], "on": [...]} for a lay-off; the
    caller names the player in any refusal. (An empty `cards` in the second form is
    kept: games stored with one must still replay.)"""
    if isinstance(raw, dict):
        unknown = set(raw) - {"cards", "on"}
        if unknown:
            raise malformed(f"unknown meld key {shown(sorted(unknown)[0])}", "melds",
                            "unknown_key")
        return MeldEntry(tuple(parse_cards(raw.get("cards"))),
                         tuple(parse_cards(raw.get("on", []))))
    cards = parse_cards(raw)
    if not cards:
        raise RulesError("an empty meld", "meld_empty")
    return MeldEntry(tuple(cards))


def parse_player(raw: object, *, with_total: bool = True) -> PlayerHand:
    if not isinstance(raw, dict):
        raise malformed(f"each player must be an object, got {shown(raw)}", "players",
                        "object")
    if "name" not in raw:
        raise malformed("each player needs a name", "name", "missing")
    name = clean_name(raw["name"])
    unknown = set(raw) - _KEYS
    if unknown:
        raise malformed(f"player {name}: unknown key {shown(sorted(unknown)[0])}",
                        "players", "unknown_key")
    total = raw.get("total", 0)
    if not with_total and "total" in raw:
        raise malformed(f"player {name}: the total is kept by the game, do not send it",
                        "total", "unknown_key")
    if isinstance(total, bool) or not isinstance(total, int):
        raise malformed(f"player {name}: total must be a whole number, got {shown(total)}",
                        "total", "whole")
    held = raw.get("hand", [])
    if isinstance(held, list) and len(held) > MAX_HAND:  # before reading a flood of cards
        raise RulesError(f"player {name}: {len(held)} cards in hand, at most {MAX_HAND} are "
                         "read", "hand_too_long", player=name, count=len(held), max=MAX_HAND)
    try:
        hand = tuple(parse_cards(held))
        melds_raw = raw.get("melds", [])
        if not isinstance(melds_raw, list):
            raise malformed(f"melds must be a list of card lists, got {shown(melds_raw)}",
                            "melds", "list")
        melds = tuple(_meld_entry(m) for m in melds_raw)
    except RulesError as exc:
        raise exc.within(f"player {name}", player=name) from None
    held_points = _typed_points(raw, "held", name)
    melded_points = _typed_points(raw, "melded", name)
    if (held_points is not None or melded_points is not None) and (hand or melds):
        raise RulesError(f"player {name}: enter either the cards or the points, not both",
                         "cards_and_points", player=name)
    return PlayerHand(name, total, hand, melds, _flag(raw, "knocked", name),
                      _flag(raw, "went_out", name), _flag(raw, "rummy", name),
                      held_points, melded_points)


def parse_players(raw: object, *, with_total: bool = True) -> list[PlayerHand]:
    if not isinstance(raw, list) or not raw:
        raise malformed(f"'players' must be a non-empty list, got {shown(raw)}", "players",
                        "list")
    players = [parse_player(p, with_total=with_total) for p in raw]
    seen: set[str] = set()
    for p in players:
        if p.name.casefold() in seen:
            raise RulesError(f"player {p.name!r} is named twice", "name_twice", name=p.name)
        seen.add(p.name.casefold())
    return players


__all__ = ["MeldEntry", "PlayerHand", "parse_card", "parse_player", "parse_players"]
