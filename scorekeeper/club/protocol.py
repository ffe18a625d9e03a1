"""What a table sends the club server (`POST /api/club/sync`) and what it answers.

A batch holds the set-ups of games the club may not know yet and events in order; an event
is identified by (table, table_game_id, seq), which is what makes a resent batch harmless.
The answer says, per game, the highest seq the club holds (`acked`): the table sends from
the next one, whatever happened to the previous answer.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

MAX_BATCH_EVENTS = 1000  # the club refuses more (the table sends at most BATCH_EVENTS)
BATCH_EVENTS = 200       # a table's batch: an evening's hands of a few tables
MAX_BATCH_BYTES = 8 * 1024 * 1024
MAX_ID = 2**63 - 1


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GameIn(_Wire):
    """A game as the table created it (its players and settings before any event)."""

    table_game_id: int = Field(ge=1, le=MAX_ID)
    variant: str = Field(max_length=200)
    players: list[str] = Field(max_length=64)
    settings: dict[str, Any] | None = None
    deck: str | None = Field(None, max_length=200)
    created_at: str | None = Field(None, max_length=64)


class EventIn(_Wire):
    """One event of a table's game, exactly as the table stored it."""

    table_game_id: int = Field(ge=1, le=MAX_ID)
    seq: int = Field(ge=1, le=MAX_ID)
    body: dict[str, Any]


class Batch(_Wire):
    games: list[GameIn] = Field(default_factory=list, max_length=MAX_BATCH_EVENTS)
    events: list[EventIn] = Field(default_factory=list, max_length=MAX_BATCH_EVENTS)


class Ack(BaseModel):
    """The club holds this game's events 1..seq."""

    table_game_id: int
    seq: int


class Problem(BaseModel):
    """An event (seq 0: the game's set-up) the club will not store: 409 it differs from the
    one stored under its id, 422 the rules refuse it. The table stops sending that game."""

    table_game_id: int
    seq: int
    status: int
    detail: str


class SyncAnswer(BaseModel):
    """`acked` for every game of the batch; `expected`: games whose events skipped ahead of
    what the club holds (resend from `seq`); `unknown`: games the club has no set-up for
    (send it); `problems`: as above. 200 when there are none, else 409 or 422."""

    acked: list[Ack] = Field(default_factory=list)
    expected: list[Ack] = Field(default_factory=list)
    unknown: list[int] = Field(default_factory=list)
    problems: list[Problem] = Field(default_factory=list)

    @property
    def status(self) -> int:
        if any(p.status == 409 for p in self.problems):
            return 409
        return 422 if self.problems else 200
