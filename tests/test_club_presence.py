"""Each table's state at the club (live, behind with its count, offline since when) in
`/api/club/live`, `/api/club/tables` and the club's `/api/health`; a table's last success
kept across its restarts; club mode named in both servers' health and start-up banner."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_club_sync_forward import drain, forwarder, play
from test_club_sync_helpers import (  # noqa: F401  (club_fixture is the fixture `club`)
    bearer,
    club_fixture,
    club_store,
    events,
    setup,
)

from scorekeeper.club.forwarder import PENDING_HEADER, Forwarder
from scorekeeper.club.mode import mode_line
from scorekeeper.club.presence import OFFLINE_S, pending_header, presence
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app
from scorekeeper.web.server import banner

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NOW = datetime(2026, 11, 30, 21, 0, tzinfo=UTC)


def ago(seconds: float) -> str:
    return (NOW - timedelta(seconds=seconds)).isoformat(timespec="seconds")


def test_a_tables_state_from_its_last_sync_and_count() -> None:
    assert presence(ago(5), 0, NOW).state == "live"
    assert presence(ago(5), None, NOW).state == "live"  # a table that does not say
    behind = presence(ago(5), 14, NOW)
    assert (behind.state, behind.pending_events, behind.offline_since) == ("behind", 14, None)
    gone = presence(ago(OFFLINE_S + 1), 3, NOW)
    assert (gone.state, gone.offline_since) == ("offline", ago(OFFLINE_S + 1))
    assert presence(ago(OFFLINE_S - 1), 0, NOW).state == "live"
    never = presence(None, None, NOW)
    assert (never.state, never.offline_since) == ("offline", None)


@pytest.mark.parametrize(("raw", "count"), [
    ("14", 14), (" 0 ", 0), (None, None), ("", None), ("-1", None), ("1e3", None),
    ("²", None), ("9" * 16, None), ("abc", None)])
def test_the_pending_header_is_read_or_ignored(raw: str | None, count: int | None) -> None:
    assert pending_header(raw) == count


def _table(club: TestClient, name: str) -> dict[str, object]:
    rows = club.get("/api/club/tables", headers=bearer("admin")).json()
    return next(r for r in rows if r["name"] == name)


def _age(club: TestClient, name: str, seconds: float) -> None:
    """As if the table's last sync were `seconds` ago."""
    when = (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat(timespec="seconds")
    with club_store(club).database.transaction() as tx:
        tx.execute("UPDATE club_tables SET last_seen = ? WHERE name = ?", (when, name))


def test_a_backlog_shows_the_table_behind_then_live_then_offline(
        club: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = GameStore(tmp_path / "table.db")
    try:
        fw, _ = forwarder(club, table, monkeypatch)
        play(table, games=2, hands=6)  # 2 × 9 events
        fw.batch_events = 5
        fw.step()
        row = _table(club, "table-1")
        assert (row["state"], row["pending_events"]) == ("behind", 18 - 5)
        live = club.get("/api/club/live").json()["tables"]
        assert [(t["table"], t["state"], t["pending_events"]) for t in live] == [
            ("table-1", "behind", 13)]
        drain(fw)
        row = _table(club, "table-1")
        assert (row["state"], row["pending_events"], row["games"]) == ("live", 0, 2)
        health = club.get("/api/health").json()["club"]
        assert (health["mode"], health["live"], health["behind"], health["offline"]) == (
            "server", 1, 0, 0)
        assert [t["name"] for t in health["tables"]] == ["table-1"]
        _age(club, "table-1", OFFLINE_S + 5)
        row = _table(club, "table-1")
        assert row["state"] == "offline" and row["offline_since"] == row["last_seen"]
        card = club.get("/api/club/live").json()["tables"][0]
        assert (card["state"], card["offline_since"]) == ("offline", row["last_seen"])
        assert club.get("/api/health").json()["club"]["offline"] == 1
    finally:
        table.close()


def test_a_table_never_heard_from_is_offline_since_never(club: TestClient) -> None:
    club.post("/api/club/tables", json={"name": "spare"}, headers=bearer("admin"))
    row = _table(club, "spare")
    assert (row["state"], row["last_seen"], row["offline_since"]) == ("offline", None, None)


def test_a_malformed_count_never_fails_a_sync(club: TestClient) -> None:
    token = club.post("/api/club/tables", json={"name": "t9"},
                      headers=bearer("admin")).json()["token"]
    batch = {"games": [setup(1)], "events": events(1, range(1, 3))}
    r = club.post("/api/club/sync", json=batch,
                  headers={**bearer(token), PENDING_HEADER: "lots"})
    assert r.status_code == 200
    row = _table(club, "t9")
    assert (row["state"], row["pending_events"]) == ("live", None)


def test_a_restarted_table_still_says_when_it_last_reached_the_club(
        club: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = GameStore(tmp_path / "table.db")
    fw, _ = forwarder(club, table, monkeypatch)
    play(table, games=1, hands=2)
    drain(fw)
    reached = fw.health()["last_success"]
    assert reached is not None
    fw.stop()  # as the app's lifespan does: written then (else at most a minute old)
    table.close()
    table = GameStore(tmp_path / "table.db")  # the table's server restarted, the club away
    try:
        again = Forwarder(table, "http://club.local:8000", "sk-table-x")
        again.open()
        health = again.health()
        assert (health["mode"], health["connected"], health["last_success"]) == (
            "table", False, reached)
    finally:
        table.close()


def test_a_table_in_club_mode_says_so_in_its_health(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, camera="none", club_url="http://club.local:9",
                        club_token="sk-x")
    with TestClient(create_app(settings, token="admin")) as client:
        body = client.get("/api/health").json()
    assert body["club"]["mode"] == "table" and body["club"]["last_success"] is None
    home = Settings(data_dir=tmp_path / "home", camera="none")
    with TestClient(create_app(home, token="admin")) as client:
        assert "club" not in client.get("/api/health").json()


def test_the_start_up_banner_names_the_club_role(tmp_path: Path) -> None:
    url = "http://10.0.0.5:8000/"
    table = Settings(data_dir=tmp_path, club_url="http://ann:secret@club.local:8000",
                     club_token="sk-x")
    line = mode_line(table, url)
    assert line == ('club mode: this table sends its games to http://club.local:8000 '
                    '(how it goes: http://10.0.0.5:8000/api/health, "club")')
    server = mode_line(Settings(data_dir=tmp_path, club_server=True), url)
    assert server == ("club server: the tables send their games to "
                      "http://10.0.0.5:8000/api/club/sync; the big screen is "
                      "http://10.0.0.5:8000/club")
    assert mode_line(Settings(data_dir=tmp_path), url) is None
    out = io.StringIO()
    banner(url, "tok", "new", tmp_path / "db", out, club=line)
    assert line in out.getvalue() and "secret" not in out.getvalue()
