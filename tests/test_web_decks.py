"""Decks on the server: a game names its deck, its scans read with it (or say why not), a
confirmed scan teaches the deck, learned examples are capped and deleted, and "Improve
this deck" runs in the background with progress, one at a time, and can be cancelled."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scorekeeper.decks import adapting
from scorekeeper.decks.adapting import Adapter
from scorekeeper.decks.profile import create_or_open, open_deck
from scorekeeper.files import file_digest
from scorekeeper.settings import Settings
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

def test_a_game_keeps_its_deck_and_the_list_shows_it(client: TestClient,
                                                     tmp_path: Path) -> None:
    game = _game(client, deck="home")
    assert game["deck"] == "home"
    assert client.get(f"/api/games/{game['id']}").json()["deck"] == "home"
    assert _game(client)["deck"] is None  # no default deck: the generic model
    decks = client.get("/api/decks").json()  # public
    assert [d["name"] for d in decks["decks"]] == ["home"]
    assert decks["decks"][0] == {"name": "home", "examples": 0, "learned": 0, "adapted": False,
                                 "installed": None, "second": False,
                                 "second_newer": False, "check": None}
    assert decks["learn_from_scans"] is True and decks["default"] is None


@needs_model
@pytest.mark.parametrize("checked", ["shipped", "another", None])
def test_the_list_says_whether_the_second_reads_beside_a_deck(client: TestClient,
                                                               tmp_path: Path,
                                                               checked: str | None) -> None:
    """Checked: its check read the models' very second beside it. Newer: it read another
    (a release ago), and the models' newer one reads beside it instead. None: its check
    read no second, and its classifier reads alone."""
    profile = open_deck(tmp_path, "home")
    digest = {"shipped": file_digest(ROOT / "models" / "cards-cls-fans.onnx"),
              "another": "0" * 64, None: None}[checked]
    profile.manifest["classifier"] = {"onnx": "cards-cls.onnx", "installed": "2026-12-03",
                                      **({"second": digest} if digest else {})}
    profile.save()
    row = client.get("/api/decks").json()["decks"][0]
    assert row["adapted"] is True
    assert (row["second"], row["second_newer"]) == {
        "shipped": (True, False), "another": (True, True), None: (False, False)}[checked]
    summary = open_deck(tmp_path, "home").summary(ROOT / "models")
    assert ("the generic second classifier beside it" in summary) is (checked == "shipped")
    assert ("a newer generic second classifier" in summary) is (checked == "another")


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

def _confirm(c: TestClient, scan: dict, cards: list[dict], **extra: object) -> dict:
    r = c.post(f"/api/scans/{scan['id']}/confirm", headers=ADMIN,
               json={"cards": cards, **extra})
    assert r.status_code == 200, r.text
    return r.json()


@needs_model
def test_a_confirmed_scan_is_stored_and_used_by_the_next_adaptation(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scan = _scan(client, _game(client, deck="home")["id"])
    read = scan["cards"]
    assert len(read) >= 4
    # the players corrected the first card, removed the second, and added one by hand: it
    # has no reader's box, so it is sent by its code and kept with the photo, unboxed
    fixed = "AS" if read[0]["card"] != "AS" else "KD"
    cards = [{"read": 0, "card": fixed}] + [{"read": i, "card": c["card"]}
                                             for i, c in enumerate(read) if i > 1]
    answer = _confirm(client, scan, cards, added=["7h"])
    assert answer["deck"] == "home" and answer["learned"] >= len(cards)
    assert answer["unboxed"] == 1
    rows = open_deck(tmp_path, "home").examples()
    learned = [r for r in rows if r["source"].startswith("scan:1:")]
    assert learned and len(rows) == answer["examples"]
    assert all(r["unboxed"] == ["7H"] for r in learned)  # the install check counts it
    assert fixed in {r["card"] for r in learned}
    assert read[1]["card"] not in {r["card"] for r in learned} - {c["card"] for c in cards}
    assert any(r["card"] == "none" for r in learned)  # the table between the cards
    assert client.get("/api/decks").json()["decks"][0]["learned"] == len(learned)
    # a scan is learned from once
    r = client.post(f"/api/scans/{scan['id']}/confirm", headers=ADMIN, json={"cards": cards})
    assert r.status_code == 404

    pytest.importorskip("torch")
    from scorekeeper_lab.training import adapt

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
    r = client.post(url, headers=ADMIN, json={"cards": [{"read": 0, "card": "AS"}],
                                              "added": ["ZZ"]})
    assert r.status_code == 422 and "ZZ" in r.text
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
import json, sys, time
name, minutes = sys.argv[2], float(sys.argv[4])
assert sys.argv[1] == "deck-adapt" and "--events" in sys.argv
def event(**data):
    print(json.dumps(data), flush=True)
print(f"deck {name}: 40 crops to learn from, 10 held back to check", file=sys.stderr)
event(event="counts", learn=40, check=10, others=3000)
print("a library's own line on standard output", flush=True)
try:
    for k in range(1, 5):
        time.sleep(minutes)
        event(event="phase", phase="adapting", progress=k / 4, left_s=(4 - k) * 2)
except KeyboardInterrupt:
    print(f"\\ncancelled: deck {name!r} keeps its model", file=sys.stderr)
    sys.exit(130)
event(event="done", installed=True,
      message=f"deck {name}: installed: held-back 90.0% (generic) -> 99.0% (adapted)")
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
    assert status["counts"] == {"learn": 40, "check": 10, "others": 3000}
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


# ---- enrolling a deck from the phone ---------------------------------------------------------

PHOTOS: dict[str, bytes] = {}  # rendered layout photos (JPEG), made once for the module
SLIPS = {  # name: (photo number, render_enrolment's slips, the slip's kind, its text's start)
    "missing": (1, {"leave_out": ("QC",)}, "missing", "photo 1: QC is missing (row 1, place 12)"),
    "swapped": (1, {"swap": ("5C", "9C")}, "swapped",
                "photo 1: 5C and 9C are swapped (row 1, places 5 and 9)"),
    "blurred": (1, {"blur": 5.0}, "blurred", "photo 1 is blurred"),
    "design": (1, {"stranger": "small"}, "design", "photo 1: 7C's index is"),
    "moved": (1, {"stranger": "KH"}, "moved",
              "photo 1: the card in 7C's place (row 1, place 7) reads KH"),
}


def _stranger(deck: object, kind: str) -> object:
    """Another design for 7C: a card whose index is 0.6 of the deck's, or a KH in its place."""
    import cv2
    from scorekeeper_lab.training.synth.deckset import Deck, Face

    if kind != "small":
        face = deck.by_card[kind][0]  # type: ignore[attr-defined]
        return Deck("other", face.image, [Face("7C", face.image, face.index)])
    face = deck.by_card["7C"][0]  # type: ignore[attr-defined]
    img = face.image.copy()
    x1, y1, x2, y2 = face.index[0]
    corner = img[y1:y2, x1:x2].copy()
    w, h = int((x2 - x1) * 0.6), int((y2 - y1) * 0.6)
    img[y1:y2, x1:x2] = 245
    img[y1:y1 + h, x1:x1 + w] = cv2.resize(corner, (w, h))
    return Deck("other", img, [Face("7C", img, [(x1, y1, x1 + w, y1 + h)])])


