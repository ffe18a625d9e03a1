"""What the league's routes, the big screen and the CLI answer, read from the club's store.

The inputs are the store's game summaries (kept per game, so no replay) and the club's
table links (club_games, written by the sync); everything made of them is the pure code
of standings.py and `board` here.

The big screen is rebuilt after every burst of hands, and a season's standings count
thousands of finished games, while a hand changes one live game. So `Board` keeps, per
store, what it read: each game's summary and GameRecord by its seq (the store's
`versions` says which games changed; only those are read again), the links (read again
when there are more: club_games only grows), and the standings per season and rule, made
again only when a finished game changed, came or went (a game ending, an undo after its
end), or the club's player list did. The standings stay exactly what
`tables(records(games, links), ...)` over every game gives.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from scorekeeper.club.league import League, LeagueError, Season
from scorekeeper.club.presence import presence
from scorekeeper.club.presence import read as read_presence
from scorekeeper.club.standings import (
    DEFAULT_RANKING,
    RANKINGS,
    GameRecord,
    Table,
    Window,
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
    return [dated(GameRecord.of(game), started) for game in games]


def dated(record: GameRecord, started: Mapping[int, str]) -> GameRecord:
    """The record dated by when its table started the game, where a table did."""
    when = started.get(record.id)
    return replace(record, created_at=when) if when else record


def newest(found: Iterable[Link]) -> dict[str, Link]:
    """Each table's newest game (the highest club id), by table name."""
    out: dict[str, Link] = {}
    for link in found:
        if link.table not in out or link.game_id > out[link.table].game_id:
            out[link.table] = link
    return out


def board(found: Iterable[Link], games: Iterable[Mapping[str, Any]], now: datetime,
          seen: Mapping[str, tuple[str | None, int | None]] | None = None,
          ) -> list[dict[str, Any]]:
    """Each table's newest game begun in the last LIVE_HOURS, by table name: playing, or
    over (shown with its winner until the table starts the next one), with the table's
    state from `seen` (presence.read: live, behind, offline since when)."""
    seen = seen or {}
    last = newest(found)
    by_id = {int(g["id"]): g for g in games}
    since = (now - timedelta(hours=LIVE_HOURS)).astimezone(UTC).isoformat(timespec="seconds")
    out = []
    for name in sorted(last, key=lambda n: (n.casefold(), n)):
        game = by_id.get(last[name].game_id)
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
            **presence(*seen.get(name, (None, None)), now).as_dict(),
        })
    return out


