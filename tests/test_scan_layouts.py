"""Rendered tables scanned end to end: replay camera → API → melds, hand, knock → scoreboard.

The fixtures in tests/fixtures/layouts (see its README) are tables of Adrian Kennard's CC0
deck rendered by `python -m scorekeeper_lab.training.synth table`; each one's JSON says which card
lies where. The art itself is not needed here: the tests read the committed images.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
LAYOUTS = ROOT / "tests" / "fixtures" / "layouts"
ADMIN = {"Authorization": "Bearer secret"}
pytestmark = pytest.mark.skipif(not (ROOT / "models" / "model.json").exists(),
                                reason="no trained model in models/")

# the game each table is scanned for: one that holds every card on it
GAMES: dict[str, tuple[str, dict[str, Any] | None]] = {
    "melds-rummy": ("rummy", None),
    "two-decks": ("rummy500", {"decks": 2}),
    "joker": ("rummy500", None),
    "chicago-knock": ("chicago", None),
    "fan": ("chicago", None),
}


def cards(text: str) -> list[str]:
    """'7H 7S 2C' → ['7H', '7S', '2C']: hands read as they are said at the table."""
    return text.split()


def truth(name: str) -> dict[str, Any]:
    return json.loads((LAYOUTS / f"{name}.json").read_text())


@contextmanager
def scanned(tmp_path: Path, name: str, variant: str, settings: dict[str, Any] | None = None,
            player: str = "Ann") -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """A game of Ann and Bob whose camera sees the fixture, and the body of one scan."""
    camera = f"replay:{LAYOUTS / f'{name}.jpg'}"
    with TestClient(create_app(Settings(data_dir=tmp_path, camera=camera),
                               token="secret")) as client:
        game = {"variant": variant, "players": ["Ann", "Bob"]}
        if settings:
            game["settings"] = settings
        assert client.post("/api/games", json=game, headers=ADMIN).status_code == 201
        yield client, scan(client, player)


def scan(client: TestClient, player: str) -> dict[str, Any]:
    r = client.post("/api/games/1/scan", json={"player": player}, headers=ADMIN)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def post_hand(client: TestClient, players: list[dict[str, Any]]) -> dict[str, Any]:
    """What the phone's form sends when the hand is confirmed."""
    r = client.post("/api/games/1/hands", json={"players": players}, headers=ADMIN)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def totals(client: TestClient) -> dict[str, int]:
    return {p["name"]: p["total"] for p in client.get("/api/games/1").json()["players"]}


def codes(body: dict[str, Any]) -> Counter[str]:
    return Counter(c["card"] for c in body["cards"])


def _inside(point: tuple[float, float], quad: list[list[float]]) -> bool:
    """Point in a convex quadrilateral (either winding)."""
    signs = []
    for (x1, y1), (x2, y2) in zip(quad, quad[1:] + quad[:1], strict=True):
        signs.append((x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1) >= 0)
    return all(signs) or not any(signs)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_card_on_the_table_is_read_where_it_lies(tmp_path: Path, name: str) -> None:
    variant, settings = GAMES[name]
    want = truth(name)
    with scanned(tmp_path, name, variant, settings) as (client, body):
        assert codes(body) == Counter(c["card"] for c in want["cards"])
        # each reading sits on its own card of that name: two sevens are two places
        free = list(want["cards"])
        for read in body["cards"]:
            x1, y1, x2, y2 = read["box"]
            on = [c for c in free if c["card"] == read["card"]
                  and _inside(((x1 + x2) / 2, (y1 + y2) / 2), c["outline"])]
            assert on, f"{read} lies on no {read['card']} of {name}"
            free.remove(on[0])
        assert body["impossible"] == []
        image = client.get(body["image"])
        assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"


def test_rummy_melds_as_laid_and_the_fanned_hand_left_over(tmp_path: Path) -> None:
    with scanned(tmp_path, "melds-rummy", "rummy") as (client, body):
        assert body["player"] == "Ann"
        assert sorted(body["melds"]) == [["5H", "6H", "7H", "8H"], ["KC", "KD", "KS"]]
        assert sorted(body["hand"]) == ["2C", "9D", "QS"]  # three cards that meld nowhere
        assert body["knock"] is None  # only Chicago has a knock check
        assert client.get("/api/games/1").json()["seq"] == 0  # a scan stores nothing
        # confirmed: Rummy counts only the cards left in hand (2 + 10 + 9), to the winner
        result = post_hand(client, [{"name": "Ann", "hand": body["hand"]},
                                    {"name": "Bob", "went_out": True}])
        rows = {p["name"]: p for p in result["players"]}
        assert rows["Ann"]["deadwood"] == 21 and rows["Bob"]["points"] == 21
        assert result["went_out"] == "Bob"
        assert totals(client) == {"Ann": 0, "Bob": 21}