def layout_photo(name: str) -> bytes:
    """Photo `name` of the prescribed layout: "1" and "2" laid out right, or a slip of SLIPS
    (photo 1 with it); rendered as tests/test_decks_enrol.py does. Photo 1 leaves row 1's
    joker out (jokers are optional): its place is empty, not a card the model half sees."""
    if name not in PHOTOS:
        import cv2
        from scorekeeper_lab.training.adapt import render_enrolment
        from scorekeeper_lab.training.synth.fallback import fallback_deck
        from scorekeeper_lab.training.synth.tables import with_joker

        deck = with_joker(fallback_deck())
        number, slips = (int(name), {}) if name.isdigit() else SLIPS[name][:2]
        if "stranger" in slips:
            slips = {"stranger": _stranger(deck, str(slips["stranger"]))}
        if number == 1:
            slips = {**slips, "leave_out": (*slips.get("leave_out", ()), "JK1")}
        frame = render_enrolment(deck, number, seed=7, **slips)  # type: ignore[arg-type]
        PHOTOS[name] = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    return PHOTOS[name]


def _enrol(c: TestClient, number: int, photo: bytes, deck: str = "blue",
           kind: str = "image/jpeg") -> dict:
    r = c.post(f"/api/decks/{deck}/enrol/photos/{number}", headers=ADMIN,
               files={"image": (f"photo-{number}.jpg", photo, kind)})
    assert r.status_code == 200, r.text
    return r.json()


