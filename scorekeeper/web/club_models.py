"""The league API's bodies: what its routes take and answer (documented in /openapi.json,
checked against the real answers by tests/test_api_fuzz.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.club.presence import OFFLINE_S
from scorekeeper.web.models import MAX_LISTED, MAX_TEXT, Problem

Text = Annotated[str, Field(max_length=MAX_TEXT)]
Day = Annotated[str, Field(max_length=10, description="a date: 2025-09-01")]
Ranking = Literal["wins", "points", "average"]  # standings.RANKINGS, as the API takes them


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class PlayersIn(_Request):
    names: list[Text] = Field(min_length=1, max_length=MAX_LISTED,
                              description="names to add to the club's list")


class SeasonIn(_Request):
    name: Text
    starts: Day = Field(description="the first day whose games count (UTC)")
    ends: Day = Field(description="the last day whose games count (UTC)")
    ranking: Ranking = Field("wins", description="how the standings rank: wins, points or "
                                                 "average (GET /api/club/seasons says each)")


class Players(_Answer):
    players: list[str] = Field(description="the club's players, by name")


class PlayersAdded(_Answer):
    added: list[str]
    known: list[str] = Field(description="names already on the list (case aside)")


class Season(_Answer):
    name: str
    starts: str
    ends: str
    ranking: str


class Seasons(_Answer):
    seasons: list[Season] = Field(description="the latest starting first")
    current: str | None = Field(description="the season running today, if any")
    rankings: dict[str, str] = Field(description="each ranking rule, in words")


class Row(_Answer):
    rank: int | None = Field(description="null: a guest, shown but not ranked")
    name: str
    guest: bool
    played: int = Field(description="finished games")
    wins: int
    points: int = Field(description="the sum of the player's final totals")
    average: float


class VariantTable(_Answer):
    variant: str
    label: str
    low_wins: bool
    rows: list[Row]


class Standings(_Answer):
    season: Season | None = Field(description="null: every game")
    ranking: str
    tables: list[VariantTable]


class LivePlayer(_Answer):
    name: str
    total: int
    eliminated: bool


class LiveTable(_Answer):
    table: str
    game_id: int
    variant: str
    label: str
    low_wins: bool
    seq: int
    game_over: bool
    winner: str | None
    leader: str | None
    players: list[LivePlayer]
    state: Literal["live", "behind", "offline"] = Field(
        description="live: the table reaches the club; behind: it does, with events still "
                    f"to send; offline: not heard from for {OFFLINE_S:.0f} s")
    pending_events: int | None = Field(description="events the table said it still held "
                                                   "at its last sync (null: it did not say)")
    offline_since: str | None = Field(description="its last sync, while offline (UTC)")
    last_seen: str | None = Field(None, description="its last sync (UTC); not in the big "
                                                    "screen's stream")


class Live(_Answer):
    tables: list[LiveTable]


def problems(why: dict[int, str]) -> dict[int | str, dict[str, Any]]:
    """`responses` entries for refusals in this API's own words, each a `Problem`."""
    return {code: {"model": Problem, "description": text} for code, text in why.items()}
