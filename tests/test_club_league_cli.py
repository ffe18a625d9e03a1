"""`scorekeeper club standings | players | seasons` (scorekeeper/cli/league.py): the
league from the terminal, and the standings exported as CSV."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.store import GameStore


def club(*argv: str) -> int:
    """`scorekeeper club ...`, as the command line runs it."""
    return main(["club", *argv])


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A club database with two finished rummy games and one unfinished."""
    path = tmp_path / "club.db"
    store = GameStore(path)
    try:
        for went_out, other in (("Ann", "Bob"), ("Ann", "=cmd|' /C calc'!A0"), ("Bob", "Ann")):
            gid = store.create("rummy", [went_out, other], {"hands": 1})["id"]
            if went_out == "Bob":
                continue  # unfinished: not counted
            hand = [{"name": went_out, "held": 0, "went_out": True}, {"name": other, "held": 12}]
            store.append(gid, {"type": "hand", "players": hand})
    finally:
        store.close()
    return str(path)


def test_players_and_seasons_are_added_and_listed(db: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert club("players", "add", "Ann", "bob", "--db", db) == 0
    assert club("players", "add", "ANN", "--db", db) == 0
    assert club("players", "list", "--db", db) == 0
    assert club("seasons", "add", "Autumn", "--starts", "2020-09-01", "--ends", "2020-11-30",
                "--ranking", "points", "--db", db) == 0
    assert club("seasons", "list", "--db", db) == 0
    assert capsys.readouterr().out.splitlines() == [
        "added Ann", "added bob", "ANN: already on the list", "Ann", "bob",
        "season Autumn: 2020-09-01 to 2020-11-30, ranked by points",
        "Autumn: 2020-09-01 to 2020-11-30, ranked by points"]


def test_refusals_are_one_line_and_exit_2(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert club("seasons", "add", "S", "--starts", "2025-09-01", "--ends", "2025-08-01",
                "--db", db) == 2
    assert club("standings", "--season", "Spring", "--db", db) == 2
    assert club("players", "add", "a\tb", "--db", db) == 2
    assert capsys.readouterr().err.splitlines() == [
        "scorekeeper club seasons add: the season ends (2025-08-01) before it starts "
        "(2025-09-01)",
        "scorekeeper club standings: no season named 'Spring' (the seasons: none yet)",
        "scorekeeper club players add: a player's name cannot hold control characters "
        "(tabs, line breaks…)"]


def test_standings_print_a_table(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    club("players", "add", "Ann", "Bob", "--db", db)
    capsys.readouterr()
    assert club("standings", "--db", db) == 0
    out = capsys.readouterr().out
    assert out.startswith("every game, ranked by wins: most wins, then the best win rate")
    lines = out.splitlines()
    assert "Rummy (highest points best)" in lines
    assert lines[-3].split() == ["1", "Ann", "2", "2", "24", "12.00"]
    assert lines[-2].split() == ["2", "Bob", "1", "0", "0", "0.00"]
    assert lines[-1].split()[:2] == ["-", "=cmd|'"] and "(guest)" in lines[-1]


def test_standings_export_as_csv_to_a_file_and_to_stdout(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club("players", "add", "Ann", "Bob", "--db", db)
    target = tmp_path / "standings.csv"
    assert club("standings", "--csv", str(target), "--ranking", "average", "--db", db) == 0
    with target.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows == [
        ["variant", "rank", "player", "guest", "played", "wins", "points", "average"],
        ["rummy", "1", "Ann", "no", "2", "2", "24", "12.00"],
        ["rummy", "2", "Bob", "no", "1", "0", "0", "0.00"],
        # a name a spreadsheet would run is quoted, not executed
        ["rummy", "", "'=cmd|' /C calc'!A0", "yes", "1", "0", "0", "0.00"]]
    capsys.readouterr()
    assert club("standings", "--csv", "-", "--variant", "chicago", "--db", db) == 0
    assert list(csv.reader(io.StringIO(capsys.readouterr().out))) == [rows[0]]
