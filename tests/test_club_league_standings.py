"""The league table (scorekeeper/club/standings.py): each ranking rule with its ties, who
counts, and that the standings are a pure function of the games: the same from the
store's summaries as from a replay of every game from scratch, in any order."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.club.standings import (
    CSV_HEADER,
    GameRecord,
    Row,
    Window,
    csv_rows,
    name_key,
    rank,
    table,
    tables,
)
from scorekeeper.store import GameStore


def game(gid: int, variant: str, totals: dict[str, int], winner: str | None,
         over: bool = True, day: str = "2025-09-05") -> GameRecord:
    return GameRecord(gid, variant, f"{day}T20:00:00+00:00", over, winner,
                      tuple(totals.items()))


def ranked(rows: tuple[Row, ...]) -> list[tuple[int | None, str]]:
    return [(r.rank, r.name) for r in rows]


CLUB = {name_key(n): n for n in ("Ann", "Bob", "Cy", "Dee")}

# (rule, low_wins, rows as (name, played, wins, points), expected [(rank, name)])
RANKING_CASES: list[tuple[str, bool, list[tuple[str, int, int, int]],
                          list[tuple[int | None, str]]]] = [
    # wins: most wins first, then the better win rate, then points in the game's direction
    ("wins", False, [("Ann", 4, 2, 300), ("Bob", 2, 2, 100), ("Cy", 3, 3, 50)],
     [(1, "Cy"), (2, "Bob"), (3, "Ann")]),
    ("wins", False, [("Ann", 2, 1, 300), ("Bob", 2, 1, 100)], [(1, "Ann"), (2, "Bob")]),
    ("wins", True, [("Ann", 2, 1, 300), ("Bob", 2, 1, 100)], [(1, "Bob"), (2, "Ann")]),
    # a tie on every key shares the rank, and the next rank skips (1, 1, 3)
    ("wins", False, [("Bob", 2, 1, 100), ("Ann", 2, 1, 100), ("Cy", 2, 0, 500)],
     [(1, "Ann"), (1, "Bob"), (3, "Cy")]),
    # win rate as an exact fraction: 1/3 and 2/6 are equal
    ("wins", False, [("Ann", 3, 2, 10), ("Bob", 6, 2, 10)], [(1, "Ann"), (2, "Bob")]),
    ("wins", False, [("Ann", 3, 1, 10), ("Bob", 3, 1, 10), ("Cy", 9, 3, 10)],
     [(1, "Cy"), (2, "Ann"), (2, "Bob")]),
    # points: the best total (highest, or lowest in a penalty game), then wins
    ("points", False, [("Ann", 3, 0, 400), ("Bob", 3, 3, 200)], [(1, "Ann"), (2, "Bob")]),
    ("points", True, [("Ann", 3, 0, 400), ("Bob", 3, 3, 200)], [(1, "Bob"), (2, "Ann")]),
    ("points", True, [("Ann", 3, 1, 200), ("Bob", 3, 2, 200), ("Cy", 1, 1, 200)],
     [(1, "Bob"), (2, "Ann"), (2, "Cy")]),
    # average: the best points per game, then wins, then games played
    ("average", False, [("Ann", 4, 1, 400), ("Bob", 1, 0, 150)], [(1, "Bob"), (2, "Ann")]),
    ("average", True, [("Ann", 4, 1, 400), ("Bob", 1, 0, 150)], [(1, "Ann"), (2, "Bob")]),
    ("average", False, [("Ann", 2, 1, 200), ("Bob", 4, 1, 400), ("Cy", 4, 2, 400)],
     [(1, "Cy"), (2, "Bob"), (3, "Ann")]),
    ("average", False, [("Ann", 2, 1, 200), ("Bob", 2, 1, 200)], [(1, "Ann"), (1, "Bob")]),
]


@pytest.mark.parametrize(("rule", "low", "rows", "expected"), RANKING_CASES)
def test_each_ranking_rule_orders_and_ties(rule: str, low: bool,
                                           rows: list[tuple[str, int, int, int]],
                                           expected: list[tuple[int | None, str]]) -> None:
    built = [Row(name, False, played, wins, points) for name, played, wins, points in rows]
    assert ranked(rank(built, rule, low)) == expected
    assert ranked(rank(reversed(built), rule, low)) == expected


def test_guests_are_shown_after_the_ranked_players_without_a_rank() -> None:
    rows = [Row("Zed", True, 5, 5, 900), Row("Ann", False, 1, 0, 1), Row("Al", True, 1, 1, 5)]
    assert ranked(rank(rows, "wins", False)) == [(1, "Ann"), (None, "Zed"), (None, "Al")]


def test_unknown_ranking_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="no ranking rule 'best'"):
        rank([Row("Ann", False, 1, 1, 1)], "best", False)


def test_only_finished_games_count_and_names_match_the_club_list() -> None:
    games = [
        game(1, "rummy", {"ann ": 150, "Bob": 20}, "ann "),
        game(2, "rummy", {"ANN": 30, "Bob": 160, "Eve": 0}, "Bob"),
        game(3, "rummy", {"Ann": 900, "Bob": 0}, None, over=False),  # neither played nor won
        game(4, "chicago", {"Ann": 40, "Bob": 100}, "Ann"),  # another variant
        game(5, "rummy", {"Ann": 75, "Bob": 75}, None),  # a finished draw: played, not won
    ]
    rummy = table(games, CLUB, "rummy")
    # Ann and Bob: 3 played, 1 won, 255 points each: one rank, shared
    assert [r.as_dict() for r in rummy.rows] == [
        {"rank": 1, "name": "Ann", "guest": False, "played": 3, "wins": 1, "points": 255,
         "average": 85.0},
        {"rank": 1, "name": "Bob", "guest": False, "played": 3, "wins": 1, "points": 255,
         "average": 85.0},
        {"rank": None, "name": "Eve", "guest": True, "played": 1, "wins": 0, "points": 0,
         "average": 0.0},
    ]
    assert (rummy.label, rummy.low_wins) == ("Rummy", False)


def test_ties_on_points_in_a_high_game_share_the_rank() -> None:
    games = [game(1, "rummy", {"Ann": 100, "Bob": 100}, "Ann"),
             game(2, "rummy", {"Ann": 100, "Bob": 100}, "Bob")]
    assert ranked(table(games, CLUB, "rummy", "points").rows) == [(1, "Ann"), (1, "Bob")]


def test_chicago_ranks_the_lowest_total_first() -> None:
    games = [game(1, "chicago", {"Ann": 104, "Bob": 40, "Cy": 60}, "Bob"),
             game(2, "chicago", {"Ann": 30, "Bob": 101, "Cy": 55}, "Ann")]
    found = table(games, CLUB, "chicago", "points")
    assert found.low_wins
    assert ranked(found.rows) == [(1, "Cy"), (2, "Ann"), (3, "Bob")]


def test_a_season_counts_the_games_begun_within_its_dates() -> None:
    games = [game(1, "rummy", {"Ann": 1, "Bob": 0}, "Ann", day="2025-08-31"),
             game(2, "rummy", {"Ann": 1, "Bob": 0}, "Ann", day="2025-09-01"),
             game(3, "rummy", {"Ann": 0, "Bob": 1}, "Bob", day="2025-09-30"),
             game(4, "rummy", {"Ann": 0, "Bob": 1}, "Bob", day="2025-10-01")]
    rows = table(games, CLUB, "rummy", window=Window("2025-09-01", "2025-09-30")).rows
    assert {(r.name, r.played, r.wins) for r in rows} == {("Ann", 2, 1), ("Bob", 2, 1)}
    assert tables(games, CLUB, window=Window("2026-01-01", "2026-12-31")) == []


def test_tables_follow_the_variants_order_and_only_is_one() -> None:
    games = [game(1, "rummy500", {"Ann": 500, "Bob": 0}, "Ann"),
             game(2, "chicago", {"Ann": 100, "Bob": 0}, "Bob")]
    assert [t.variant for t in tables(games, CLUB)] == ["chicago", "rummy500"]
    assert [t.variant for t in tables(games, CLUB, only="rummy")] == ["rummy"]
    assert tables(games, CLUB, only="rummy")[0].rows == ()


def test_csv_rows_guard_against_spreadsheet_formulas() -> None:
    games = [game(1, "rummy", {"=SUM(A1)": 10, "Ann": 0}, "=SUM(A1)")]
    rows = list(csv_rows(tables(games, CLUB)))
    assert rows[0] == CSV_HEADER
    assert rows[1:] == [("rummy", 1, "Ann", "no", 1, 0, 0, "0.00"),
                        ("rummy", "", "'=SUM(A1)", "yes", 1, 1, 10, "10.00")]


# ---- a pure function of the games: summaries = replay from scratch, in any order --------

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def play(store: GameStore, rng: random.Random, variant: str, names: list[str],
         hands: int) -> None:
    """A game of `hands` random hands with typed points (it may end before, or not end)."""
    settings = {"hands": rng.randint(1, 4)} if variant == "rummy" else None
    gid = store.create(variant, names, settings)["id"]
    for _ in range(hands):
        view = store.get(gid)
        if view["game_over"]:
            return
        standing = [p for p in view["players"] if not p["eliminated"]]
        ender = rng.choice(standing)["name"]
        players: list[dict[str, Any]] = []
        for p in standing:
            if p["name"] != ender:
                players.append({"name": p["name"], "held": rng.randint(1, 60)})
            elif variant == "chicago":  # a legal knock: within the player's limit
                held = rng.randint(0, p["knock_limit"] or 0)
                players.append({"name": p["name"], "held": held, "knocked": True})
            else:
                players.append({"name": p["name"], "held": 0, "went_out": True})
        store.append(gid, {"type": "hand", "players": players})


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), games=st.integers(1, 6),
       club=st.sets(st.sampled_from(PLAYERS)), rule=st.sampled_from(["wins", "points",
                                                                    "average"]))
def test_standings_equal_a_replay_from_scratch_in_any_order(
        tmp_path_factory: pytest.TempPathFactory, seed: int, games: int, club: set[str],
        rule: str) -> None:
    rng = random.Random(seed)
    path = tmp_path_factory.mktemp("replay") / "games.db"
    store = GameStore(path)
    try:
        for _ in range(games):
            variant = rng.choice(["rummy", "chicago"])
            names = rng.sample(PLAYERS, rng.randint(2, 4))
            if rng.random() < 0.3:
                names = [n.lower() for n in names]  # the same people, typed otherwise
            play(store, rng, variant, names, rng.randint(0, 8))
        from_summaries = [GameRecord.of(g) for g in store.games()]
    finally:
        store.close()
    fresh = GameStore(path)  # a new store replays every game from its events
    try:
        from_replay = [GameRecord.of(fresh.get(g["id"])) for g in fresh.games()]
    finally:
        fresh.close()
    identities = {name_key(n): n for n in club}
    expected = tables(from_summaries, identities, rule)
    assert tables(from_replay, identities, rule) == expected
    rng.shuffle(from_replay)
    assert tables(from_replay, identities, rule) == expected
    counted = [g for g in from_summaries if g.game_over]
    for t in expected:
        assert sum(r.played for r in t.rows) == sum(
            len(g.players) for g in counted if g.variant == t.variant)
        assert sum(r.wins for r in t.rows) == sum(
            1 for g in counted if g.variant == t.variant and g.winner is not None)