def _examples(data_dir: Path, name: str) -> list[tuple[str, list[float]]]:
    return sorted((r["card"], r["box"]) for r in open_deck(data_dir, name).examples()
                  if r["card"] != "none")


@needs_model
def test_a_deck_is_enrolled_photo_by_photo_as_the_cli_would(client: TestClient,
                                                            tmp_path: Path) -> None:
    draft = client.get("/api/decks/blue/enrol", headers=ADMIN).json()
    assert draft["photos"] == [] and not draft["ready"] and not draft["exists"]
    assert draft["why"] == "no photo yet: take photo 1 of the layout"
    sheet1 = draft["layout"]["sheets"][0]
    assert sheet1["photos"] == [1, 3, 5]
    assert sheet1["rows"][0] == ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C",
                                 "JC", "QC", "KC", "JK"]
    first = _enrol(client, 1, layout_photo("1"))
    photo = first["photo"]
    assert photo["ok"] and photo["slips"] == [] and photo["cards"] == 27
    assert len(photo["places"]) == 28  # a joker is optional: its place is noted, no slip
    assert [p["state"] for p in photo["places"]].count("read") == 27
    assert photo["places"][13] == {"card": "JK", "row": 1, "place": 14, "state": "absent"}
    assert photo["notes"] == ["photo 1: no joker at the end of row 1"]
    assert first["ready"] and first["why"] is None  # as `deck enrol NAME PHOTO1` would
    marked = client.get(photo["image"], headers=ADMIN)
    assert marked.status_code == 200 and marked.headers["content-type"] == "image/jpeg"
    assert client.get("/api/decks").json()["enrolling"] == ["blue"]
    second = _enrol(client, 2, layout_photo("2"))
    assert second["ready"] and second["photo"]["cards"] == 26
    assert [p["number"] for p in second["photos"]] == [1, 2]
    r = client.post("/api/decks/blue/enrol/save", headers=ADMIN)
    assert r.status_code == 201, r.text
    saved = r.json()
    assert saved["created"] and saved["photos"] == 2 and saved["cards"] == 53
    assert saved["examples"] == len(open_deck(tmp_path, "blue").examples())
    assert not (tmp_path / "enrol" / "blue").exists()  # the draft is dropped
    assert client.get("/api/decks").json()["enrolling"] == []
    # the same examples as `scorekeeper deck enrol` stores from the same photos
    import io

    from scorekeeper.decks.enrol import cmd_enrol

    files = []
    for n in (1, 2):
        files.append(tmp_path / f"layout-{n}.jpg")
        files[-1].write_bytes(layout_photo(str(n)))
    assert cmd_enrol(tmp_path, ROOT / "models", "cli", files, io.StringIO()) == 0
    assert _examples(tmp_path, "blue") == _examples(tmp_path, "cli")
    # enrolling again adds to the deck
    _enrol(client, 1, layout_photo("1"))
    again = client.post("/api/decks/blue/enrol/save", headers=ADMIN).json()
    assert not again["created"] and again["examples"] > saved["examples"]


