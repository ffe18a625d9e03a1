"""The table's events (a dealer named, a game ended, deleted, reopened) reach the club as
any event does; and a kind the club does not know (a newer table) stops that game only."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_club_sync_helpers import (  # noqa: F401  (club_fixture is the fixture `club`)
    club_fixture,
    club_game_ids,
    club_store,
    hand,
    setup,
)

from tests.test_club_sync import acked, add_table, sync

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def batch(tgid: int, bodies: list[dict[str, Any]], first: int = 1) -> list[dict[str, Any]]:
    return [{"table_game_id": tgid, "seq": first + i, "body": b} for i, b in enumerate(bodies)]


def test_ends_and_the_dealer_are_synced_and_a_deleted_game_leaves_the_club_list(
        club: TestClient) -> None:
    token = add_table(club, "table-1")
    bodies = [{"type": "dealer", "player": "Bob"}, hand(1), {"type": "end", "how": "finished"},
              {"type": "reopen"}, hand(2)]
    answer = sync(club, token, [setup(1), setup(2)], batch(1, bodies) + batch(2, [hand(1)]))
    assert acked(answer) == {1: 5, 2: 1} and answer["problems"] == []
    store = club_store(club)
    ids = club_game_ids(store, "table-1")
    assert store.get(ids[1])["dealer"] == "Bob"  # Bob dealt 1, Ann 2: Bob deals hand 3
    assert store.get(ids[1])["state"] == "in_play"
    answer = sync(club, token, [], batch(2, [{"type": "end", "how": "deleted"}], first=2))
    assert acked(answer) == {2: 2}
    assert [g["id"] for g in store.games()] == [ids[1]]  # hidden at the club too
    assert store.get(ids[2])["state"] == "deleted" and len(store.events(ids[2])) == 2
    answer = sync(club, token, [], batch(2, [{"type": "reopen"}], first=3))
    assert acked(answer) == {2: 3} and len(store.games()) == 2


def test_an_unknown_kind_stops_its_own_game_only(club: TestClient) -> None:
    token = add_table(club, "table-1")
    evs = batch(1, [{"type": "a-kind-from-a-newer-table"}]) + batch(2, [hand(1), hand(2)])
    answer = sync(club, token, [setup(1), setup(2)], evs, status=422)
    assert [(p["table_game_id"], p["seq"], p["status"]) for p in answer["problems"]] == \
        [(1, 1, 422)]
    assert acked(answer) == {1: 0, 2: 2}  # the other game went on
