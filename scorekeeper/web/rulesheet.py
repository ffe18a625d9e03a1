"""The rules sheet as the API serves it (GET /api/games/{id}/rules): typed, for the page.

The rules (`scorekeeper.rules.rulesheet`) decide every statement and number; these models
give the answer its documented shape. The page words each statement in its language and
shows the hand as the rules took it apart: it computes no score of its own.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from pydantic import BaseModel, Field

from scorekeeper.rules.rulesheet import rules_sheet


class SheetLine(BaseModel):
    key: str = Field(description="the page's message sheet.<key>")
    params: dict[str, int | str] = Field(description="the numbers the message names")


class SheetSection(BaseModel):
    key: Literal["play", "scoring", "cards", "end"]
    lines: list[SheetLine]


class ValueGroup(BaseModel):
    first: str = Field(description="the first rank of a row of ranks alike (JK: jokers)")
    last: str
    points: int | None = Field(description="each card's points in hand; null: as marked")


class CardPoints(BaseModel):
    card: str
    points: int


class ScorePart(BaseModel):
    kind: Literal["deadwood", "penalty", "held", "melded", "collected", "rummy_bonus"]
    points: int = Field(description="what it adds to the player's points (negative: takes "
                                    "off); a player's parts add up to their points")
    value: int = Field(description="what its cards are worth")
    cards: list[CardPoints]
    source: str | None = Field(description="collected: whose hand")
    typed: bool = Field(description="points typed instead of cards")


class PlayerExplained(BaseModel):
    name: str
    points: int = Field(description="the points the game kept for this hand")
    total: int
    parts: list[ScorePart]
    melds: list[list[str]] = Field(description="melds that cost nothing (Chicago)")
    dropped: str | None = Field(description="the knocker's eighth card, set aside")


class HandExplained(BaseModel):
    n: int | None = Field(description="the hand's number in the game; null: an example hand")
    ending: Literal["knocked", "rummy", "went_out", "exhausted", "shown"]
    ender: str | None
    players: list[PlayerExplained]
    knock: dict[str, Any] | None


class RulesSheet(BaseModel):
    """A game's rules in statements, its card values, and its last hand explained."""

    variant: str
    sections: list[SheetSection]
    card_values: list[ValueGroup]
    example: HandExplained


def sheet_of(view: dict[str, Any]) -> RulesSheet:
    """The sheet of a game as the store shows it."""
    return RulesSheet.model_validate(dataclasses.asdict(rules_sheet(view)))