@needs_model
@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_each_slip_is_named_and_the_photo_can_be_taken_again(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slip: str) -> None:
    from scorekeeper.decks import enrol

    # the generic model reads the drawn test deck's cards less surely than a real deck's
    monkeypatch.setattr(enrol, "SURE", 0.8)
    number, _, kind, text = SLIPS[slip]
    got = _enrol(client, number, layout_photo(slip))
    photo = got["photo"]
    assert not photo["ok"] and not got["ready"]
    assert got["why"] == "photo 1 has a slip: take it again"
    assert photo["slips"][0]["kind"] == kind, photo["slips"]
    assert photo["slips"][0]["text"].startswith(text), photo["slips"]
    states = {p["card"]: p["state"] for p in photo["places"]}
    expected = {"missing": {"QC": "missing"}, "swapped": {"5C": "swapped", "9C": "swapped"},
                "design": {"7C": "design"}, "moved": {"7C": "moved"}}.get(slip, {})
    assert {c: states[c] for c in expected} == expected
    if slip == "blurred":
        assert set(states.values()) == {"unread"}
    r = client.post("/api/decks/blue/enrol/save", headers=ADMIN)
    assert r.status_code == 409 and "photo 1 has a slip" in r.json()["detail"]
    assert client.get(photo["image"], headers=ADMIN).status_code == 200
    # taken again: the page is replaced, the earlier photo's files go
    assert _enrol(client, 1, layout_photo("1"))["photo"]["ok"]
    assert len(list((tmp_path / "enrol" / "blue").glob("photo-1-*"))) == 1
    assert len(list((tmp_path / "enrol" / "blue").glob("marked-1-*"))) == 1


def test_a_photo_without_the_mat_is_named(client: TestClient) -> None:
    if not HAVE_MODEL:
        pytest.skip("no card model")
    import cv2
    import numpy as np

    gray = cv2.imencode(".png", np.full((600, 800, 3), 90, np.uint8))[1].tobytes()
    photo = _enrol(client, 1, gray, kind="image/png")["photo"]
    assert photo["slips"][0]["kind"] == "no_mat"
    assert photo["slips"][0]["text"].startswith("photo 1: no scan mat found")


@needs_model
def test_bad_uploads_are_refused_and_lose_nothing(client: TestClient, tmp_path: Path) -> None:
    from scorekeeper.web.uploads import MAX_UPLOAD

    _enrol(client, 1, layout_photo("1"))
    url = "/api/decks/blue/enrol/photos/1"
    before = sorted(p.name for p in (tmp_path / "enrol" / "blue").iterdir())
    r = client.post(url, headers=ADMIN, files={"image": ("notes.txt", b"hello", "text/plain")})
    assert r.status_code == 415 and r.json()["detail"] == ("notes.txt is not an image (JPEG, "
                                                           "PNG, WebP or BMP expected)")
    bomb = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + (20000).to_bytes(4, "big") * 2
    r = client.post(url, headers=ADMIN, files={"image": ("bomb.png", bomb, "image/png")})
    assert r.status_code == 413 and "megapixels" in r.json()["detail"]
    r = client.post(url, headers=ADMIN,
                    files={"image": ("huge.jpg", b"\xff" * (MAX_UPLOAD + 100_000), "image/jpeg")})
    assert r.status_code == 413 and "over" in r.json()["detail"]
    # a phone's photo is over the 1 MB of a JSON body: it gets past the body limit
    r = client.post(url, headers=ADMIN, files={"image": ("big.jpg", b"x" * 3_000_000)})
    assert r.status_code == 415
    r = client.post(url, headers=ADMIN, files={"photo": ("a.jpg", b"x", "image/jpeg")})
    assert r.status_code == 422 and "'image'" in r.json()["detail"]
    r = client.post(url, headers=ADMIN, json={})  # the table camera: there is none
    assert r.status_code == 503 and r.json()["detail"].startswith("camera")
    r = client.post(url, headers=ADMIN, json={"camera": True})
    assert r.status_code == 422
    for bad in ("/api/decks/blue/enrol/photos/6", "/api/decks/blue/enrol/photos/0",
                "/api/decks/-x/enrol/photos/1"):
        r = client.post(bad, headers=ADMIN, files={"image": ("a.jpg", layout_photo("1"))})
        assert r.status_code == 422, bad
    assert sorted(p.name for p in (tmp_path / "enrol" / "blue").iterdir()) == before
    draft = client.get("/api/decks/blue/enrol", headers=ADMIN).json()
    assert draft["ready"] and draft["photos"][0]["ok"]


