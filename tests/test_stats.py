"""The players' statistics (scorekeeper/web/stats.py): per variant, from real replayed games,
what counts (finished games only) and that the numbers add up over any games."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Game
from scorekeeper.store import GameStore
from scorekeeper.web.stats import PlayerStats, TableStats, read_stats, table_stats


def view(game: Game, gid: int = 1) -> dict[str, Any]:
    return {"id": gid, **game.snapshot()}


def rummy_hand(out: str, held: dict[str, int], rummy: bool = False) -> dict[str, Any]:
    players = [{"name": out, "went_out": True, "hand": [], **({"rummy": True} if rummy else {})}]
    players += [{"name": n, "held": v} for n, v in held.items()]
    return {"type": "hand", "players": players}


def chicago_hand(knocker: str, held: dict[str, int], rummy: bool = False) -> dict[str, Any]:
    flag = "rummy" if rummy else "knocked"
    return {"type": "hand", "players": [{"name": n, "held": v, **({flag: True} if n == knocker
                                                                   else {})}
                                        for n, v in held.items()]}


def played(variant: str, names: list[str], *events: dict[str, Any], **s: Any) -> Game:
    game = Game(variant, names, settings=s or None)
    for event in events:
        game.apply(event)
    return game


def line(stats: TableStats, variant: str, name: str) -> PlayerStats:
    table = next(v for v in stats.variants if v.variant == variant)
    return next(p for p in table.players if p.name == name)


def test_rummy_wins_hands_and_best_hand() -> None:
    g = played("rummy", ["Ann", "Bob"], rummy_hand("Ann", {"Bob": 30}),
               rummy_hand("Bob", {"Ann": 10}), rummy_hand("Ann", {"Bob": 40}, rummy=True),
               target=100)
    stats = table_stats([view(g)])
    ann, bob = line(stats, "rummy", "Ann"), line(stats, "rummy", "Bob")
    assert stats.games == 1 and g.snapshot()["winner"] == "Ann"
    assert (ann.games, ann.wins, ann.win_rate, ann.hands) == (1, 1, 1.0, 3)
    assert (ann.points, ann.hands_won, ann.went_out, ann.best_hand) == (30 + 80, 2, 2, 80)
    assert (bob.games, bob.wins, bob.hands_won, bob.went_out, bob.best_hand) == (1, 0, 1, 1, 10)
    assert bob.average == pytest.approx(10 / 3) and ann.average == pytest.approx(110 / 3)
    assert [p.name for p in stats.variants[0].players] == ["Ann", "Bob"]  # winner first


def test_chicago_knocks_undercuts_and_lowest_is_best() -> None:
    # Ann knocks with 5 against 20 (good), then with 8 against Bob's 3 (undercut: +15)
    g = played("chicago", ["Ann", "Bob"], chicago_hand("Ann", {"Ann": 5, "Bob": 20}),
               chicago_hand("Ann", {"Ann": 8, "Bob": 3}), {"type": "end", "how": "finished"})
    stats = table_stats([view(g)])
    ann, bob = line(stats, "chicago", "Ann"), line(stats, "chicago", "Bob")
    assert stats.variants[0].low_wins and stats.variants[0].knocks
    assert (ann.knocks, ann.undercut, ann.went_out, ann.best_hand) == (2, 1, 2, 5)
    assert (bob.knocks, bob.undercut, bob.went_out, bob.best_hand) == (0, 0, 0, 3)
    assert ann.points == 5 + 8 + 15 and bob.points == 23
    assert (ann.hands_won, bob.hands_won) == (1, 1)
    assert (ann.wins, bob.wins) == (0, 1)  # ended by the admin: the leader (lowest) wins


def test_only_finished_games_count() -> None:
    open_game = played("rummy", ["Ann", "Bob"], rummy_hand("Ann", {"Bob": 30}))
    abandoned = played("rummy", ["Ann", "Bob"], rummy_hand("Bob", {"Ann": 30}),
                       {"type": "end", "how": "abandoned"})
    assert table_stats([view(open_game, 1), view(abandoned, 2)]) == TableStats(games=0,
                                                                              variants=[])


def test_a_name_is_one_player_whatever_its_case_shown_as_last_spelt() -> None:
    old = played("rummy", ["ann", "Bob"], rummy_hand("ann", {"Bob": 60}), target=50)
    new = played("rummy", ["Ann ", "Cy"], rummy_hand("Cy", {"Ann": 60}), target=50)
    stats = table_stats([view(new, 2), view(old, 1)])  # newest first, as the store lists
    names = [p.name for p in stats.variants[0].players]
    assert sorted(names) == ["Ann", "Bob", "Cy"]
    ann = line(stats, "rummy", "Ann")
    assert (ann.games, ann.wins, ann.hands) == (2, 1, 2)


def test_a_tied_hand_is_won_by_nobody() -> None:
    g = played("chicago", ["Ann", "Bob"], chicago_hand("Ann", {"Ann": 4, "Bob": 4}),
               {"type": "end", "how": "finished"}, knocker_tie="safe")
    stats = table_stats([view(g)])
    assert sum(p.hands_won for p in stats.variants[0].players) == 0


def test_read_stats_from_a_store_skips_deleted_games(tmp_path: Any) -> None:
    with GameStore(tmp_path / "games.db") as store:
        kept = store.create("rummy", ["Ann", "Bob"], {"target": 50})["id"]
        store.append(kept, rummy_hand("Ann", {"Bob": 60}))
        gone = store.create("rummy", ["Ann", "Bob"], {"target": 50})["id"]
        store.append(gone, rummy_hand("Bob", {"Ann": 60}))
        store.append(gone, {"type": "end", "how": "deleted"})
        stats = read_stats(store)
    assert stats.games == 1 and line(stats, "rummy", "Ann").wins == 1
    assert line(stats, "rummy", "Bob").wins == 0


NAMES = ["Ann", "Bob", "Cy", "Dee"]


@st.composite
def rummy_games(draw: st.DrawFn) -> Game:
    """A Rummy game of 2–4 players, some hands, perhaps ended by the admin."""
    names = NAMES[:draw(st.integers(2, 4))]
    game = Game("rummy", names, settings={"target": draw(st.sampled_from([50, 100, 200]))})
    for _ in range(draw(st.integers(0, 6))):
        if game.snapshot()["game_over"]:
            break
        out = draw(st.sampled_from(names))
        game.apply(rummy_hand(out, {n: draw(st.integers(1, 40)) for n in names if n != out},
                   rummy=draw(st.booleans())))
    if not game.snapshot()["game_over"]:
        game.apply({"type": "end", "how": draw(st.sampled_from(["finished", "abandoned"]))})
    return game


@given(st.lists(rummy_games(), max_size=6))
@settings(max_examples=40, deadline=None)
def test_the_stats_of_games_add_up(games: list[Game]) -> None:
    views = [view(g, i + 1) for i, g in enumerate(games)]
    stats = table_stats(views)
    finished = [v for v in views if v["state"] == "finished"]
    assert stats.games == len(finished)
    players = [p for t in stats.variants for p in t.players]
    assert sum(p.wins for p in players) == sum(1 for v in finished if v["winner"])
    assert sum(p.games for p in players) == sum(len(v["players"]) for v in finished)
    assert sum(p.hands for p in players) == sum(len(h["result"]["players"])
                                                for v in finished for h in v["hands"])
    assert sum(p.went_out for p in players) == sum(len(v["hands"]) for v in finished)
    assert sum(p.points for p in players) == sum(p["total"] for v in finished
                                                 for p in v["players"])
    for p in players:
        assert 0 <= p.wins <= p.games and 0 <= p.hands_won <= p.hands
        assert (p.best_hand is None) == (p.hands == 0)
