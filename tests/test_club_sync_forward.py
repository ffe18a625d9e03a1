"""A table's forwarder against a club server in this process: outages, lost answers,
refusals, and what the table's health says meanwhile. The link between them is a stand-in
for the network that can be cut (the real HTTP is in test_club_sync_process.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from test_club_sync_helpers import (  # noqa: F401  (club_fixture is the fixture `club`)
    TARGET,
    assert_same_games,
    bearer,
    club_fixture,
    club_game_ids,
    club_store,
    hand,
)

import scorekeeper.club.forwarder as forwarder_module
from scorekeeper.club.forwarder import Forwarder, Unreachable, backoff, shown_url
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Link:
    """The network between the table and the club: up, down, or losing every answer."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.up = True
        self.lose_answers = False
        self.posts = 0
        self.override: tuple[int, Any] | None = None

    def __call__(self, url: str, token: str, body: dict[str, Any], timeout: float,
                 headers: dict[str, str] | None = None) -> tuple[int, Any]:
        self.posts += 1
        if not self.up:
            raise Unreachable("the club server cannot be reached: [Errno 111] refused")
        if self.override is not None:
            return self.override
        r = self.client.post(urlsplit(url).path, json=body,
                             headers={**(headers or {}), **bearer(token)})
        if self.lose_answers:
            raise Unreachable("the club server cannot be reached: timed out")
        return r.status_code, r.json()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[GameStore]:
    store = GameStore(tmp_path / "table.db")
    yield store
    store.close()


def forwarder(club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch,
              name: str = "table-1") -> tuple[Forwarder, Link]:
    r = club.post("/api/club/tables", json={"name": name}, headers=bearer("admin"))
    link = Link(club)
    monkeypatch.setattr(forwarder_module, "post_json", link)
    fw = Forwarder(table, "http://club.local:8000", r.json()["token"],
                   retry_max_s=4.0)
    fw.open()
    return fw, link


def drain(fw: Forwarder, most: int = 50) -> int:
    """Step until nothing is due; the number of batches sent."""
    for sent in range(most):
        if fw.step() == fw.poll_s:
            return sent
    raise AssertionError("the forwarder never ran out of things to send")


def play(table: GameStore, games: int, hands: int) -> list[int]:
    ids = []
    for g in range(games):
        gid = table.create("rummy", ["Ann", "Bob"], TARGET)["id"]
        for i in range(hands):
            table.append(gid, hand(100 * g + i))
        table.append(gid, {"type": "undo"})
        table.append(gid, {"type": "rename", "old": "Bob", "new": f"Bob {g}"})
        table.append(gid, {"type": "rename", "old": f"Bob {g}", "new": "Bob"})
        ids.append(gid)
    return ids


