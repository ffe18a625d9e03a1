"""Player statistics across the games kept on this table: a pure function of the games.

Only finished games count, as in the club's standings: an unfinished game's totals are not
final, and an abandoned one may be a test or a mistake. A deleted game is never listed by
the store, so it never counts. A player is a name, matched as the standings match it
(`name_key`: case and surrounding spaces aside), shown in its latest spelling.

Each variant has its own table, since its points mean different things: where low wins
(Chicago) a hand's best is its lowest score, elsewhere its highest. A hand is won by the one
player with that best score (a tie wins nobody the hand); a player went out when they
ended the hand (knocked, went out or went rummy).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from scorekeeper.club.standings import name_key
from scorekeeper.rules.variants import VARIANTS, variant
from scorekeeper.store import GameStore

_ENDS = ("knocked", "went_out", "rummy")  # a player's flags that say they ended the hand


class PlayerStats(BaseModel):
    """One player's line in a variant's table."""

    name: str
    games: int = Field(description="finished games played")
    wins: int = Field(description="finished games won")
    win_rate: float = Field(description="wins / games, 0 to 1")
    hands: int = Field(description="hands played in those games")
    points: int = Field(description="the points those hands scored")
    average: float = Field(description="points per hand")
    hands_won: int = Field(description="hands with the best score, alone")
    went_out: int = Field(description="hands this player ended (knocked, went out or rummy)")
    knocks: int = Field(description="knocks (variants with a knock, else 0)")
    undercut: int = Field(description="knocks that paid the penalty (undercut or tied)")
    best_hand: int | None = Field(description="the best score of one hand: the lowest "
                                              "where low wins, else the highest")


class VariantStats(BaseModel):
    variant: str
    low_wins: bool
    knocks: bool = Field(description="whether the variant has knocks")
    games: int = Field(description="finished games of this variant")
    players: list[PlayerStats]


class TableStats(BaseModel):
    """`GET /api/stats`: the table's finished games, per variant in the page's order."""

    games: int = Field(description="finished games counted")
    variants: list[VariantStats]


@dataclass
class _Tally:
    name: str
    games: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    hands_won: int = 0
    went_out: int = 0
    knocks: int = 0
    undercut: int = 0
    best: list[int] = field(default_factory=list)


def _best(scores: Iterable[int], low: bool) -> int:
    return min(scores) if low else max(scores)


def _hand(tallies: dict[str, _Tally], hand: Mapping[str, Any], low: bool) -> None:
    """Count one hand into its players' tallies."""
    result = hand["result"]
    rows = result["players"]
    if not rows:
        return
    best = _best((int(r["points"]) for r in rows), low)
    alone = sum(1 for r in rows if int(r["points"]) == best) == 1
    ended = {name_key(p["name"]) for p in hand.get("players", ())
             if any(p.get(flag) for flag in _ENDS)}
    if result.get("went_out"):
        ended.add(name_key(result["went_out"]))
    knock = result.get("knock") or {}
    for row in rows:
        key = name_key(row["name"])
        tally = tallies[key]
        points = int(row["points"])
        tally.hands += 1
        tally.points += points
        tally.best.append(points)
        tally.hands_won += alone and points == best
        tally.went_out += key in ended
        if knock and name_key(knock["player"]) == key:
            tally.knocks += 1
            tally.undercut += int(knock.get("penalty") or 0) > 0


def _game(tallies: dict[str, _Tally], game: Mapping[str, Any], low: bool) -> None:
    for player in game["players"]:
        key = name_key(player["name"])
        tallies.setdefault(key, _Tally(player["name"])).games += 1
    winner = game.get("winner")
    if winner:
        tallies[name_key(winner)].wins += 1
    for hand in game["hands"]:
        _hand(tallies, hand, low)


def _line(t: _Tally, low: bool) -> PlayerStats:
    return PlayerStats(name=t.name, games=t.games, wins=t.wins,
                       win_rate=t.wins / t.games if t.games else 0.0, hands=t.hands,
                       points=t.points, average=t.points / t.hands if t.hands else 0.0,
                       hands_won=t.hands_won, went_out=t.went_out, knocks=t.knocks,
                       undercut=t.undercut, best_hand=_best(t.best, low) if t.best else None)


def counted(game: Mapping[str, Any]) -> bool:
    """Whether a game counts: finished (by the rules or the admin), not abandoned."""
    state = game.get("state", "finished" if game.get("game_over") else "in_play")
    return bool(state == "finished")


def table_stats(games: Iterable[Mapping[str, Any]]) -> TableStats:
    """The statistics of `games` (the store's views, with hands), newest first so that a
    player's latest spelling is the one shown; games that do not count are skipped."""
    by_variant: dict[str, dict[str, _Tally]] = {}
    finished: dict[str, int] = {}
    for game in games:
        if not counted(game):
            continue
        name = str(game["variant"])
        low = variant(name).low_wins
        _game(by_variant.setdefault(name, {}), game, low)
        finished[name] = finished.get(name, 0) + 1
    out = []
    for rules in VARIANTS.entries():
        tallies = by_variant.get(rules.name)
        if tallies is None:
            continue
        lines = [_line(t, rules.low_wins) for t in tallies.values()]
        lines.sort(key=lambda p: (-p.wins, -p.win_rate, -p.games, name_key(p.name)))
        out.append(VariantStats(variant=rules.name, low_wins=rules.low_wins,
                                knocks=rules.knock is not None, games=finished[rules.name],
                                players=lines))
    return TableStats(games=sum(finished.values()), variants=out)


def read_stats(store: GameStore) -> TableStats:
    """The table's statistics now: each finished game's view read once (the store keeps
    replayed games cached), newest first."""
    return table_stats(store.get(int(g["id"])) for g in store.games() if counted(g))
