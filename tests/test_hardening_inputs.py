"""Inputs that used to break scores or the server: each is refused in plain words, with a
small 4xx, and the store stays readable."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "test-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}"}
ANN = "AH 2H 3H 4C 4D 4S 5C"  # knocks with 5
BOB = "KC QD JS 9H 8H 7C 6D"  # 60, nothing melds


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=data_dir, admin_token=None), token=TOKEN)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def new_game(client: TestClient, variant: str = "chicago",
             players: list[str] | None = None, **settings: Any) -> int:
    body = {"variant": variant, "players": players or ["Ann", "Bob"], "settings": settings}
    r = client.post("/api/games", json=body, headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def chicago(ann: str, bob: str) -> dict[str, Any]:
    return {"players": [{"name": "Ann", "hand": ann.split(), "knocked": True},
                        {"name": "Bob", "hand": bob.split()}]}


def refused(r: Any, status: int = 422) -> str:
    assert r.status_code == status, r.text
    return str(r.json()["detail"])


def post_json(client: TestClient, path: str, body: object) -> Any:
    """POST JSON as a phone could send it: lone surrogates as \\u escapes (httpx refuses)."""
    return client.post(path, content=json.dumps(body),
                       headers={**ADMIN, "Content-Type": "application/json"})


def run_score(line: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorekeeper", "score"],
                          input=json.dumps(line) + "\n", capture_output=True, text=True,
                          timeout=60)


# ---- 1. complete hands ---------------------------------------------------------------------

SHORT_BOB = ("Bob holds 2 cards; a Chicago hand is 7 (8 for the player who knocked or "
             "went rummy)")


@pytest.mark.parametrize("route", ["hands", "preview", "correct"])
def test_a_chicago_hand_with_cards_missing_is_refused(client: TestClient, route: str) -> None:
    gid = new_game(client)
    if route == "correct":
        assert client.post(f"/api/games/{gid}/hands", json=chicago(ANN, BOB),
                           headers=ADMIN).status_code == 201
        r = client.put(f"/api/games/{gid}/hands/1", json=chicago(ANN, "KC QD"), headers=ADMIN)
    else:
        r = client.post(f"/api/games/{gid}/{route}", json=chicago(ANN, "KC QD"), headers=ADMIN)
    assert SHORT_BOB in refused(r)
    view = client.get(f"/api/games/{gid}").json()
    assert [p["total"] for p in view["players"]] == ([5, 60] if route == "correct" else [0, 0])


def test_a_full_chicago_hand_still_scores(client: TestClient) -> None:
    gid = new_game(client)
    r = client.post(f"/api/games/{gid}/hands", json=chicago(ANN, BOB), headers=ADMIN)
    assert r.status_code == 201 and [p["points"] for p in r.json()["players"]] == [5, 60]


def test_a_rummy_loser_with_no_cards_is_refused(client: TestClient) -> None:
    gid = new_game(client, "rummy")
    body = {"players": [{"name": "Ann", "went_out": True}, {"name": "Bob", "hand": []}]}
    detail = refused(client.post(f"/api/games/{gid}/hands", json=body, headers=ADMIN))
    assert detail.startswith("hand 1: Bob holds no cards")


def test_score_command_refuses_a_short_chicago_hand() -> None:
    done = run_score({"variant": "chicago", "players": [
        {"name": "Ann", "hand": ANN.split(), "knocked": True},
        {"name": "Bob", "hand": ["KC", "QD"]}]})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"line 1: {SHORT_BOB}\n"


# ---- 2. player counts at creation ------------------------------------------------------------

@pytest.mark.parametrize(("variant", "most", "label"), [
    ("chicago", 8, "Chicago Rummy"), ("rummy", 6, "Rummy"), ("rummy10", 5, "Rummy 10-card"),
    ("rummy500", 8, "Rummy 500"),
])
def test_player_count_is_checked_when_the_game_is_created(client: TestClient, variant: str,
                                                          most: int, label: str) -> None:
    names = [f"P{i}" for i in range(most + 1)]
    r = client.post("/api/games", json={"variant": variant, "players": names}, headers=ADMIN)
    assert refused(r) == f"{label} needs a list of 2 to {most} player names, got {most + 1}"
    assert client.get("/api/games").json() == []
    new_game(client, variant, names[:most])  # the most the rules allow is a game


# ---- 3. strict types -------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "settings", "message"), [
    ("rummy", {"target": True}, "setting target=true: must be a whole number, not true or false"),
    ("rummy", {"hands": False}, "setting hands=false: must be a whole number"),
    ("chicago", {"min_naturals": True}, "setting min_naturals=true: must be 0 or 1, not true"),
    ("chicago", {"knock_penalty": True}, "setting knock_penalty=true: must be a whole number"),
    ("rummy500", {"decks": True}, "setting decks=true: must be 1 or 2, not true or false"),
    ("rummy", {"target": 150.5}, "setting target=150.5: must be a whole number"),
    ("chicago", {"knock_penalty": 2.5}, "setting knock_penalty=2.5: must be a whole number"),
    ("chicago", {"knock_penalty": -1}, "setting knock_penalty=-1: must be 0 or more"),
])
def test_settings_refuse_booleans_and_fractions(client: TestClient, variant: str,
                                                settings: dict, message: str) -> None:
    r = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"],
                                        "settings": settings}, headers=ADMIN)
    detail = refused(r)
    assert detail == message or detail.startswith(message)
    assert "Input should" not in detail and "valid integer" not in detail
    assert client.get("/api/games").json() == []
    gid = new_game(client, variant)
    r = client.put(f"/api/games/{gid}/settings", json={"settings": settings}, headers=ADMIN)
    assert refused(r).startswith(message)
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0


def test_whole_numbers_are_still_taken(client: TestClient) -> None:
    gid = new_game(client, "rummy", target=200.0, hands=3)
    assert client.get(f"/api/games/{gid}").json()["settings"]["target"] == 200


def test_score_command_refuses_a_boolean_setting() -> None:
    done = run_score({"variant": "rummy", "settings": {"target": True}, "players": [
        {"name": "Ann", "went_out": True}, {"name": "Bob", "hand": ["KD"]}]})
    assert done.returncode == 2
    assert done.stderr == ("line 1: setting target=true: must be a whole number, "
                           "not true or false\n")


# ---- 4. names --------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "message"), [
    ("B\ud800ob", "broken character (a lone surrogate)"),
    ("\u202eboB", "a player name cannot hold text-direction control characters"),
    ("Bob\u2066", "text-direction control"),
    ("Bob\u200f", "text-direction control"),
    ("Bo\x07b", "a player name cannot hold control characters"),
    ("Bo\nb", "control characters"),
    ("x" * 41, "a player name is at most 40 characters, this one has 41"),
    ("   ", "a player name cannot be empty"),
])
def test_bad_names_are_refused_at_create_and_rename(client: TestClient, name: str,
                                                     message: str) -> None:
    r = post_json(client, "/api/games", {"variant": "rummy", "players": ["Ann", name]})
    assert message in refused(r)
    assert client.get("/api/games").status_code == 200
    assert client.get("/api/games").json() == []
    gid = new_game(client, "rummy")
    r = post_json(client, f"/api/games/{gid}/rename", {"old": "Bob", "new": name})
    assert message in refused(r)
    assert [p["name"] for p in client.get(f"/api/games/{gid}").json()["players"]] == ["Ann", "Bob"]


def test_names_are_nfc_and_stripped(client: TestClient) -> None:
    gid = new_game(client, "rummy", ["  Jose\u0301 ", "Zoë"])
    assert [p["name"] for p in client.get(f"/api/games/{gid}").json()["players"]] == \
        ["Jos\u00e9", "Zoë"]
    body = {"players": [{"name": "Jose\u0301", "went_out": True},  # typed decomposed
                        {"name": "Zoe\u0308", "hand": ["KD"]}]}
    r = client.post(f"/api/games/{gid}/hands", json=body, headers=ADMIN)
    assert r.status_code == 201, r.text
    assert [p["name"] for p in r.json()["players"]] == ["Jos\u00e9", "Zoë"]


def test_score_command_refuses_a_broken_name() -> None:
    done = run_score({"variant": "rummy", "players": [
        {"name": "Ann", "went_out": True}, {"name": "B\ud800", "hand": ["KD"]}]})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "line 1: a player name holds a broken character (a lone surrogate)\n"


def _plant_bad_game(db: Path) -> None:
    """A game as an older scorekeeper stored it: names it no longer accepts, and a hand."""
    import sqlite3

    names = ["Ann", "B\ud800ob", "\u202eCat"]
    summary = {"players": [{"name": n, "total": 0, "eliminated": False} for n in names],
               "game_over": False, "winner": None, "leader": None}
    hand = {"type": "hand", "players": [{"name": "Ann", "went_out": True},
                                        {"name": "B\ud800ob", "hand": ["KD"]},
                                        {"name": "\u202eCat", "hand": ["5C"]}]}
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("INSERT INTO games (variant, players, settings, created_at, seq, summary)"
                     " VALUES ('rummy', ?, '{}', '2024-01-01T00:00:00+00:00', 1, ?)",
                     (json.dumps(names), json.dumps(summary)))
        conn.execute("INSERT INTO events (game_id, seq, type, body, created_at)"
                     " VALUES (1, 1, 'hand', ?, '2024-01-01T00:00:00+00:00')",
                     (json.dumps(hand),))
    conn.close()


def test_a_stored_bad_name_is_still_served(data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir, admin_token=None)
    with TestClient(create_app(settings, token=TOKEN)) as c:  # makes the schema
        assert c.get("/api/games").json() == []
    _plant_bad_game(settings.db_path)
    shown = ["Ann", "B\ufffdob", "Cat"]  # surrogate replaced, bidi control dropped
    for boot in range(3):  # a restart replays the stored events again
        with TestClient(create_app(settings, token=TOKEN), raise_server_exceptions=False) as c:
            listed = c.get("/api/games")
            assert listed.status_code == 200, listed.text
            view = c.get("/api/games/1")
            assert view.status_code == 200, view.text
            assert [p["total"] for p in view.json()["players"]] == [15, 0, 0]
            assert [p["name"] for p in view.json()["players"]] == shown
            assert [p["name"] for p in view.json()["hands"][0]["players"]] == shown
            if boot == 0:
                assert [p["name"] for p in listed.json()[0]["players"]] == shown
            if boot == 1:  # the name as shown can be renamed to a good one, and that lasts
                r = c.post("/api/games/1/rename", json={"old": shown[1], "new": "Bob"},
                           headers=ADMIN)
                assert r.status_code == 200, r.text
                shown = ["Ann", "Bob", "Cat"]
                assert [p["name"] for p in c.get("/api/games").json()[0]["players"]] == shown


# ---- games stored before these checks are still served ---------------------------------------

def _plant(db: Path, variant: str, players: list[str], settings: dict[str, Any],
           events: list[dict[str, Any]]) -> int:
    """A game as an older scorekeeper stored it (its summary is rewritten by the next write)."""
    import sqlite3

    summary = {"players": [{"name": n, "total": 0, "eliminated": False} for n in players],
               "game_over": False, "winner": None, "leader": None}
    conn = sqlite3.connect(db)
    with conn:
        cur = conn.execute(
            "INSERT INTO games (variant, players, settings, created_at, seq, summary)"
            " VALUES (?, ?, ?, '2024-01-01T00:00:00+00:00', ?, ?)",
            (variant, json.dumps(players), json.dumps(settings), len(events), json.dumps(summary)))
        gid = int(cur.lastrowid or 0)
        for seq, event in enumerate(events, start=1):
            conn.execute("INSERT INTO events (game_id, seq, type, body, created_at)"
                         " VALUES (?, ?, ?, ?, '2024-01-01T00:00:00+00:00')",
                         (gid, seq, event["type"], json.dumps(event)))
    conn.close()
    return gid


def test_games_stored_before_the_checks_are_served(data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir, admin_token=None)
    with TestClient(create_app(settings, token=TOKEN)) as c:
        assert c.get("/api/games").json() == []
    short = {"type": "hand", **chicago(ANN, "KC QD")}  # Bob's cards half entered: 20
    chi = _plant(settings.db_path, "chicago", ["Ann", "Bob"], {}, [short])
    six = _plant(settings.db_path, "rummy10", [f"P{i}" for i in range(6)], {}, [])
    one = _plant(settings.db_path, "rummy", ["Ann", "Bob"], {"target": True}, [])
    for boot in range(2):
        with TestClient(create_app(settings, token=TOKEN), raise_server_exceptions=False) as c:
            view = c.get(f"/api/games/{chi}")
            assert view.status_code == 200, view.text
            assert [p["total"] for p in view.json()["players"]] == [5, 20]
            assert c.get(f"/api/games/{six}").status_code == 200
            assert c.get(f"/api/games/{one}").json()["settings"]["target"] == 1
            if boot == 0:
                # new input is checked: a new short hand, or the short one corrected as is
                r = c.post(f"/api/games/{chi}/hands", json=chicago(ANN, "KC QD"), headers=ADMIN)
                assert SHORT_BOB in refused(r)
                r = c.put(f"/api/games/{chi}/hands/1", json=chicago(ANN, "KC QD"), headers=ADMIN)
                assert SHORT_BOB in refused(r)
                # a rename replays the stored hand as it was stored
                r = c.post(f"/api/games/{chi}/rename", json={"old": "Bob", "new": "Rob"},
                           headers=ADMIN)
                assert r.status_code == 200, r.text
                assert [p["total"] for p in r.json()["players"]] == [5, 20]
            else:  # after a restart too; and a correction with all the cards is taken
                full = {"players": [{"name": "Ann", "hand": ANN.split(), "knocked": True},
                                    {"name": "Rob", "hand": BOB.split()}]}
                r = c.put(f"/api/games/{chi}/hands/1", json=full, headers=ADMIN)
                assert r.status_code == 200, r.text
                assert [p["total"] for p in r.json()["players"]] == [5, 60]


# ---- 5. small error bodies -------------------------------------------------------------------

# Under the server's body limit, so that the reply is the validation's own; before, a
# reply echoed every bad item with its input (a 7 MB body of players got 127 MB back).
BOGUS = [{"name": "x" * 50, "bogus": list(range(20))}] * 7_000  # about 0.9 MB of bad players


@pytest.mark.parametrize(("path", "body"), [
    ("/api/games", {"variant": "chicago", "players": BOGUS}),
    ("/api/games", {"variant": "chicago", "players": list(range(120_000))}),
    ("/api/games", {"variant": "chicago", "players": ["Ann", "Bob"],
                    "settings": {f"k{i}": i for i in range(60_000)}}),
    ("/api/games", {"variant": "x" * 900_000, "players": ["Ann", "Bob"]}),
    ("/api/games", {"variant": "chicago", "players": ["Ann", "Bob"], "y" * 900_000: 1}),
    ("/api/games", BOGUS),
    ("/api/games/1/hands", {"players": BOGUS}),
    ("/api/games/1/preview", {"players": [{"name": "Ann", "hand": ["7H"] * 150_000}]}),
    ("/api/games/1/hands", {"players": [{"name": "Ann", "hand": ["x" * 900_000]}]}),
    ("/api/games/1/rename", {"old": "Ann", "new": "z" * 900_000}),
])
def test_a_big_bad_body_gets_a_small_reply(client: TestClient, path: str, body: Any) -> None:
    new_game(client)
    data = json.dumps(body)
    assert len(data) > 500_000
    r = client.post(path, content=data, headers={**ADMIN, "Content-Type": "application/json"})
    _small_and_plain(r)
    assert len(client.get("/api/games").json()) == 1


def _small_and_plain(r: Any) -> None:
    assert r.status_code == 422, r.text[:300]
    assert len(r.content) < 4096
    detail = r.json()["detail"]
    assert not any(ch * 60 in detail for ch in "xyz")  # a value is named briefly, if at all
    assert "Input should" not in detail and "input" not in r.json()


@pytest.mark.parametrize("body", [
    {"variant": "chicago", "players": [{"name": "x" * 50, "bogus": list(range(20))}] * 40_000},
    {"variant": "chicago", "players": list(range(1_000_000))},
])
def test_a_body_of_megabytes_gets_a_small_reply_from_the_handler(tmp_path: Path,
                                                                 body: Any) -> None:
    """The validation handler and the body models alone, without the server's body limit
    in front of them (which refuses a body over 1 MB before it is read)."""
    from types import SimpleNamespace

    from fastapi import FastAPI

    from scorekeeper.club.spelling import as_typed
    from scorekeeper.settings import Settings
    from scorekeeper.store import GameStore
    from scorekeeper.web.deps import get_hub, get_settings, get_spelling, get_store
    from scorekeeper.web.http import errors
    from scorekeeper.web.live.hub import Hub
    from scorekeeper.web.routes import games as api

    app, store, hub = FastAPI(), GameStore(tmp_path / "games.db"), Hub()
    settings = Settings(data_dir=tmp_path)
    app.dependency_overrides.update({get_store: lambda: store, get_hub: lambda: hub,
                                     get_settings: lambda: settings,
                                     get_spelling: lambda: as_typed})
    app.state.parts = SimpleNamespace(admin_token="t")  # what the routes' guard reads
    errors.install(app)
    app.include_router(api.router)
    data = json.dumps(body)
    assert len(data) > 5_000_000
    with TestClient(app) as c:
        r = c.post("/api/games", content=data, headers={"Content-Type": "application/json",
                                                        "Authorization": "Bearer t"})
        _small_and_plain(r)
        assert r.json()["detail"] == "players: has too many entries: at most 64"
    store.close()


def test_many_bad_items_name_three_problems(client: TestClient) -> None:
    r = client.post("/api/games", json={"variant": "chicago", "players": [1] * 60},
                    headers=ADMIN)
    assert refused(r) == ("players.0: must be text; players.1: must be text; "
                          "players.2: must be text; and 57 more problems")


@pytest.mark.parametrize(("body", "detail"), [
    ({"variant": "chicago"}, "players: is missing"),
    ({"variant": 7, "players": ["Ann", "Bob"]}, "variant: must be text"),
    ({"variant": "chicago", "players": "Ann"}, "players: must be a list"),
    ({"variant": "chicago", "players": ["Ann", "Bob"], "extra": 1}, "extra: is not known here"),
    ([1, 2], "the request body must be an object"),
])
def test_validation_messages_are_in_players_words(client: TestClient, body: Any,
                                                  detail: str) -> None:
    assert refused(client.post("/api/games", json=body, headers=ADMIN)) == detail


@pytest.mark.parametrize(("player", "detail"), [
    ({"name": "Ann", "knocked": 1}, "player Ann: knocked: must be true or false"),
    ({"name": "Ann", "hand": "7H 8H"}, "player Ann: hand: must be a list"),
    ({"name": "Ann", "held": 2.5}, "player Ann: held: must be a whole number"),
    ({"name": "Ann", "melds": [5]}, "player Ann: melds.0: must be a list"),
    ({"name": "Ann", "melds": [{"cards": ["AH"], "at": 1}]},
     "player Ann: melds.0.at: is not known here"),
    ({"name": "Ann", "hand": ["x" * 900]}, "player Ann: hand.0: is too long: at most 16 "
                                           "characters"),
    ({"knocked": True}, "players.0.name: is missing"),
    (7, "players.0: must be an object"),
])
def test_a_hand_of_the_wrong_shape_names_the_player(client: TestClient, player: Any,
                                                     detail: str) -> None:
    gid = new_game(client, "rummy500")
    for route in ("hands", "preview"):
        r = client.post(f"/api/games/{gid}/{route}", json={"players": [player]}, headers=ADMIN)
        assert refused(r) == detail
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0


def test_score_command_names_a_huge_value_briefly() -> None:
    done = run_score({"variant": "chicago", "players": [
        {"name": "Ann", "hand": ["x" * 1_000_000], "knocked": True}]})
    assert done.returncode == 2 and len(done.stderr) < 300
    assert done.stderr.startswith("line 1: player Ann: unknown card 'xxxxx")


# ---- 6. deeply nested JSON and huge ids ------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/api/games"), ("POST", "/api/games/1/hands"), ("POST", "/api/games/1/preview"),
    ("PUT", "/api/games/1/hands/1"), ("PUT", "/api/games/1/settings"),
    ("POST", "/api/games/1/rename"), ("POST", "/api/games/1/scan"),
])
@pytest.mark.parametrize("body", [DEEP, '{"players": ' + DEEP + "}"])
def test_deeply_nested_json_is_a_4xx(client: TestClient, method: str, path: str,
                                     body: str) -> None:
    new_game(client)
    r = client.request(method, path, content=body,
                       headers={**ADMIN, "Content-Type": "application/json"})
    assert refused(r).startswith("malformed JSON")
    assert client.get("/api/games/1").json()["seq"] == 0


@pytest.mark.parametrize(("body", "detail"), [
    (b'{"variant": "\xff"}', "malformed JSON: the body is not UTF-8 text"),
    (b'{"\\ud800": 1}', "the request body holds a broken character (a lone surrogate)"),
    (b'{"variant": "chicago", "players": ["A", "B"], "settings": {"\\ud800": 1}}',
     "unknown setting '\\ud800' for chicago"),
])
def test_broken_text_in_a_body_is_a_4xx(client: TestClient, body: bytes, detail: str) -> None:
    r = client.post("/api/games", content=body,
                    headers={**ADMIN, "Content-Type": "application/json"})
    assert refused(r) == detail


@pytest.mark.parametrize("game_id", [2**63, 2**63 - 1, 2**64 + 5, 0, -1])
def test_a_game_id_beyond_sqlite_is_not_found(client: TestClient, game_id: int) -> None:
    new_game(client)
    assert refused(client.get(f"/api/games/{game_id}"), 404) == f"no game with id {game_id}"
    assert client.get(f"/api/games/{game_id}/events").status_code == 404
    for method, path, body in [("POST", "hands", chicago(ANN, BOB)),
                               ("POST", "preview", chicago(ANN, BOB)),
                               ("PUT", "hands/1", chicago(ANN, BOB)),
                               ("DELETE", "hands/last", None),
                               ("PUT", "settings", {"settings": {}}),
                               ("POST", "rename", {"old": "Ann", "new": "Anna"}),
                               ("POST", "scan", {"player": "Ann"})]:
        r = client.request(method, f"/api/games/{game_id}/{path}", json=body, headers=ADMIN)
        assert r.status_code in (404, 503), (path, r.status_code, r.text)  # 503: no camera
    assert client.get("/api/games").status_code == 200


def test_a_huge_hand_number_is_a_4xx(client: TestClient) -> None:
    gid = new_game(client)
    r = client.put(f"/api/games/{gid}/hands/{2**63}", json=chicago(ANN, BOB), headers=ADMIN)
    assert "there is no hand" in refused(r)
    r = client.put(f"/api/games/{gid}/hands/{'9' * 5000}", json=chicago(ANN, BOB), headers=ADMIN)
    assert refused(r) == "path.n: is too large a number"


def test_score_command_refuses_deeply_nested_json() -> None:
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "score"], input=DEEP + "\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "line 1: not valid JSON (nested too deeply)\n"
