"""The league table: a pure function of the club's games, its player list and a season.

Nothing here reads a database or a clock, so the standings the big screen shows are
exactly what a replay of every game from scratch gives (tests/test_club_league_standings.py
checks both), in whatever order the games come.

Only finished games count: an unfinished game is neither played nor won, since its totals
are not final and it may yet be abandoned. A player is a club player when the name at the
table matches one on the club's list (case and surrounding spaces aside); any other name is
a guest: shown, never ranked.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorekeeper.rules import RulesError
from scorekeeper.rules.variants import VARIANTS, variant

ALL = "all"  # the season name that means every game (refused as a season's own name)
DEFAULT_RANKING = "wins"
# The ranking rules a season may name, in words (docs/club.md, `club seasons add --help`).
RANKINGS: dict[str, str] = {
    "wins": "most wins, then the best win rate, then the best points",
    "points": "the best points in all (highest, or lowest where low wins), then most wins",
    "average": "the best points per game, then most wins, then most games",
}


def name_key(name: str) -> str:
    """The identity a name stands for: NFC, stripped and case-folded, as a game matches it."""
    return unicodedata.normalize("NFC", name).strip().casefold()


@dataclass(frozen=True)
class GameRecord:
    """What the standings need of one game: its summary or its replayed view, which agree."""

    id: int
    variant: str
    created_at: str  # ISO 8601, UTC: its first ten characters are the date
    game_over: bool
    winner: str | None
    players: tuple[tuple[str, int], ...]  # (name, final total), in seat order

    @classmethod
    def of(cls, game: Mapping[str, Any]) -> GameRecord:
        """From `GameStore.games()`'s summary or `GameStore.get()`'s view."""
        return cls(int(game["id"]), str(game["variant"]), str(game["created_at"]),
                   bool(game.get("game_over")), game.get("winner"),
                   tuple((str(p["name"]), int(p["total"])) for p in game["players"]))


@dataclass(frozen=True)
class Window:
    """The games a season counts: created from `starts` to `ends`, both dates included."""

    starts: str  # YYYY-MM-DD
    ends: str

    def holds(self, created_at: str) -> bool:
        return self.starts <= created_at[:10] <= self.ends


@dataclass(frozen=True)
class Row:
    """One player's line in a variant's table; `rank` is None for a guest."""

    name: str
    guest: bool
    played: int
    wins: int
    points: int
    rank: int | None = None

    @property
    def average(self) -> Fraction:
        return Fraction(self.points, self.played)

    def as_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "guest": self.guest,
                "played": self.played, "wins": self.wins, "points": self.points,
                "average": round(float(self.average), 2)}


@dataclass(frozen=True)
class Table:
    """The standings of one variant."""

    variant: str
    label: str
    low_wins: bool
    rows: tuple[Row, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "label": self.label, "low_wins": self.low_wins,
                "rows": [r.as_dict() for r in self.rows]}


SortKey = tuple[Any, ...]


def sort_key(ranking: str, low_wins: bool) -> Callable[[Row], SortKey]:
    """Better rows sort first; rows with equal keys share a rank. Fractions, not floats,
    so that two equal win rates or averages are equal."""
    better = 1 if low_wins else -1  # points sort ascending where the lowest total wins
    if ranking == "wins":
        return lambda r: (-r.wins, -Fraction(r.wins, r.played), better * r.points)
    if ranking == "points":
        return lambda r: (better * r.points, -r.wins)
    if ranking == "average":
        return lambda r: (better * r.average, -r.wins, -r.played)
    raise ValueError(f"no ranking rule {ranking!r}; the rules are: {', '.join(RANKINGS)}")


def _low_wins(name: str) -> tuple[str, bool]:
    """The variant's label and direction; a variant this version no longer knows is shown
    by its id and ranked high-wins rather than dropped."""
    try:
        rules = variant(name)
    except RulesError:
        return name, False
    return rules.label, rules.low_wins


def rank(rows: Iterable[Row], ranking: str, low_wins: bool) -> tuple[Row, ...]:
    """Club players ranked (ties share the better rank: 1, 2, 2, 4), then guests unranked,
    each part in ranking order with names breaking ties for a stable display."""
    key = sort_key(ranking, low_wins)
    ordered = sorted(rows, key=lambda r: (r.guest, key(r), r.name.casefold(), r.name))
    out: list[Row] = []
    prev: SortKey | None = None
    current = 0
    for place, row in enumerate((r for r in ordered if not r.guest), start=1):
        k = key(row)
        current = current if k == prev else place
        prev = k
        out.append(Row(row.name, False, row.played, row.wins, row.points, current))
    return (*out, *(r for r in ordered if r.guest))


@dataclass
class _Tally:
    names: set[str]
    played: int = 0
    wins: int = 0
    points: int = 0


def table(games: Iterable[GameRecord], club: Mapping[str, str], variant_name: str,
          ranking: str = DEFAULT_RANKING, window: Window | None = None) -> Table:
    """The standings of one variant: `club` maps a name_key to the club's spelling."""
    tallies: dict[str, _Tally] = {}
    for game in games:
        if game.variant != variant_name or not game.game_over:
            continue
        if window is not None and not window.holds(game.created_at):
            continue
        winner = name_key(game.winner) if game.winner is not None else None
        for name, total in game.players:
            key = name_key(name)
            tally = tallies.setdefault(key, _Tally(set()))
            tally.names.add(name)
            tally.played += 1
            tally.wins += key == winner
            tally.points += total
    rows = (Row(club.get(key) or min(t.names), key not in club, t.played, t.wins, t.points)
            for key, t in tallies.items())
    label, low_wins = _low_wins(variant_name)
    return Table(variant_name, label, low_wins, rank(rows, ranking, low_wins))


def tables(games: Iterable[GameRecord], club: Mapping[str, str], ranking: str = DEFAULT_RANKING,
           window: Window | None = None, only: str | None = None) -> list[Table]:
    """Every variant with a counted game (the registry's order, then any other), or `only`."""
    records = list(games)
    if only is not None:
        return [table(records, club, only, ranking, window)]
    counted = {g.variant for g in records
               if g.game_over and (window is None or window.holds(g.created_at))}
    known = [name for name in VARIANTS.names() if name in counted]
    names = known + sorted(counted - set(known))
    return [table(records, club, name, ranking, window) for name in names]


CSV_HEADER = ("variant", "rank", "player", "guest", "played", "wins", "points", "average")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A name a spreadsheet would run as a formula is quoted with a leading apostrophe."""
    return f"'{text}" if text.startswith(_FORMULA) else text


def csv_rows(found: Iterable[Table]) -> Iterable[tuple[str | int, ...]]:
    """The standings as CSV rows (header first), for `scorekeeper club standings --csv`."""
    yield CSV_HEADER
    for t in found:
        for r in t.rows:
            yield (t.variant, "" if r.rank is None else r.rank, _cell(r.name),
                   "yes" if r.guest else "no", r.played, r.wins, r.points,
                   f"{float(r.average):.2f}")
