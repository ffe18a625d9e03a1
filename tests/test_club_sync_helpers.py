"""Shared by the club sync tests (no tests here): a club server in this process, hands,
batches, and the club's view of a table's games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.rules.settings import MAX_TARGET
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore
from scorekeeper.web.app import create_app

CARDS = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]
TARGET = {"target": MAX_TARGET}  # a game that never ends, however many hands


def hand(i: int) -> dict[str, Any]:
    """A different valid rummy hand for each i (so a stored hand shows which one it was)."""
    bob = [CARDS[i % 13], CARDS[(i // 13) % 13].replace("C", "D")]
    return {"type": "hand", "players": [{"name": "Ann", "hand": [], "went_out": True},
                                        {"name": "Bob", "hand": bob}]}


def setup(tgid: int, players: tuple[str, ...] = ("Ann", "Bob")) -> dict[str, Any]:
    return {"table_game_id": tgid, "variant": "rummy", "players": list(players),
            "settings": TARGET, "deck": None, "created_at": "2026-11-30T19:00:00+00:00"}


def events(tgid: int, seqs: range | list[int]) -> list[dict[str, Any]]:
    return [{"table_game_id": tgid, "seq": s, "body": hand(s)} for s in seqs]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(name="club")
def club_fixture(any_target: Path | str, tmp_path: Path) -> Iterator[TestClient]:
    """The fixture `club`: a club server (admin token "admin") on each backend. A module
    that imports `club_fixture` has it."""
    settings = Settings(data_dir=tmp_path / "club", db=str(any_target), club_server=True,
                        camera="none")
    with TestClient(create_app(settings, token="admin")) as client:
        yield client


def club_store(client: TestClient) -> GameStore:
    """The club server's own store."""
    store: GameStore = client.app.state.parts.store  # type: ignore[attr-defined]
    return store


def club_game_ids(club: GameStore, table: str) -> dict[int, int]:
    """{table game id: club game id} for one table, from the club's mapping."""
    with club.database.read() as tx:
        rows = tx.fetchall("SELECT g.table_game_id, g.game_id FROM club_games g"
                           " JOIN club_tables t ON t.id = g.table_id WHERE t.name = ?",
                           (table,))
    return {int(t): int(g) for t, g in rows}


def assert_same_games(table: GameStore, club: GameStore, name: str,
                      table_games: list[int]) -> int:
    """Every listed table game is at the club once, with the same events in the same order
    and the same totals; returns the number of events compared."""
    ids = club_game_ids(club, name)
    assert sorted(ids) == sorted(table_games)
    assert len(set(ids.values())) == len(ids)
    count = 0
    for tgid in table_games:
        mine, theirs = table.events(tgid), club.events(ids[tgid])
        assert theirs == mine, f"table game {tgid}: the club's events differ"
        here, there = table.get(tgid), club.get(ids[tgid])
        assert there["seq"] == here["seq"] == len(mine)
        assert there["players"] == here["players"]
        count += len(mine)
    return count
