"""`scorekeeper club leave` on a table: it forgets its club, so that it can join another.
The games it has stay on it and are never sent to the next club; only games started after
it joins one are. It refuses while the club lacks events, unless --force."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from test_club_sync_helpers import TARGET, assert_same_games, bearer, club_game_ids, hand

import scorekeeper.club.forwarder as forwarder_module
from scorekeeper.cli import main
from scorekeeper.club.forwarder import Forwarder
from scorekeeper.club.outbox import Outbox
from scorekeeper.club.roster import CACHE_NAME
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def leave(data: Path, *more: str) -> int:
    """`scorekeeper club leave`, on the table whose data folder is `data`."""
    return main(["club", "leave", "--db", str(data / "scorekeeper.db"), *more])


@pytest.fixture(autouse=True)
def no_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("SCOREKEEPER_CONFIG", "SCOREKEEPER_CLUB_URL", "SCOREKEEPER_CLUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path / "table"}"\n')
    monkeypatch.setenv("SCOREKEEPER_CONFIG", str(config))


def club_server(path: Path) -> TestClient:
    return TestClient(create_app(Settings(data_dir=path, club_server=True, camera="none"),
                                 token="admin"))


@pytest.fixture
def clubs(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with club_server(tmp_path / "old") as old, club_server(tmp_path / "new") as new:
        yield old, new


def join(club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> Forwarder:
    """The table in club mode with `club` (its link a direct call to the club's app)."""
    token = club.post("/api/club/tables", json={"name": "table-07"},
                      headers=bearer("admin")).json()["token"]

    def post(url: str, tok: str, body: dict[str, Any], timeout: float,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        r = club.post(urlsplit(url).path, json=body, headers={**(headers or {}), **bearer(tok)})
        return r.status_code, r.json()

    monkeypatch.setattr(forwarder_module, "post_json", post)
    fw = Forwarder(table, "http://club.local:8000", token)
    fw.open()
    return fw


def drain(fw: Forwarder) -> None:
    for _ in range(50):
        if fw.step() == fw.poll_s:
            return
    raise AssertionError("the forwarder never ran out of things to send")


def play(table: GameStore, hands: int = 2) -> int:
    gid = int(table.create("rummy", ["Ann", "Bob"], TARGET)["id"])
    for i in range(hands):
        table.append(gid, hand(i))
    return gid


def test_a_table_moves_to_another_club_and_its_games_stay_home(
        clubs: tuple[TestClient, TestClient], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = clubs
    data = tmp_path / "table"
    data.mkdir()
    (data / CACHE_NAME).write_text(json.dumps({"club": "http://club.local:8000",
                                               "players": ["Ann"], "fetched_at": None}))
    table = GameStore(data / "scorekeeper.db")
    fw = join(old, table, monkeypatch)
    first = [play(table), play(table)]
    drain(fw)
    assert_same_games(table, old.app.state.parts.store, "table-07", first)  # type: ignore[attr-defined]
    table.close()  # the table's server stopped, as `club leave` needs

    config = tmp_path / "config.toml"
    config.write_text(config.read_text() + '[club]\nurl = "http://club.local:8000"\n'
                      f'token_file = "{tmp_path / "club_token"}"\n')
    assert leave(data) == 0
    said = capsys.readouterr().out
    assert "The config still names the club http://club.local:8000" in said
    assert "Its 2 games stay here: they are not sent to that club nor to the next one" in said
    assert "player list kept here is deleted" in said and not (data / CACHE_NAME).exists()

    table = GameStore(data / "scorekeeper.db")
    try:
        fw = join(new, table, monkeypatch)
        assert fw.outbox is not None and fw.outbox.due() == []
        table.append(first[0], hand(5))  # an old game played on stays home too
        later = [play(table)]
        drain(fw)
        new_store = new.app.state.parts.store  # type: ignore[attr-defined]
        assert_same_games(table, new_store, "table-07", later)
        assert list(club_game_ids(new_store, "table-07")) == later
        # the old club keeps what it had, and hears nothing more
        old_store = old.app.state.parts.store  # type: ignore[attr-defined]
        kept = club_game_ids(old_store, "table-07")[first[0]]
        assert old.get(f"/api/games/{kept}").json()["seq"] == 2
    finally:
        table.close()


def test_leaving_with_events_the_club_lacks_needs_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "table"
    table = GameStore(data / "scorekeeper.db")
    home = play(table)  # before club mode: not the club's
    Outbox(table)
    unsent = play(table, hands=3)
    table.close()

    assert leave(data) == 2
    err = capsys.readouterr().err
    assert "3 events of 1 game have not reached the club yet" in err and "--force" in err
    table = GameStore(data / "scorekeeper.db")
    try:
        assert [d.game_id for d in Outbox(table).due()] == [unsent]  # nothing changed
    finally:
        table.close()

    assert leave(data, "--force") == 0
    said = capsys.readouterr().out
    assert "Its 2 games stay here" in said
    assert "3 events the club had not received stay here only" in said
    table = GameStore(data / "scorekeeper.db")
    try:
        outbox = Outbox(table)
        assert outbox.due() == [] and outbox.pending() == (0, 0)
        assert home != unsent
    finally:
        table.close()


def test_leave_while_the_server_runs_says_to_stop_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "table"
    table = GameStore(data / "scorekeeper.db")  # holds the file, as a running server does
    try:
        assert leave(data) == 2
        err = capsys.readouterr().err
        assert "already using the database" in err and "systemctl stop scorekeeper" in err
    finally:
        table.close()