def test_everything_arrives_once_after_the_club_was_away(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    link.up = False
    games = play(table, 4, 30)
    waits = [fw.step() for _ in range(6)]
    assert all(w > 0 for w in waits) and max(waits) <= 4.0
    health = fw.health()
    assert health["connected"] is False and health["pending_events"] == 4 * 33
    assert health["pending_games"] == 4
    assert "cannot be reached" in health["last_error"] and health["last_success"] is None
    link.up = True
    fw.batch_events = 50  # several batches, so that order across them counts
    assert drain(fw) >= 3
    assert assert_same_games(table, club_store(club), "table-1", games) == 4 * 33
    health = fw.health()
    assert health["connected"] and health["pending_events"] == 0 and health["last_error"] is None
    # a new hand afterwards goes on its own
    table.append(games[0], hand(7))
    assert drain(fw) == 1
    assert_same_games(table, club_store(club), "table-1", games)


def test_lost_answers_send_again_and_store_nothing_twice(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    games = play(table, 2, 5)
    link.lose_answers = True  # the club stores each batch; the table never hears so
    for _ in range(3):
        assert fw.step() > 0
    link.lose_answers = False
    drain(fw)
    assert assert_same_games(table, club_store(club), "table-1", games) == 2 * 8


def test_a_table_restarted_mid_forward_resumes(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, _ = forwarder(club, table, monkeypatch)
    games = play(table, 3, 10)
    fw.batch_events = 8
    fw.step()
    fw.step()
    again = Forwarder(table, fw.url, fw._token)  # the same table, started anew
    again.open()
    drain(again)
    assert assert_same_games(table, club_store(club), "table-1", games) == 3 * 13


def test_games_played_before_club_mode_stay_home(
        club: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = GameStore(tmp_path / "home.db")
    try:
        home = play(table, 2, 2)
        fw, _ = forwarder(club, table, monkeypatch)
        assert fw.outbox is not None and fw.outbox.due() == []
        table.append(home[0], hand(5))  # an old game played on is still not the club's
        later = play(table, 1, 2)
        drain(fw)
        assert_same_games(table, club_store(club), "table-1", later)
    finally:
        table.close()


def test_a_refused_game_is_marked_and_the_others_go_on(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, _ = forwarder(club, table, monkeypatch)
    first, second = play(table, 2, 2)
    drain(fw)
    # someone at the club wrote to the club's copy of the first game: the table's next
    # event there differs from the club's under the same seq
    copy = _mapped(club)[first]
    club_store(club).append(copy, hand(50))
    table.append(first, hand(51))
    table.append(second, hand(52))
    drain(fw)
    health = fw.health()
    assert [r["game_id"] for r in health["refused"]] == [first]
    assert "differs from the one the club already holds" in health["refused"][0]["problem"]
    assert club_store(club).get(_mapped(club)[second])["seq"] == table.get(second)["seq"]
    assert health["pending_events"] == 1 and fw.step() == fw.poll_s  # no retry loop
    fw.open()  # a restart tries it once more, and it is refused again
    drain(fw)
    assert [r["game_id"] for r in fw.health()["refused"]] == [first]


def test_a_refusal_naming_no_game_is_narrowed_to_one_game(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    first, _ = play(table, 2, 1)
    link.override = (422, {"detail": "players: too many"})
    fw.step()  # the batch of both games is refused: try one game alone
    assert fw.health()["refused"] == []
    fw.step()  # the first game alone is refused: it is the one
    assert [r["game_id"] for r in fw.health()["refused"]] == [first]
    link.override = None
    drain(fw)
    assert fw.health()["pending_events"] == 4  # the refused game's 4 events


def test_a_wrong_token_or_a_failing_club_backs_off(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    play(table, 1, 1)
    link.override = (401, {"detail": "table token required"})
    assert fw.step() > 0 and "refused this table's token" in fw.health()["last_error"]
    link.override = (503, {"detail": "cannot save"})
    assert fw.step() > 0 and fw.health()["last_error"].endswith("503: cannot save")
    link.override = (200, "<html>not a club</html>")
    assert fw.step() > 0 and fw.health()["refused"] == []
    link.override = None
    drain(fw)
    assert fw.health()["pending_events"] == 0


def test_backoff_doubles_with_jitter_up_to_the_limit() -> None:
    for failures, low, high in [(1, 0.25, 0.5), (2, 0.5, 1.0), (3, 1.0, 2.0), (7, 15, 30),
                                (40, 15, 30)]:
        waits = [backoff(failures) for _ in range(200)]
        assert low <= min(waits) and max(waits) <= high
        assert len(set(waits)) > 100  # jittered, so tables coming back do not knock at once


def test_health_never_shows_the_token_or_a_password(tmp_path: Path) -> None:
    assert shown_url("http://user:pw@club.local:8000/") == "http://club.local:8000/"
    settings = Settings(data_dir=tmp_path, club_url="http://club.local:9", club_token="sk-x",
                        club_retry_max_s=0.1, club_timeout_s=0.5, camera="none")
    with TestClient(create_app(settings, token="admin")) as client:
        body = client.get("/api/health").json()
    assert body["ok"] and body["club"]["url"] == "http://club.local:9"
    assert "sk-x" not in str(body)


def _mapped(club: TestClient) -> dict[int, int]:
    return club_game_ids(club_store(club), "table-1")


def test_an_idle_table_says_it_is_there_now_and_then(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    assert fw.step() == fw.poll_s and link.posts == 1  # nothing due: an empty batch
    assert fw.health()["connected"] is True
    seen = club.get("/api/club/tables", headers=bearer("admin")).json()[0]["last_seen"]
    assert seen is not None
    assert fw.step() == fw.poll_s and link.posts == 1  # and not again before HEARTBEAT_S
    monkeypatch.setattr(forwarder_module, "HEARTBEAT_S", 0.0)
    link.up = False
    assert fw.step() > fw.poll_s / 10 and fw.health()["connected"] is False


def wait_for(condition: Any, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_a_commit_wakes_the_forwarder_before_its_poll(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    fw.poll_s = 60.0  # only a wake can send within the test
    fw.start()
    try:
        assert wait_for(lambda: link.posts >= 1)  # the first look, then idle for a minute
        game = table.create("rummy", ["Ann", "Bob"], TARGET)
        table.append(int(game["id"]), hand(1))
        fw.wake()
        assert wait_for(lambda: len(club_game_ids(club_store(club), "table-1")) == 1, 3.0)
    finally:
        fw.stop()


def test_a_wake_does_not_cut_a_back_off_short(
        club: TestClient, table: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    fw, link = forwarder(club, table, monkeypatch)
    link.up = False
    monkeypatch.setattr(forwarder_module, "backoff", lambda failures, **_: 30.0)
    fw.start()
    try:
        assert wait_for(lambda: link.posts == 1)
        for _ in range(20):  # a busy table while the club is away
            fw.wake()
            time.sleep(0.01)
        time.sleep(0.2)
        assert link.posts == 1
    finally:
        fw.stop()
    assert fw._thread is not None and not fw._thread.is_alive()  # stop ends the back-off


def test_the_table_app_wakes_its_forwarder_at_each_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    woken: list[int] = []
    monkeypatch.setattr(Forwarder, "start", Forwarder.open)  # no thread: count the wakes
    monkeypatch.setattr(Forwarder, "wake", lambda self: woken.append(1))
    settings = Settings(data_dir=tmp_path / "table", camera="none",
                        club_url="http://club.local:8000",
                        club_token=SecretStr("t" * 32))
    with TestClient(create_app(settings, token="admin")) as client:
        game = client.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"],
                                               "settings": TARGET},
                           headers=bearer("admin")).json()
        before = len(woken)
        body = {k: v for k, v in hand(1).items() if k != "type"}
        r = client.post(f"/api/games/{game['id']}/hands", json=body, headers=bearer("admin"))
        assert r.status_code == 201, r.text
        assert len(woken) > before
