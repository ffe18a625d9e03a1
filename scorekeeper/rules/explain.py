"""What the rules sheet says: the statements that apply to a game, and a hand card by card.

The page words each statement in the players' language (its `key` names the message); the
rules decide which statements apply and every number in them, so the page never keeps a
copy of the rules. A breakdown takes a hand the rules scored apart into what each card and
each penalty or bonus added, and its parts add up to the points the rules gave.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal

from scorekeeper.rules.cards import Card
from scorekeeper.rules.hand import PlayerHand
from scorekeeper.rules.settings import S

PartKind = Literal["deadwood", "penalty", "held", "melded", "collected", "rummy_bonus"]
HandEnding = Literal["knocked", "rummy", "went_out", "exhausted", "shown"]


@dataclass(frozen=True)
class Line:
    """One statement of the sheet: the page's message `sheet.<key>`, with its numbers."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    key: Literal["play", "scoring", "cards", "end"]
    lines: list[Line]


@dataclass(frozen=True)
class Counted:
    card: str
    points: int


@dataclass(frozen=True)
class Part:
    """A piece of a player's score for the hand: `points` is what it adds (negative: takes
    off), `value` what its cards are worth (a loser's cards in Rummy are worth points to
    the winner, nothing to their holder). No cards: the points were typed, or a bonus."""

    kind: PartKind
    points: int
    value: int
    cards: list[Counted] = field(default_factory=list)
    source: str | None = None  # collected: whose hand
    typed: bool = False


@dataclass(frozen=True)
class PlayerBreakdown:
    name: str
    points: int  # what the rules gave for the hand: the parts' points add up to it
    total: int
    parts: list[Part]
    melds: list[list[str]] = field(default_factory=list)  # melds that cost nothing (Chicago)
    dropped: str | None = None  # the knocker's eighth card, set aside


@dataclass(frozen=True)
class Breakdown:
    """A hand explained: `n` is its number in the game (None: the sheet's own example)."""

    n: int | None
    ending: HandEnding
    ender: str | None
    players: list[PlayerBreakdown]
    knock: dict[str, Any] | None = None


Scored = dict[str, Any]  # the rules' result for a hand
Explained = tuple[HandEnding, str | None, list[PlayerBreakdown]]  # how it ended, by whom


@dataclass(frozen=True)
class Explainer(Generic[S]):
    """A variant's part of the sheet: its statements, its breakdown, its example hand."""

    lines: Callable[[S], list[Section]]
    # the hand as entered, the settings, the rules' result, a card's points in hand
    breakdown: Callable[[list[PlayerHand], S, Scored, Callable[[Card], int]], Explained]
    example: Callable[[S, list[str]], list[dict[str, Any]]]  # two players' names → hand


def counted(cards: Iterable[Card], value: Callable[[Card], int]) -> list[Counted]:
    return [Counted(str(c), value(c)) for c in cards]


def cards_part(kind: PartKind, cards: list[Counted], sign: int = 1, *,
               counts: bool = True) -> Part:
    """Cards worth their sum; `counts`: the sum goes to the player (times `sign`)."""
    value = sum(c.points for c in cards)
    return Part(kind, sign * value if counts else 0, value, cards)


def typed_part(kind: PartKind, value: int, sign: int = 1, *, counts: bool = True) -> Part:
    return Part(kind, sign * value if counts else 0, value, typed=True)


def rows_by_name(result: Scored) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in result["players"]}


__all__ = ["Breakdown", "Counted", "Explained", "Explainer", "HandEnding", "Line", "Part",
           "PlayerBreakdown", "Section", "cards_part", "counted", "rows_by_name", "typed_part"]