def test_a_draft_is_discarded_and_a_missing_one_is_404(client: TestClient,
                                                       tmp_path: Path) -> None:
    r = client.post("/api/decks/blue/enrol/save", headers=ADMIN)
    assert r.status_code == 404 and "no enrolment of 'blue'" in r.json()["detail"]
    r = client.get("/api/decks/blue/enrol/photos/1.jpg", headers=ADMIN)
    assert r.status_code == 404 and r.json()["detail"] == "no photo 1 in the enrolment of 'blue'"
    folder = tmp_path / "enrol" / "blue"
    folder.mkdir(parents=True)
    (folder / "photo-2.json").write_text(json.dumps(
        {"number": 2, "sheet": 2, "ok": True, "slips": [], "notes": [], "places": [],
         "examples": [], "photo": "p.jpg", "marked": "m.jpg"}))
    draft = client.get("/api/decks/blue/enrol", headers=ADMIN).json()
    assert draft["why"] == "photo 1 is not taken yet: the photos follow the layout's order"
    assert client.post("/api/decks/blue/enrol/save", headers=ADMIN).status_code == 409
    r = client.delete("/api/decks/blue/enrol", headers=ADMIN)
    assert r.status_code == 200 and r.json() == {"deck": "blue", "discarded": 1}
    assert not folder.exists()
    assert client.delete("/api/decks/blue/enrol", headers=ADMIN).json()["discarded"] == 0
    assert client.get("/api/decks/..x/enrol", headers=ADMIN).status_code == 422


def test_the_enrol_routes_need_the_token(client: TestClient) -> None:
    for method, url in (("GET", "/api/decks/blue/enrol"), ("DELETE", "/api/decks/blue/enrol"),
                        ("POST", "/api/decks/blue/enrol/photos/1"),
                        ("GET", "/api/decks/blue/enrol/photos/1.jpg"),
                        ("POST", "/api/decks/blue/enrol/save"),
                        ("PUT", "/api/decks/learning")):
        assert client.request(method, url, json={}).status_code == 401, url


# ---- the switch for learning from play ----------------------------------------------------

def test_the_admin_turns_learning_from_scans_off_and_it_stays_off(tmp_path: Path) -> None:
    create_or_open(tmp_path, "home")
    for c in _client(tmp_path):
        r = c.put("/api/decks/learning", headers=ADMIN, json={"on": False})
        assert r.status_code == 200 and r.json() == {"learn_from_scans": False}
        assert c.get("/api/decks").json()["learn_from_scans"] is False
        answer = c.post("/api/scans/nope/confirm", headers=ADMIN, json={"cards": []}).json()
        assert answer["learned"] == 0 and "off" in answer["why"]
        assert c.put("/api/decks/learning", headers=ADMIN, json={"on": "no"}).status_code == 422
    assert json.loads((tmp_path / "learning.json").read_text()) == {"learn_from_scans": False}
    for c in _client(tmp_path):  # after a restart, whatever the setting says
        assert c.get("/api/decks").json()["learn_from_scans"] is False
        assert c.put("/api/decks/learning", headers=ADMIN,
                     json={"on": True}).json() == {"learn_from_scans": True}
    for c in _client(tmp_path, learn_from_scans=False):
        assert c.get("/api/decks").json()["learn_from_scans"] is True
    (tmp_path / "learning.json").write_text("{broken")
    for c in _client(tmp_path, learn_from_scans=False):  # unreadable: the setting holds
        assert c.get("/api/decks").json()["learn_from_scans"] is False
