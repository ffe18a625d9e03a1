"""The club's player list on a table: `GET /api/club/players`, for the new-game sheet.

A table in club mode answers with the club's players as it last heard them (asked of the
club, else its copy on disk, with its age and why); a table not in club mode says so, with
no list. A club server answers the same path itself (club_league.py). The work is in
scorekeeper/club/roster.py; this only carries it over HTTP.
"""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from scorekeeper.club.roster import OFF, PLAYERS_PATH, Roster, roster_for
from scorekeeper.club.spelling import Spelling, as_typed, speller
from scorekeeper.settings import Settings
from scorekeeper.web.http.auth import public


class TablePlayers(BaseModel):
    """The club's players as this table knows them."""

    club: bool = Field(description="whether this table is in club mode")
    players: list[str] = Field(description="the club's players, by name")
    fetched_at: str | None = Field(description="when the club last sent the list (UTC)")
    age_s: int | None = Field(description="seconds since then")
    fresh: bool = Field(description="the club answered just now (else: the kept copy)")
    problem: str | None = Field(description="why the club was not heard, or club mode is off")


async def get_roster(request: Request) -> Roster | None:
    return cast("Roster | None", request.app.state.club_roster)


async def get_spelling(request: Request) -> Spelling:
    """How a new game's names are spelled here: as the club's players, on a club server and
    on a table in club mode (spelling.py); as typed otherwise."""
    return cast(Spelling, getattr(request.app.state, "club_spelling", as_typed))


RosterDep = Annotated["Roster | None", Depends(get_roster)]
SpellingDep = Annotated[Spelling, Depends(get_spelling)]


@public
async def club_players(roster: RosterDep) -> Response:
    """The club's players for a new game here, and how old the list is; anyone at the table
    may read them (they are the club's public list)."""
    if roster is None:
        return JSONResponse(OFF)
    return JSONResponse(await run_in_threadpool(roster.view))


def register(app: FastAPI, settings: Settings) -> None:
    """Mount the route on a table's app (club mode or not)."""
    roster = app.state.club_roster = roster_for(settings)
    if roster is not None:
        app.state.club_spelling = speller(roster.kept)
    app.add_api_route(PLAYERS_PATH, club_players, methods=["GET"], response_model=TablePlayers)