def on_screen(cards: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`board`'s cards as the big screen's stream sends them: without `last_seen`, which
    moves at every table's heartbeat (the state and `offline_since` stay until it changes)."""
    return [{k: v for k, v in card.items() if k != "last_seen"} for card in cards]


FULL_READ = 200  # more games changed than this (a first read): read every summary at once


@dataclass(frozen=True)
class _Kept:
    """A game as last read: its seq, its summary and its record (dated as `records`)."""

    seq: int
    summary: dict[str, Any]
    record: GameRecord


StandingsKey = tuple[Window | None, str, str | None]  # the season's dates, rule, variant


class Board:
    """What the big screen, the live tables and the standings are made of, kept between
    reads of one store (the module's doc says what is read again, and when). One per
    store (`board_of`); safe across threads: the feed builds in worker threads, the routes
    read in others."""

    def __init__(self, store: GameStore) -> None:
        self._store = weakref.ref(store)  # weak: `_boards` keeps a Board while its store lives
        self._lock = threading.Lock()
        self._games: dict[int, _Kept] = {}
        self._links: list[Link] = []
        self._started: dict[int, str] = {}
        self._newest: dict[str, Link] = {}
        self._seen: dict[str, tuple[str | None, int | None]] = {}
        self._finished = 0  # changes to the finished games seen: what the standings count
        self._standings: dict[StandingsKey, tuple[int, dict[str, str], list[Table]]] = {}

    def view(self, league: League, season: str | None,
             now: datetime | None = None) -> dict[str, Any]:
        """The big screen's whole view: the live tables and the season's standings. A
        table's `last_seen` is left out: it moves at every heartbeat, and the stream sends
        a view only when it changed (its state, and since when it is offline, stay)."""
        chosen, rule, identities = _choose(league, season)
        with self._lock:
            self._refresh()
            return {"tables": on_screen(self._board(now or datetime.now(UTC))),
                    "standings": answer(chosen, rule, self._tables(identities, rule, chosen))}

    def live(self, now: datetime | None = None) -> list[dict[str, Any]]:
        """Each table's newest recent game (`board`)."""
        with self._lock:
            self._refresh()
            return self._board(now or datetime.now(UTC))

    def select(self, league: League, season: str | None = None,
               variant_name: str | None = None, ranking: str | None = None,
               ) -> tuple[Season | None, str, list[Table]]:
        """As the module's `select`."""
        chosen, rule, identities = _choose(league, season, variant_name, ranking)
        with self._lock:
            self._refresh()
            return chosen, rule, self._tables(identities, rule, chosen, variant_name)

    def _refresh(self) -> None:
        """Read again what changed since the last read: the links when there are more, and
        the games whose seq moved; and the tables' last syncs (a few rows, every time)."""
        store = self._store()
        if store is None:
            raise RuntimeError("the store of this board is gone")
        self._seen = read_presence(store.database)
        versions = store.versions()
        with store.database.read() as tx:
            row = tx.fetchone("SELECT COUNT(*) FROM club_games")
        if row is None or int(row[0]) != len(self._links):  # rows are only ever added
            self._relink(links(store.database))
        changed = [gid for gid, seq in versions.items()
                   if (had := self._games.get(gid)) is None or had.seq != seq]
        if changed:
            for game in store.games(None if len(changed) > FULL_READ else changed):
                had = self._games.get(int(game["id"]))
                if had is None or had.seq != int(game["seq"]):
                    self._keep(game)
        for gid in self._games.keys() - versions.keys():
            self._change(self._games.pop(gid).record, None)

    def _relink(self, found: list[Link]) -> None:
        started = {link.game_id: link.started for link in found if link.started}
        for gid in self._started.keys() | started.keys():
            had = self._games.get(gid)
            if had is not None and self._started.get(gid) != started.get(gid):
                record = dated(GameRecord.of(had.summary), started)
                self._change(had.record, record)
                self._games[gid] = replace(had, record=record)
        self._links, self._started, self._newest = found, started, newest(found)

    def _keep(self, game: dict[str, Any]) -> None:
        gid = int(game["id"])
        record = dated(GameRecord.of(game), self._started)
        old = self._games.get(gid)
        self._change(None if old is None else old.record, record)
        self._games[gid] = _Kept(int(game["seq"]), game, record)

    def _change(self, old: GameRecord | None, new: GameRecord | None) -> None:
        """A game's record replaced (None: none): the standings are made again when a
        finished game is among the two and they differ."""
        if old != new and ((old is not None and old.game_over)
                           or (new is not None and new.game_over)):
            self._finished += 1

    def _board(self, now: datetime) -> list[dict[str, Any]]:
        last = self._newest.values()
        return board(last, [self._games[link.game_id].summary for link in last
                            if link.game_id in self._games], now, self._seen)

    def _tables(self, identities: dict[str, str], rule: str, chosen: Season | None,
                only: str | None = None) -> list[Table]:
        key = (chosen.window if chosen else None, rule, only)
        hit = self._standings.get(key)
        if hit is None or hit[0] != self._finished or hit[1] != identities:
            counted = [had.record for had in self._games.values() if had.record.game_over]
            hit = (self._finished, identities, tables(counted, identities, rule, key[0], only))
            self._standings[key] = hit
        return list(hit[2])


_boards: weakref.WeakKeyDictionary[GameStore, Board] = weakref.WeakKeyDictionary()
_boards_lock = threading.Lock()


def board_of(store: GameStore) -> Board:
    """The store's Board: made at its first read, gone with the store."""
    with _boards_lock:
        found = _boards.get(store)
        if found is None:
            found = _boards[store] = Board(store)
        return found


def live(store: GameStore, now: datetime | None = None) -> dict[str, Any]:
    """`GET /api/club/live`: every live table's scoreboard."""
    return {"tables": board_of(store).live(now)}


def select(store: GameStore, league: League, season: str | None = None,
           variant_name: str | None = None, ranking: str | None = None,
           ) -> tuple[Season | None, str, list[Table]]:
    """The season chosen (no name: the one running today, else every game; "all": every
    game), the rule (`ranking`, else the season's) and the tables, one per variant or only
    `variant_name`. LeagueError for an unknown variant or rule, UnknownSeason for an
    unknown season."""
    return board_of(store).select(league, season, variant_name, ranking)


def _choose(league: League, season: str | None, variant_name: str | None = None,
            ranking: str | None = None) -> tuple[Season | None, str, dict[str, str]]:
    """`select`'s season and rule, checked, and the club's players (name_key → name)."""
    if variant_name is not None and variant_name not in VARIANTS:
        raise LeagueError(f"no variant {variant_name!r}; the variants are: "
                          f"{', '.join(VARIANTS.names())}")
    if ranking is not None and ranking not in RANKINGS:
        raise LeagueError(f"no ranking rule {ranking!r}; the rules are: {', '.join(RANKINGS)}")
    chosen = league.season(season)
    rule = ranking or (chosen.ranking if chosen else DEFAULT_RANKING)
    return chosen, rule, league.identities()


def answer(chosen: Season | None, rule: str, found: list[Table]) -> dict[str, Any]:
    """The standings as `GET /api/club/standings` answers them."""
    return {"season": chosen.as_dict() if chosen else None, "ranking": rule,
            "tables": [t.as_dict() for t in found]}


def standings(store: GameStore, league: League, season: str | None = None,
              variant_name: str | None = None, ranking: str | None = None) -> dict[str, Any]:
    """`GET /api/club/standings`: `select`'s tables, answered."""
    return answer(*select(store, league, season, variant_name, ranking))


def big_screen(store: GameStore, league: League, season: str | None) -> dict[str, Any]:
    """The big screen's whole view: the live tables and the season's standings (`Board`:
    only what changed is read again, and the standings made again only when a finished
    game or the club's players changed)."""
    return board_of(store).view(league, season)
