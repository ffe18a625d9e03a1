"""One person, one spelling: a new game's names become the club's spelling, case, accents
and spaces aside, on a club server and on a table in club mode (from its kept list, never
waiting for the club); at home a name stays as typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.club.roster import cache_path
from scorekeeper.club.spelling import club_spelling, fold
from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ADMIN = {"Authorization": "Bearer admin"}
CLUB = ["Ana", "Carla Dias", "Inês", "José", "Jose", "Łukasz"]


def test_fold_sets_case_accents_and_spaces_aside() -> None:
    assert fold("  Inês   SÁ ") == "ines sa"
    assert fold("Ine\u0302s") == fold("Inês")  # however the accent was typed


@pytest.mark.parametrize(("typed", "kept"), [
    (["carla dias", "ANA"], ["Carla Dias", "Ana"]),          # case
    (["ines", " Carla  Dias "], ["Inês", "Carla Dias"]),     # accents, spaces
    (["jose", "JOSÉ"], ["Jose", "José"]),                    # both on the list: as each is
    (["Visitor", "ana"], ["Visitor", "Ana"]),                # a guest stays as typed
    (["ana", "ANA"], ["ana", "ANA"]),                        # two seats, one player: as typed
    (["Ines", "inês"], ["Ines", "inês"]),
])
def test_a_typed_name_becomes_the_club_players(typed: list[str], kept: list[str]) -> None:
    assert club_spelling(typed, CLUB) == kept


def test_an_accent_alone_never_picks_between_two_players() -> None:
    assert club_spelling(["jose"], ["José", "Jôse"]) == ["jose"]
    assert club_spelling(["Lukasz"], CLUB) == ["Lukasz"]  # Ł is a letter, not an accent


def _players(client: TestClient, names: list[str]) -> list[str]:
    r = client.post("/api/games", json={"variant": "rummy", "players": names}, headers=ADMIN)
    assert r.status_code == 201, r.text
    return [p["name"] for p in r.json()["players"]]


def test_a_game_begun_at_the_club_keeps_the_clubs_spelling(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, camera="none", club_server=True)
    with TestClient(create_app(settings, token="admin")) as client:
        client.post("/api/club/players", json={"names": CLUB}, headers=ADMIN)
        assert _players(client, ["carla dias", "ines", "Visitor"]) == [
            "Carla Dias", "Inês", "Visitor"]
        listed = client.get("/api/games").json()[0]["players"]
        assert [p["name"] for p in listed] == ["Carla Dias", "Inês", "Visitor"]


def test_a_table_in_club_mode_spells_from_its_kept_list(tmp_path: Path) -> None:
    url = "http://club.local:9"  # nobody answers there: the kept list is enough
    cache_path(tmp_path).write_text(json.dumps({
        "club": url, "fetched_at": "2026-11-30T19:00:00+00:00", "players": CLUB}))
    settings = Settings(data_dir=tmp_path, camera="none", club_url=url, club_token="sk-x")
    with TestClient(create_app(settings, token="admin")) as client:
        assert _players(client, ["CARLA DIAS", "ines"]) == ["Carla Dias", "Inês"]


def test_at_home_a_name_stays_as_typed(tmp_path: Path) -> None:
    cache_path(tmp_path).write_text(json.dumps({
        "club": "http://club.local:9", "fetched_at": None, "players": CLUB}))
    with TestClient(create_app(Settings(data_dir=tmp_path, camera="none"),
                               token="admin")) as client:
        assert _players(client, ["carla dias", "ines"]) == ["carla dias", "ines"]
