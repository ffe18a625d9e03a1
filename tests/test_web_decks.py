"""Decks on the server: a game names its deck, its scans read with it (or say why not), a
confirmed scan teaches the deck, learned examples are capped and deleted, and "Improve
this deck" runs in the background with progress, one at a time, and can be cancelled."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.decks.profile import create_or_open, open_deck
from scorekeeper.settings import Settings
from scorekeeper.web import adapting
from scorekeeper.web.adapting import Adapter
from scorekeeper.web.app import create_app
from scorekeeper.web.deps import get_adapter

ROOT = Path(__file__).resolve().parents[1]
HAVE_MODEL = (ROOT / "models" / "model.json").exists()
SAMPLE = ROOT / "scorekeeper" / "camera" / "samples" / "sample-4-table-melds.jpg"
ADMIN = {"Authorization": "Bearer secret"}
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason="no card model")


def _client(tmp_path: Path, **settings: object) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, camera="none", **settings),  # type: ignore[arg-type]
                     token="secret")
    with TestClient(app) as c:
        yield c


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    create_or_open(tmp_path, "home")
    yield from _client(tmp_path)


def _game(c: TestClient, **extra: object) -> dict:
    r = c.post("/api/games", json={"variant": "rummy", "players": ["Ann", "Bob"], **extra},
               headers=ADMIN)
    assert r.status_code == 201, r.text
    return r.json()


def _scan(c: TestClient, game_id: int) -> dict:
    r = c.post(f"/api/games/{game_id}/scan", headers=ADMIN,
               files={"image": ("table.jpg", SAMPLE.read_bytes(), "image/jpeg")})
    assert r.status_code == 201, r.text
    return r.json()


# ---- a game names its deck ----------------------------------------------------------------

def test_a_game_keeps_its_deck_and_the_list_shows_it(client: TestClient) -> None:
    game = _game(client, deck="home")
    assert game["deck"] == "home"
    assert client.get(f"/api/games/{game['id']}").json()["deck"] == "home"
    assert _game(client)["deck"] is None  # no default deck: the generic model
    decks = client.get("/api/decks").json()  # public
    assert [d["name"] for d in decks["decks"]] == ["home"]
    assert decks["decks"][0] == {"name": "home", "examples": 0, "learned": 0, "adapted": False,
                                 "installed": None, "check": None}
    assert decks["learn_from_scans"] is True and decks["default"] is None


def test_a_game_keeps_its_deck_after_a_restart(tmp_path: Path) -> None:
    create_or_open(tmp_path, "home")
    for c in _client(tmp_path):
        gid = _game(c, deck="home")["id"]
        r = c.post(f"/api/games/{gid}/hands", headers=ADMIN,
                   json={"players": [{"name": "Ann", "went_out": True},
                                     {"name": "Bob", "hand": ["KS"]}]})
        assert r.status_code == 201, r.text
    for c in _client(tmp_path):
        assert c.get(f"/api/games/{gid}").json()["deck"] == "home"


def test_an_unknown_or_impossible_deck_is_refused(client: TestClient) -> None:
    r = client.post("/api/games", headers=ADMIN,
                    json={"variant": "rummy", "players": ["Ann", "Bob"], "deck": "blue"})
    assert r.status_code == 404
    assert r.json()["detail"] == "no deck named 'blue'; the decks here: home"
    r = client.post("/api/games", headers=ADMIN,
                    json={"variant": "rummy", "players": ["Ann", "Bob"], "deck": "../x"})
    assert r.status_code == 422
    assert client.get("/api/games").json() == []


def test_the_tables_default_deck_and_null_for_the_generic_model(tmp_path: Path) -> None:
    create_or_open(tmp_path, "home")
    for c in _client(tmp_path, default_deck="home"):
        assert _game(c)["deck"] == "home"
        assert _game(c, deck=None)["deck"] is None
        assert c.get("/api/decks").json()["default"] == "home"


@needs_model
def test_a_deck_not_adapted_yet_reads_generic_and_says_so(client: TestClient) -> None:
    scan = _scan(client, _game(client, deck="home")["id"])
    assert scan["deck"] is None and scan["cards"]
    assert scan["warnings"] == ["deck 'home' has no adapted model yet (run `scorekeeper deck "
                                "adapt home`); reading with the generic model"]
    assert scan["learn"] is True and scan["id"] in scan["image"]


@needs_model
def test_a_broken_deck_model_reads_generic_and_says_so(client: TestClient,
                                                        tmp_path: Path) -> None:
    profile = open_deck(tmp_path, "home")
    (profile.folder / "cards-cls.onnx").write_bytes(b"not a model")
    profile.manifest["classifier"] = {"onnx": "cards-cls.onnx", "installed": "2025-01-01"}
    profile.save()
    generic = _scan(client, _game(client)["id"])
    scan = _scan(client, _game(client, deck="home")["id"])
    assert scan["deck"] is None
    assert len(scan["warnings"]) == 1 and "cannot be loaded" in scan["warnings"][0]
    assert [c["card"] for c in scan["cards"]] == [c["card"] for c in generic["cards"]]
    assert generic["warnings"] == [] and generic["learn"] is False


# ---- learning from play -------------------------------------------------------------------

def _confirm(c: TestClient, scan: dict, cards: list[dict]) -> dict:
    r = c.post(f"/api/scans/{scan['id']}/confirm", headers=ADMIN, json={"cards": cards})
    assert r.status_code == 200, r.text
    return r.json()


@needs_model
def test_a_confirmed_scan_is_stored_and_used_by_the_next_adaptation(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scan = _scan(client, _game(client, deck="home")["id"])
    read = scan["cards"]
    assert len(read) >= 4
    # the players corrected the first card, removed the second; a card they added by hand
    # has no reader's box and is not sent
    fixed = "AS" if read[0]["card"] != "AS" else "KD"
    cards = [{"read": 0, "card": fixed}] + [{"read": i, "card": c["card"]}
                                             for i, c in enumerate(read) if i > 1]
    answer = _confirm(client, scan, cards)
    assert answer["deck"] == "home" and answer["learned"] >= len(cards)
    rows = open_deck(tmp_path, "home").examples()
    learned = [r for r in rows if r["source"].startswith("scan:1:")]
    assert learned and len(rows) == answer["examples"]
    assert fixed in {r["card"] for r in learned}
    assert read[1]["card"] not in {r["card"] for r in learned} - {c["card"] for c in cards}
    assert any(r["card"] == "none" for r in learned)  # the table between the cards
    assert client.get("/api/decks").json()["decks"][0]["learned"] == len(learned)
    # a scan is learned from once
    r = client.post(f"/api/scans/{scan['id']}/confirm", headers=ADMIN, json={"cards": cards})
    assert r.status_code == 404

    pytest.importorskip("torch")
    from scorekeeper.training import adapt

    seen: list[dict] = []

    class Seen(Exception):
        pass

    def crops(profile: object) -> tuple[list, list[dict]]:
        _, rows = load_crops(profile)  # type: ignore[arg-type]
        seen.extend(rows)
        raise Seen

    from scorekeeper.decks.examples import load_crops

    monkeypatch.setattr(adapt, "load_crops", crops)
    with pytest.raises(Seen):
        adapt.adapt_deck(open_deck(tmp_path, "home"), ROOT / "models", minutes=0.1)
    assert [r["file"] for r in seen if r["source"].startswith("scan:")] == \
        [r["file"] for r in learned]


@needs_model
def test_bad_confirmations_are_refused(client: TestClient) -> None:
    scan = _scan(client, _game(client, deck="home")["id"])
    url = f"/api/scans/{scan['id']}/confirm"
    n = len(scan["cards"])
    r = client.post(url, headers=ADMIN, json={"cards": [{"read": n, "card": "AS"}]})
    assert r.status_code == 422 and f"no card {n}" in r.json()["detail"]
    r = client.post(url, headers=ADMIN, json={"cards": [{"read": 0, "card": "ZZ"}]})
    assert r.status_code == 422
    assert client.post(url, json={"cards": []}).status_code == 401
    assert client.post("/api/scans/nope/confirm", headers=ADMIN,
                       json={"cards": []}).status_code == 404


@needs_model
def test_no_learning_when_the_table_turned_it_off(tmp_path: Path) -> None:
    create_or_open(tmp_path, "home")
    for c in _client(tmp_path, learn_from_scans=False):
        scan = _scan(c, _game(c, deck="home")["id"])
        assert scan["learn"] is False
        answer = _confirm(c, scan, [{"read": 0, "card": scan["cards"][0]["card"]}])
        assert answer["learned"] == 0 and "off" in answer["why"]
    assert open_deck(tmp_path, "home").examples() == []


@needs_model
def test_learned_examples_are_capped_and_deleted(tmp_path: Path) -> None:
    profile, _ = create_or_open(tmp_path, "home")
    import cv2

    from scorekeeper.decks.examples import Example, store

    image = cv2.imread(str(SAMPLE))
    store(profile, image, [Example("QD", (10, 10, 40, 60), "enrolled")], "mat:1")
    for c in _client(tmp_path, learned_max=6):
        for _ in range(2):
            scan = _scan(c, _game(c, deck="home")["id"])
            _confirm(c, scan, [{"read": i, "card": x["card"]}
                               for i, x in enumerate(scan["cards"])])
        rows = open_deck(tmp_path, "home").examples()
        assert sum(r["source"].startswith("scan:") for r in rows) == 6
        assert rows[0]["source"] == "mat:1"  # enrolled examples are never dropped
        files = {p.name for p in (tmp_path / "decks" / "home" / "examples").glob("*.png")}
        assert files == {r["file"] for r in rows}
        r = c.delete("/api/decks/home/learned", headers=ADMIN)
        assert r.status_code == 200 and r.json() == {"deck": "home", "deleted": 6}
        assert [r["source"] for r in open_deck(tmp_path, "home").examples()] == ["mat:1"]
        assert c.delete("/api/decks/blue/learned", headers=ADMIN).status_code == 404
        assert c.delete("/api/decks/home/learned").status_code == 401


# ---- "Improve this deck" --------------------------------------------------------------------

FAKE_ADAPT = """
import sys, time
name, minutes = sys.argv[3], float(sys.argv[5])
print(f"deck {name}: 40 crops to learn from, 10 held back to check", file=sys.stderr)
try:
    for k in range(1, 5):
        time.sleep(minutes)
        print(f"\\radapting {name}: {k * 25:3d}%  0:{(4 - k) * 2:02d} left  loss 0.1",
              end="", file=sys.stderr, flush=True)
