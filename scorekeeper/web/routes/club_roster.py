"""The club's player list on a table: `GET /api/club/players`, for the new-game sheet.

A table in club mode answers with the club's players as it last heard them (asked of the
club, else its copy on disk, with its age and why); a table not in club mode says so, with
no list. A club server answers the same path itself (club_league.py). The work is in
scorekeeper/club/roster.py; this only carries it over HTTP.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from scorekeeper.club.roster import OFF, PLAYERS_PATH
from scorekeeper.web.deps import RosterDep
from scorekeeper.web.http.auth import GuardedRoute, public


class TablePlayers(BaseModel):
    """The club's players as this table knows them."""

    club: bool = Field(description="whether this table is in club mode")
    players: list[str] = Field(description="the club's players, by name")
    fetched_at: str | None = Field(description="when the club last sent the list (UTC)")
    age_s: int | None = Field(description="seconds since then")
    fresh: bool = Field(description="the club answered just now (else: the kept copy)")
    problem: str | None = Field(description="why the club was not heard, or club mode is off")


router = APIRouter(route_class=GuardedRoute)


@router.get(PLAYERS_PATH, response_model=TablePlayers, response_model_exclude_unset=True)
@public
async def club_players(roster: RosterDep) -> dict[str, Any]:
    """The club's players for a new game here, and how old the list is; anyone at the table
    may read them (they are the club's public list)."""
    if roster is None:
        return OFF
    view: dict[str, Any] = await run_in_threadpool(roster.view)
    return view
