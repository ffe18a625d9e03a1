"""What the league's routes, the big screen and the CLI answer, read from the club's store.

Reading is two queries: the store's game summaries (kept per game, so no replay) and the
club's table links (club_games, written by the sync). Everything after that is the pure
code of standings.py and `board` here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from scorekeeper.club.league import League, LeagueError, Season
from scorekeeper.club.standings import (
    DEFAULT_RANKING,
    RANKINGS,
    GameRecord,
    Table,
    tables,
)
from scorekeeper.rules.variants import VARIANTS, variant
from scorekeeper.store import GameStore
from scorekeeper.store.database import Database

LIVE_HOURS = 12  # a table's newest game stays on the big screen this long after it began


@dataclass(frozen=True)
class Link:
    """A club game as a table's: the table's name, and when the table started the game."""

    table: str
    game_id: int
    started: str | None


def links(database: Database) -> list[Link]:
    """Every forwarded game's table (League made the club's schema if it was missing)."""
    with database.read() as tx:
        rows = tx.fetchall("SELECT t.name, g.game_id, g.created_at FROM club_games g"
                           " JOIN club_tables t ON t.id = g.table_id")
    return [Link(str(name), int(gid), None if started is None else str(started))
            for name, gid, started in rows]


def records(games: Iterable[Mapping[str, Any]], found: Iterable[Link]) -> list[GameRecord]:
    """The games as the standings count them: a forwarded game is dated by when its table
    started it, not when it reached the club (a table offline for a day syncs late)."""
    started = {link.game_id: link.started for link in found if link.started}
    out = []
    for game in games:
        record = GameRecord.of(game)
        when = started.get(record.id)
        out.append(replace(record, created_at=when) if when else record)
    return out


def board(found: Iterable[Link], games: Iterable[Mapping[str, Any]], now: datetime
          ) -> list[dict[str, Any]]:
    """Each table's newest game begun in the last LIVE_HOURS, by table name: playing, or
    over (shown with its winner until the table starts the next one)."""
    newest: dict[str, Link] = {}
    for link in found:
        if link.table not in newest or link.game_id > newest[link.table].game_id:
            newest[link.table] = link
    by_id = {int(g["id"]): g for g in games}
    since = (now - timedelta(hours=LIVE_HOURS)).astimezone(UTC).isoformat(timespec="seconds")
    out = []
    for name in sorted(newest, key=lambda n: (n.casefold(), n)):
        game = by_id.get(newest[name].game_id)
        if game is None or str(game["created_at"]) < since:
            continue
        rules = variant(game["variant"]) if game["variant"] in VARIANTS else None
        out.append({
            "table": name, "game_id": game["id"], "variant": game["variant"],
            "label": rules.label if rules else game["variant"],
            "low_wins": rules.low_wins if rules else False, "seq": game["seq"],
            "game_over": bool(game.get("game_over")), "winner": game.get("winner"),
            "leader": game.get("leader"),
            "players": [{"name": p["name"], "total": p["total"],
                         "eliminated": bool(p.get("eliminated"))} for p in game["players"]],
        })
    return out


def live(store: GameStore, now: datetime | None = None) -> dict[str, Any]:
    """`GET /api/club/live`: every live table's scoreboard."""
    return {"tables": board(links(store.database), store.games(), now or datetime.now(UTC))}


def select(store: GameStore, league: League, season: str | None = None,
           variant_name: str | None = None, ranking: str | None = None,
           ) -> tuple[Season | None, str, list[Table]]:
    """The season chosen (no name: the one running today, else every game; "all": every
    game), the rule (`ranking`, else the season's) and the tables, one per variant or only
    `variant_name`. LeagueError for an unknown variant or rule, UnknownSeason for an
    unknown season."""
    return _select(store.games(), links(store.database), league, season, variant_name,
                   ranking)


def _select(games: list[dict[str, Any]], found: list[Link], league: League,
            season: str | None, variant_name: str | None = None,
            ranking: str | None = None) -> tuple[Season | None, str, list[Table]]:
    if variant_name is not None and variant_name not in VARIANTS:
        raise LeagueError(f"no variant {variant_name!r}; the variants are: "
                          f"{', '.join(VARIANTS.names())}")
    if ranking is not None and ranking not in RANKINGS:
        raise LeagueError(f"no ranking rule {ranking!r}; the rules are: {', '.join(RANKINGS)}")
    chosen = league.season(season)
    rule = ranking or (chosen.ranking if chosen else DEFAULT_RANKING)
    found_tables = tables(records(games, found), league.identities(), rule,
                          chosen.window if chosen else None, only=variant_name)
    return chosen, rule, found_tables


def answer(chosen: Season | None, rule: str, found: list[Table]) -> dict[str, Any]:
    """The standings as `GET /api/club/standings` answers them."""
    return {"season": chosen.as_dict() if chosen else None, "ranking": rule,
            "tables": [t.as_dict() for t in found]}


def standings(store: GameStore, league: League, season: str | None = None,
              variant_name: str | None = None, ranking: str | None = None) -> dict[str, Any]:
    """`GET /api/club/standings`: `select`'s tables, answered."""
    return answer(*select(store, league, season, variant_name, ranking))


def big_screen(store: GameStore, league: League, season: str | None) -> dict[str, Any]:
    """The big screen's whole view, from one read of the games: the live tables and the
    season's standings."""
    games, found = store.games(), links(store.database)
    return {"tables": board(found, games, datetime.now(UTC)),
            "standings": answer(*_select(games, found, league, season))}
