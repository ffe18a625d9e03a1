"""The big screen's kept reads (club/league_board.py, Board): what it keeps is read again
when it changed, and only then; the standings are made again when a game ends, a finished
game changes, or the club's players or seasons change, never for a live hand; and whatever
happens, the view equals the one made from scratch from every game (the pure functions
that tests/test_club_league_standings.py checks against a replay)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from test_club_league import (  # noqa: F401  (the fixtures `pg_server` and `store`)
    link_game,
    pg_server_fixture,
    store_fixture,
)

from scorekeeper.club import league_board
from scorekeeper.club.league import League, new_season
from scorekeeper.club.league_board import Board, answer, board, links, on_screen, records
from scorekeeper.club.presence import read as read_presence
from scorekeeper.club.standings import GameRecord, name_key, tables
from scorekeeper.club.tables import Tables
from scorekeeper.store import GameStore
from tests import pg

NOW = datetime.now(UTC)
TODAY = NOW.date()
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def hand(store: GameStore, gid: int, ender: str | None = None, held: int = 20) -> bool:
    """One hand of typed points, `ender` (else the first standing player) going out: the
    game over after it?"""
    view = store.get(gid)
    standing = [p["name"] for p in view["players"] if not p["eliminated"]]
    out = ender or standing[0]
    players: list[dict[str, Any]] = [
        {"name": n, "held": 0, "went_out": True} if n == out else {"name": n, "held": held}
        for n in standing]
    return bool(store.append(gid, {"type": "hand", "players": players})[0]["game_over"])


def from_scratch(store: GameStore, league: League, season: str | None,
                 now: datetime = NOW) -> dict[str, Any]:
    """The view as it was made before anything was kept: every game and link read, every
    record converted, the standings made."""
    games, found = store.games(), links(store.database)
    chosen = league.season(season)
    rule = chosen.ranking if chosen else "wins"
    found_tables = tables(records(games, found), league.identities(), rule,
                          chosen.window if chosen else None)
    return {"tables": on_screen(board(found, games, now, read_presence(store.database))),
            "standings": answer(chosen, rule, found_tables)}


class Counts:
    """How often the standings were made and game summaries converted to records."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.standings = 0
        self.records = 0
        made, of = league_board.tables, GameRecord.of.__func__  # type: ignore[attr-defined]

        def counted_tables(*args: Any, **kwargs: Any) -> Any:
            self.standings += 1
            return made(*args, **kwargs)

        def counted_of(cls: type[GameRecord], game: Any) -> GameRecord:
            self.records += 1
            return of(cls, game)  # type: ignore[no-any-return]

        monkeypatch.setattr(league_board, "tables", counted_tables)
        monkeypatch.setattr(GameRecord, "of", classmethod(counted_of))

    def since(self, work: Callable[[], Any]) -> tuple[int, int]:
        """(standings made, records converted) while `work` ran."""
        before = self.standings, self.records
        work()
        return self.standings - before[0], self.records - before[1]


@pytest.fixture
def club(store: GameStore) -> tuple[GameStore, League]:
    league = League(store.database)
    for name in ("t1", "t2", "t3"):
        Tables(store.database).add(name)
    league.add_players(["Ann", "Bob"])
    return store, league


def new_game(store: GameStore, table: str, players: list[str], hands: int = 2,
             started: str | None = None) -> int:
    gid = int(store.create("rummy", players, {"hands": hands})["id"])
    link_game(store.database, table, gid, started)
    return gid


def ranked(view: dict[str, Any]) -> list[tuple[str, int | None, int]]:
    return [(r["name"], r["rank"], r["played"])
            for t in view["standings"]["tables"] for r in t["rows"]]


# ---- the store's reads the board is made of -----------------------------------------------


def test_versions_and_games_by_id_read_only_what_is_asked(store: GameStore) -> None:
    a = int(store.create("rummy", ["Ann", "Bob"], {"hands": 3})["id"])
    b = int(store.create("chicago", ["Ann", "Bob"])["id"])
    assert store.versions() == {a: 0, b: 0}
    hand(store, a)
    assert store.versions() == {a: 1, b: 0}
    assert [(g["id"], g["seq"]) for g in store.games([a])] == [(a, 1)]
    assert [g["id"] for g in store.games([b, a, a])] == [b, a]  # newest first, once each
    assert store.games([]) == [] and store.games([b + 100]) == []
    assert store.games([a])[0]["players"] == store.games()[1]["players"]
    got = store.games([a])
    got[0]["players"][0]["total"] = 9999  # a caller's own copy
    assert store.games([a])[0]["players"][0]["total"] != 9999


# ---- kept, and read again when it changed -------------------------------------------------


