"""`GET /api/stats`: the players' statistics across the table's finished games.

Public, as the games list is: whoever may read the games may read what they add up to.
"""

from __future__ import annotations

from fastapi import APIRouter

from scorekeeper.web.deps import StoreDep
from scorekeeper.web.http.auth import GuardedRoute, public
from scorekeeper.web.models import refusals
from scorekeeper.web.stats import TableStats, read_stats

router = APIRouter(route_class=GuardedRoute)


@router.get("/api/stats", response_model=TableStats, responses=refusals(503))
@public
def table_stats(store: StoreDep) -> TableStats:
    """Per variant, each player's games, wins, hands, points per hand, hands won, hands
    ended, knocks and best hand, over the finished games (abandoned and deleted ones aside)."""
    return read_stats(store)