def test_two_identical_cards_from_two_decks_stay_two_cards(tmp_path: Path) -> None:
    with scanned(tmp_path, "two-decks", "rummy500", {"decks": 2}) as (client, body):
        sevens = [c["box"] for c in body["cards"] if c["card"] == "7S"]
        assert len(sevens) == 2
        a, b = sevens
        assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1]  # apart, not merged
        assert body["melds"] == [["4D", "5D", "6D"]]
        assert sorted(body["hand"]) == ["7S", "7S", "JH"]
        assert body["impossible"] == []
        # confirmed: Rummy 500 scores the meld (4 + 5 + 6) less the cards held (7 + 7 + 10)
        result = post_hand(client, [{"name": "Ann", "melds": body["melds"],
                                     "hand": body["hand"]}, {"name": "Bob"}])
        ann = next(p for p in result["players"] if p["name"] == "Ann")
        assert (ann["melded"], ann["held"], ann["points"]) == (15, 24, -9)
        assert totals(client) == {"Ann": -9, "Bob": 0}


@pytest.mark.parametrize(("name", "impossible"), [("two-decks", ["7S"]), ("joker", ["JK"])])
def test_a_card_the_game_cannot_hold_is_flagged(tmp_path: Path, name: str,
                                                impossible: list[str]) -> None:
    """Basic Rummy is one deck without jokers: a second 7S or a joker must be a misread."""
    with scanned(tmp_path, name, "rummy") as (client, body):
        assert body["impossible"] == impossible
        assert codes(body) == Counter(c["card"] for c in truth(name)["cards"])  # still shown
        shown = body["hand"] + [c for m in body["melds"] for c in m]
        r = client.post("/api/games/1/hands", headers=ADMIN, json={"players": [
            {"name": "Ann", "hand": shown}, {"name": "Bob", "went_out": True}]})
        assert r.status_code == 422
        assert impossible[0] in r.json()["detail"]
        assert totals(client) == {"Ann": 0, "Bob": 0}


def test_the_joker_is_read_and_stands_in_its_meld(tmp_path: Path) -> None:
    with scanned(tmp_path, "joker", "rummy500") as (client, body):
        assert codes(body)["JK"] == 1
        assert body["melds"] == [["9C", "10C", "JK", "QC"]]  # the joker is the jack of clubs
        assert sorted(body["hand"]) == ["3D", "8S"]
        # confirmed: the meld scores 9 + 10 + 15 (the joker) + 10, less 3 + 8 held
        result = post_hand(client, [{"name": "Ann", "melds": body["melds"],
                                     "hand": body["hand"]}, {"name": "Bob"}])
        ann = next(p for p in result["players"] if p["name"] == "Ann")
        assert (ann["melded"], ann["held"], ann["points"]) == (44, 11, 33)
        assert totals(client) == {"Ann": 33, "Bob": 0}


def test_chicago_knock_check_follows_the_table_and_the_scoreboard(tmp_path: Path) -> None:
    with scanned(tmp_path, "chicago-knock", "chicago") as (client, body):
        hand = body["hand"]
        assert Counter(hand) == Counter(cards("4S 5S 6S 9H 9D 9C KD 3C"))  # the whole table
        assert sorted(map(sorted, body["melds"])) == [["4S", "5S", "6S"], ["9C", "9D", "9H"]]
        knock = body["knock"]
        # eight cards: the knocker shows the best seven, dropping the king; 3 points left
        assert (knock["player"], knock["limit"], knock["deadwood"], knock["legal"]) == \
            ("Ann", 9, 3, True)
        assert knock["dropped"] == "KD" and knock["unmelded"] == ["3C"]
        # confirmed: Ann knocks with the scanned cards; Bob holds 43 points of deadwood
        bob = cards("KH QS 8C 7D 4H 3S AS")
        result = post_hand(client, [{"name": "Ann", "hand": hand, "knocked": True},
                                    {"name": "Bob", "hand": bob}])
        assert result["knock"] == {"player": "Ann", "limit": 9, "deadwood": 3, "legal": True,
                                   "penalty": 0}
        assert totals(client) == {"Ann": 3, "Bob": 43}
        # two more hands bring Ann to 98: her knock limit is now 2, and the same table is not
        # a legal knock any more
        bob_out = cards("3H 4H 5H 6H 7D 7S 7C")  # all melded
        post_hand(client, [{"name": "Ann", "hand": cards("KH QS JD 10C KC QD JS")},
                           {"name": "Bob", "hand": bob_out, "knocked": True}])
        post_hand(client, [{"name": "Ann", "hand": cards("5S 5D 5C KH 10S 4D AS")},
                           {"name": "Bob", "hand": bob_out, "knocked": True}])
        assert totals(client) == {"Ann": 98, "Bob": 43}
        again = scan(client, "Ann")["knock"]
        assert (again["limit"], again["deadwood"], again["legal"]) == (2, 3, False)


def test_a_fanned_hand_is_read_whole(tmp_path: Path) -> None:
    """Only the top-left index of each under-card shows in a fan."""
    with scanned(tmp_path, "fan", "chicago") as (_, body):
        assert Counter(body["hand"]) == Counter(cards("3C 4C 5C 8H 10S JD KS"))
        assert [sorted(m) for m in body["melds"]] == [["3C", "4C", "5C"]]
        knock = body["knock"]
        assert (knock["deadwood"], knock["limit"], knock["legal"]) == (38, 9, False)