def test_a_live_hand_reads_one_game_and_makes_no_standings(
        club: tuple[GameStore, League], monkeypatch: pytest.MonkeyPatch) -> None:
    store, league = club
    done = new_game(store, "t1", ["Ann", "Bob"], hands=1)
    hand(store, done)
    live = new_game(store, "t2", ["Ann", "Bob", "Cy"], hands=5)
    counts = Counts(monkeypatch)
    board_ = Board(store)
    assert counts.since(lambda: board_.view(league, None, NOW)) == (1, 2)
    assert counts.since(lambda: board_.view(league, None, NOW)) == (0, 0)  # nothing changed
    hand(store, live, "Cy")
    assert counts.since(lambda: board_.view(league, None, NOW)) == (0, 1)
    view = board_.view(league, None, NOW)
    assert [(t["table"], t["seq"]) for t in view["tables"]] == [("t1", 1), ("t2", 1)]
    assert view == from_scratch(store, league, None)
    # the standings route and the CLI read the same kept records
    assert counts.since(lambda: board_.select(league, "all", "rummy", "points")) == (1, 0)
    assert counts.since(lambda: board_.select(league, "all", "rummy", "points")) == (0, 0)


def test_a_game_ending_shows_in_the_next_view(club: tuple[GameStore, League],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store, league = club
    gid = new_game(store, "t1", ["Ann", "Bob"], hands=2)
    counts = Counts(monkeypatch)
    board_ = Board(store)
    assert ranked(board_.view(league, None, NOW)) == []
    assert not hand(store, gid, "Bob")
    assert counts.since(lambda: board_.view(league, None, NOW))[0] == 0
    assert hand(store, gid, "Bob")  # the game ends
    assert counts.since(lambda: board_.view(league, None, NOW))[0] == 1
    view = board_.view(league, None, NOW)
    assert ranked(view) == [("Bob", 1, 1), ("Ann", 2, 1)]
    assert view["tables"][0]["game_over"] and view == from_scratch(store, league, None)
    store.append(gid, {"type": "undo"})  # ended, then taken back at the table
    assert ranked(board_.view(league, None, NOW)) == []
    assert hand(store, gid, "Ann", held=30)  # ends again, Ann winning
    store.append(gid, {"type": "rename", "old": "Ann", "new": "Dee"})  # after its end
    assert ranked(board_.view(league, None, NOW)) == [("Bob", 1, 1), ("Dee", None, 1)]
    assert board_.view(league, None, NOW) == from_scratch(store, league, None)


def test_the_players_list_changing_shows_in_the_next_view(
        club: tuple[GameStore, League], monkeypatch: pytest.MonkeyPatch) -> None:
    store, league = club
    gid = new_game(store, "t1", ["Ann", "bob", "Cy"], hands=1)
    hand(store, gid, "Cy")
    counts = Counts(monkeypatch)
    board_ = Board(store)
    assert ranked(board_.view(league, None, NOW)) == [
        ("Ann", 1, 1), ("Bob", 1, 1), ("Cy", None, 1)]
    league.add_players(["Cy"])  # a guest becomes a club player
    assert counts.since(lambda: board_.view(league, None, NOW))[0] == 1
    assert ranked(board_.view(league, None, NOW)) == [
        ("Cy", 1, 1), ("Ann", 2, 1), ("Bob", 2, 1)]
    # the list edited by another hand (an admin's tool, a later version's rename or merge):
    # a player's spelling changed, and one identity gone into another's
    with store.database.transaction() as tx:
        tx.execute("UPDATE club_players SET name = ? WHERE name_key = ?", ("BOB", "bob"))
        tx.execute("DELETE FROM club_players WHERE name_key = ?", (name_key("Ann"),))
    assert ranked(board_.view(league, None, NOW)) == [
        ("Cy", 1, 1), ("BOB", 2, 1), ("Ann", None, 1)]
    assert board_.view(league, None, NOW) == from_scratch(store, league, None)


def test_a_season_added_or_a_late_link_shows_in_the_next_view(
        club: tuple[GameStore, League]) -> None:
    store, league = club
    board_ = Board(store)
    old = new_game(store, "t1", ["Ann", "Bob"], hands=1)
    hand(store, old, "Ann")
    assert ranked(board_.view(league, None, NOW)) == [("Ann", 1, 1), ("Bob", 2, 1)]
    # a season running today: the big screen's default; one that ended last month
    league.add_season(new_season("Now", (TODAY - timedelta(days=3)).isoformat(),
                                 (TODAY + timedelta(days=3)).isoformat(), "points"))
    last = TODAY - timedelta(days=40)
    league.add_season(new_season("Before", last.isoformat(),
                                 (last + timedelta(days=10)).isoformat()))
    view = board_.view(league, None, NOW)
    assert view["standings"]["season"]["name"] == "Now"
    assert view["standings"]["ranking"] == "points"
    assert ranked(board_.view(league, "Before", NOW)) == []
    # a table offline then: its game reaches the club today, dated by when it began
    late = int(store.create("rummy", ["Ann", "Bob"], {"hands": 1})["id"])
    hand(store, late, "Bob")
    assert ranked(board_.view(league, "Before", NOW)) == []
    link_game(store.database, "t2", late, f"{(last + timedelta(days=1)).isoformat()}T20:00:00"
                                          "+00:00")
    assert ranked(board_.view(league, "Before", NOW)) == [("Bob", 1, 1), ("Ann", 2, 1)]
    for season in (None, "all", "Now", "Before"):
        assert board_.view(league, season, NOW) == from_scratch(store, league, season)


def test_a_game_written_by_another_server_shows(pg_server: str) -> None:
    url = pg.fresh_database(pg_server)
    mine, theirs = GameStore(url), GameStore(url)
    try:
        league = League(mine.database)
        Tables(mine.database).add("t1")
        board_ = Board(mine)
        assert board_.view(league, None, NOW)["tables"] == []
        gid = new_game(theirs, "t1", ["Ann", "Bob"], hands=1)
        assert [t["seq"] for t in board_.view(league, None, NOW)["tables"]] == [0]
        hand(theirs, gid, "Ann")
        view = board_.view(league, None, NOW)
        assert view["tables"][0]["game_over"] and ranked(view) == [
            ("Ann", None, 1), ("Bob", None, 1)]
        assert view == from_scratch(mine, league, None)
    finally:
        mine.close()
        theirs.close()


def test_each_store_has_its_own_board(tmp_path: Path) -> None:
    one, two = GameStore(tmp_path / "one.db"), GameStore(tmp_path / "two.db")
    try:
        assert league_board.board_of(one) is league_board.board_of(one)
        assert league_board.board_of(one) is not league_board.board_of(two)
    finally:
        one.close()
        two.close()


# ---- whatever happens, the kept view equals the one made from scratch --------------------


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_view_equals_one_made_from_scratch(club: tuple[GameStore, League],
                                                    seed: int) -> None:
    store, league = club
    rng = random.Random(seed)
    board_ = Board(store)
    seasons: list[str | None] = [None, "all"]
    made = 0

    def days_ago(n: int) -> str:
        return (NOW - timedelta(days=n)).isoformat(timespec="seconds")

    for step in range(60):
        games = store.games()
        live = [g["id"] for g in games if not g["game_over"]]
        what = rng.choice(["new", "hand", "hand", "hand", "undo", "rename", "player",
                           "season", "late"])
        if what == "new" or (what == "hand" and not live):
            names = rng.sample(PLAYERS, rng.randint(2, 3))
            if rng.random() < 0.3:
                names = [n.lower() for n in names]
            new_game(store, rng.choice(["t1", "t2", "t3"]), names, rng.randint(1, 3),
                     rng.choice([None, days_ago(rng.randint(0, 60))]))
        elif what == "hand":
            gid = rng.choice(live)
            standing = [p["name"] for p in store.get(gid)["players"] if not p["eliminated"]]
            hand(store, gid, rng.choice(standing), rng.randint(1, 60))
        elif what == "undo" and games:
            gid = rng.choice(games)["id"]
            if store.get(gid)["hands"]:
                store.append(gid, {"type": "undo"})
        elif what == "rename" and games:
            game = rng.choice(games)
            old = rng.choice(game["players"])["name"]
            new = f"{old}x"
            if all(p["name"] != new for p in game["players"]):
                store.append(game["id"], {"type": "rename", "old": old, "new": new})
        elif what == "player":
            league.add_players([rng.choice(PLAYERS + [f"{n}x" for n in PLAYERS])])
        elif what == "season":
            starts = TODAY - timedelta(days=rng.randint(0, 60))
            name = f"S{step}"
            league.add_season(new_season(name, starts.isoformat(),
                                         (starts + timedelta(days=rng.randint(0, 30))
                                          ).isoformat(), rng.choice(["wins", "points",
                                                                      "average"])))
            seasons.append(name)
        elif what == "late":  # a game at the club before its link (a table's late sync)
            gid = int(store.create("rummy", rng.sample(PLAYERS, 2), {"hands": 1})["id"])
            hand(store, gid)
            if rng.random() < 0.7:
                link_game(store.database, rng.choice(["t1", "t2", "t3"]), gid,
                          days_ago(rng.randint(0, 60)))
        for season in rng.sample(seasons, min(2, len(seasons))):
            assert board_.view(league, season, NOW) == from_scratch(store, league, season), (
                step, what, season)
        made += 1
    assert made == 60