except KeyboardInterrupt:
    print(f"\\ncancelled: deck {name!r} keeps its model", file=sys.stderr)
    sys.exit(130)
print(file=sys.stderr)
print(f"deck {name}: installed: held-back 90.0% (generic) -> 99.0% (adapted), 10 crops")
"""


@pytest.fixture
def fake_adapt(client: TestClient, tmp_path: Path,
               monkeypatch: pytest.MonkeyPatch) -> Adapter:
    script = tmp_path / "fake_adapt.py"
    script.write_text(FAKE_ADAPT)
    adapter = Adapter(tmp_path, ROOT / "models", command=[sys.executable, str(script)])
    client.app.dependency_overrides[get_adapter] = lambda: adapter  # type: ignore[attr-defined]
    monkeypatch.setattr(adapting, "unavailable", lambda models: None)
    return adapter


def _wait(c: TestClient, done: str, seconds: float = 20) -> dict:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status = c.get("/api/decks/adapt", headers=ADMIN).json()
        if status["state"] == done:
            return status
        time.sleep(0.1)
    raise AssertionError(f"still {status}")


def test_adapting_runs_in_the_background_with_progress(client: TestClient,
                                                       fake_adapt: Adapter) -> None:
    assert client.get("/api/decks/adapt", headers=ADMIN).json()["state"] == "idle"
    r = client.post("/api/decks/home/adapt", headers=ADMIN, json={"minutes": 0.5})
    assert r.status_code == 202, r.text
    assert r.json()["running"] is True and r.json()["deck"] == "home"
    # one at a time
    assert client.post("/api/decks/home/adapt", headers=ADMIN,
                       json={"minutes": 1}).status_code == 409
    status = _wait(client, "adapting")
    assert 0 < status["progress"] < 1 and 0 < status["left_s"] <= 30
    assert re.fullmatch(r"adapting home: +\d+%  0:0\d left", status["message"])
    assert client.get("/api/games").status_code == 200  # scoring is not held up
    status = _wait(client, "installed")
    assert status["progress"] == 1 and "installed" in status["message"]
    assert status["running"] is False


def test_adapting_can_be_cancelled(client: TestClient, fake_adapt: Adapter) -> None:
    assert client.post("/api/decks/home/adapt", headers=ADMIN,
                       json={"minutes": 5}).status_code == 202
    _wait(client, "preparing", 5)
    time.sleep(0.3)
    r = client.delete("/api/decks/adapt", headers=ADMIN)
    assert r.status_code == 200
    status = _wait(client, "cancelled")
    assert "keeps its model" in status["message"]
    assert client.delete("/api/decks/adapt", headers=ADMIN).status_code == 409


def test_adapting_needs_the_training_extra_and_a_deck(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adapting, "unavailable", lambda models: "no torch here")
    r = client.post("/api/decks/home/adapt", headers=ADMIN, json={"minutes": 1})
    assert r.status_code == 503 and r.json()["detail"] == "no torch here"
    assert client.post("/api/decks/blue/adapt", headers=ADMIN,
                       json={"minutes": 1}).status_code == 404
    assert client.post("/api/decks/home/adapt", json={"minutes": 1}).status_code == 401
    assert client.post("/api/decks/home/adapt", headers=ADMIN,
                       json={"minutes": 0}).status_code == 422
    assert client.get("/api/decks/adapt").status_code == 401


@needs_model
def test_the_knock_check_reads_with_the_games_deck(client: TestClient, tmp_path: Path) -> None:
    photo = ROOT / "scorekeeper" / "camera" / "samples" / "sample-5-table-chicago.jpg"
    r = client.post("/api/games", headers=ADMIN,
                    json={"variant": "chicago", "players": ["Ann", "Bob"], "deck": "home"})
    gid = r.json()["id"]
    answers = []
    for deck in ("home", "gone"):  # not adapted yet, then removed: the generic model reads
        if deck == "gone":
            (tmp_path / "decks" / "home" / "deck.json").unlink()
        r = client.post(f"/api/games/{gid}/knock-check", data={"player": "Ann"},
                        files={"image": ("hand.jpg", photo.read_bytes(), "image/jpeg")})
        assert r.status_code == 200, r.text
        answers.append(r.json())
    assert answers[0] == answers[1]
