"""The table's decks on the phone page, in Debian's Chromium against the real server: the
new-game sheet names the deck, the review says which deck read a scan (and why not), the
saved hand teaches the deck the confirmed cards, and "Improve this deck" shows its
progress and can be cancelled (its routes answered by Playwright: no training here).
Run: `.venv/bin/python -m pytest tests/test_browser_decks.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.decks.profile import create_or_open, open_deck

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser is a fixture)
    LIVE_S,
    TOKEN,
    Phone,
    Server,
    axe_problems,
    browser,
    enter_player,
    expect,
    open_phone,
    running,
    shot,
)
from tests.test_browser_scan import SCAN_500, FakeScans, wait_photo
from tests.test_web_decks import HAVE_MODEL, SAMPLE, layout_photo

pytestmark = pytest.mark.browser

WARNING = ("deck 'home' has no adapted model yet (run `scorekeeper deck adapt home`); "
           "reading with the generic model")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(tmp_path / "data", prepare=lambda folder: create_or_open(folder, "home")) as srv:
        yield srv


@pytest.fixture
def admin(browser: Any, server: Server) -> Iterator[Phone]:
    phone = open_phone(browser, f"{server.url}/#token={TOKEN}")
    yield phone
    assert phone.errors == [], f"JavaScript errors: {phone.errors}"
    phone.page.context.close()


def test_a_game_names_its_deck_and_a_saved_scan_teaches_it(server: Server,
                                                           admin: Phone) -> None:
    # the new-game sheet offers the table's decks
    admin.tid("primary-btn").click()
    expect(admin.tid("newgame-sheet")).to_be_visible()
    admin.tid("variant-rummy500").click()
    admin.tid("player-input-0").fill("Ann")
    admin.tid("player-input-1").fill("Bob")
    expect(admin.tid("newgame-deck")).to_be_visible()
    admin.tid("newgame-deck").select_option("home")
    admin.tid("create-game").click()
    expect(admin.tid("newgame-sheet")).to_be_hidden()
    expect(admin.tid("game-deck")).to_have_text("Deck: home")
    gid = server.api("GET", "/api/games")[0]["id"]
    assert server.api("GET", f"/api/games/{gid}")["deck"] == "home"

    answer = {**SCAN_500, "id": "fixture-scan", "deck": None, "learn": True,
              "warnings": [WARNING]}
    FakeScans(admin, answer)
    confirmed: list[Any] = []

    def confirm(route: Any) -> None:
        confirmed.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps({"learned": 5, "deck": "home"}))

    admin.page.route("**/api/scans/fixture-scan/confirm", confirm)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    expect(admin.tid("scan-sheet")).to_be_visible()
    wait_photo(admin)
    expect(admin.tid("scan-deck-warnings")).to_have_text(WARNING)
    expect(admin.tid("scan-learns")).to_be_visible()
    # correct the misread 10♥, add a card by hand (no box: sent by its code, kept unboxed)
    admin.tid("scan-label-2").locator(".scan-label-main").click()
    admin.tid("scan-suit-C").click()
    admin.tid("scan-rank-10").click()
    admin.tid("scan-add").click()
    admin.tid("scan-suit-S").click()
    admin.tid("scan-rank-5").click()
    admin.tid("scan-confirm").click()
    expect(admin.tid("scan-sheet")).to_be_hidden()
    assert confirmed == []  # nothing is learned before the hand is saved
    enter_player(admin, 1, ["KC"])
    admin.tid("entry-save").click()
    expect(admin.tid("entry-sheet")).to_be_hidden()
    expect(admin.tid("player-total-0")).not_to_have_text("0", timeout=LIVE_S * 1000)
    admin.page.wait_for_timeout(300)
    assert confirmed == [{"cards": [
        {"read": 0, "card": "10H"}, {"read": 1, "card": "10D"}, {"read": 2, "card": "10C"},
        {"read": 3, "card": "QS"}, {"read": 4, "card": "QD"}, {"read": 5, "card": "AS"}],
        "added": ["5S"]}]


def test_improve_this_deck_shows_progress_and_cancels(server: Server, admin: Phone) -> None:
    status: dict[str, Any] = {"state": "idle", "running": False}
    started: list[Any] = []

    def adapt(route: Any) -> None:
        req = route.request
        if req.method == "POST":
            started.append(json.loads(req.post_data))
            status.update(state="adapting", running=True, deck="home", minutes=5,
                          progress=0.42, left_s=174,
                          message="deck home: 97 crops to learn from, 11 held back to check; "
                                  "making 3000 crops of the other designs",
                          counts={"learn": 97, "check": 11, "others": 3000})
            code = 202
        elif req.method == "DELETE":
            status.update(state="cancelled", running=False,
                          message="cancelled: deck 'home' keeps its model")
            code = 200
        else:
            code = 200
        route.fulfill(status=code, content_type="application/json", body=json.dumps(status))

    admin.page.route("**/api/decks/adapt", adapt)
    admin.page.route("**/api/decks/home/adapt", adapt)
    admin.tid("menu-btn").click()
    admin.tid("menu-decks").click()
    sheet = admin.tid("decks-sheet")
    expect(sheet).to_be_visible()
    expect(admin.tid("deck-home")).to_contain_text("home")
    expect(admin.tid("deck-model-home")).to_have_text("Not improved yet.")
    admin.tid("deck-improve-home").click()
    expect(admin.tid("deck-job")).to_have_attribute("data-state", "adapting")
    expect(admin.tid("deck-job-left")).to_have_text("2:54 left")
    assert admin.tid("deck-job-progress").get_attribute("value") == "0.42"
    # what it learns from, as a player would say it: never the trainer's own line
    expect(admin.tid("deck-job-line")).to_have_text(
        "It learns from 97 pictures of this deck’s cards and 3000 of other decks, and keeps "
        "11 aside to test itself.")
    expect(admin.tid("deck-job")).not_to_contain_text("crops")
    expect(admin.tid("deck-improve-home")).to_be_disabled()  # one run at a time
    assert started == [{"minutes": 5}]
    box = admin.tid("deck-job-cancel").bounding_box()
    assert box is not None and box["height"] >= 44
    assert axe_problems(admin) == []
    shot(admin, "decks-improve.png")
    admin.tid("deck-job-cancel").click()
    expect(admin.tid("deck-job")).to_have_attribute("data-state", "cancelled")
    expect(admin.tid("deck-job-state")).to_have_text("Cancelled: the deck keeps its model.")
    expect(admin.tid("deck-improve-home")).to_be_enabled()


# ---- enrolling a deck from the phone ------------------------------------------------------

def _photo(name: str) -> dict[str, Any]:
    """A rendered photo of the layout (tests/test_web_decks.py), as the phone would send it."""
    return {"name": f"{name}.jpg", "mimeType": "image/jpeg", "buffer": layout_photo(name)}


def _fake_adapt(admin: Phone) -> list[Any]:
    """The adapt routes, answered here (no training in a test); returns the runs started."""
    status: dict[str, Any] = {"state": "idle", "running": False}
    started: list[Any] = []

    def adapt(route: Any) -> None:
        if route.request.method == "POST":
            started.append((route.request.url.split("/")[-2], json.loads(route.request.post_data)))
            status.update(state="adapting", running=True, deck="blue", minutes=5,
                          progress=0.12, left_s=264,
                          message="adapting the classifier:  12%  4:24 left")
        route.fulfill(status=202 if route.request.method == "POST" else 200,
                      content_type="application/json", body=json.dumps(status))

    admin.page.route("**/api/decks/adapt", adapt)
    admin.page.route("**/api/decks/blue/adapt", adapt)
    return started


@pytest.mark.skipif(not HAVE_MODEL, reason="no card model")
def test_a_deck_is_enrolled_from_the_phone(server: Server, admin: Phone) -> None:
    started = _fake_adapt(admin)
    # the page offers the table's camera when the server has one: this one says it has
    admin.page.route("**/api/camera", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"state": "ok"})))
    admin.tid("menu-btn").click()
    admin.tid("menu-decks").click()
    admin.tid("decks-enrol").click()
    admin.tid("ask-input").fill("blue deck")
    admin.tid("ask-ok").click()
    expect(admin.tid("ask-error")).to_contain_text("letters, digits")
    admin.tid("ask-input").fill("blue")
    admin.tid("ask-ok").click()
    expect(admin.tid("enrol-title")).to_have_text("Enrol blue")
    photo = admin.tid("enrol-photo")
    expect(photo).to_have_attribute("data-photo", "1")
    expect(admin.tid("enrol-rows")).to_contain_text("Row 1: A♣2♣3♣")
    expect(admin.tid("enrol-sketch")).to_be_visible()
    expect(admin.tid("enrol-save")).to_be_disabled()
    assert admin.tid("enrol-file").get_attribute("capture") == "environment"
    assert admin.tid("enrol-file").get_attribute("accept") == "image/*"
    assert axe_problems(admin) == []
    shot(admin, "decks-enrol-layout.png")

    # the table's camera: the server has none after all, and says so
    admin.tid("enrol-table-camera").click()
    expect(admin.tid("enrol-error")).to_contain_text("no table camera")
    expect(admin.tid("enrol-step-1")).to_have_attribute("data-state", "todo")

    # a card left out: the slip is named, and the photo is taken again
    admin.tid("enrol-file").set_input_files(_photo("missing"))
    expect(admin.tid("enrol-result")).to_have_attribute("data-ok", "false", timeout=30_000)
    expect(admin.tid("enrol-slip-0")).to_have_text("Photo 1: Q♣ is missing (row 1, place 12).")
    expect(admin.tid("enrol-step-1")).to_have_attribute("data-state", "slip")
    expect(admin.tid("enrol-marked")).to_have_attribute("src", re.compile(r"^blob:"))
    expect(admin.tid("enrol-why")).to_have_text("Photo 1 has a slip: take it again before saving.")
    expect(admin.tid("enrol-save")).to_be_disabled()
    expect(admin.tid("enrol-take")).to_have_text("Take photo 1 again")
    assert axe_problems(admin) == []
    admin.tid("enrol-result").scroll_into_view_if_needed()
    shot(admin, "decks-enrol-slip.png")
    admin.tid("enrol-file").set_input_files(_photo("1"))
    expect(admin.tid("enrol-step-1")).to_have_attribute("data-state", "ok", timeout=30_000)
    expect(photo).to_have_attribute("data-photo", "2")  # on to the next sheet
    admin.tid("enrol-step-1").click()
    expect(admin.tid("enrol-result")).to_contain_text("Photo 1 is right: 27 cards in their places.")
    expect(admin.tid("enrol-result")).to_contain_text("1 joker left out")
    admin.tid("enrol-step-2").click()
    admin.tid("enrol-choose").scroll_into_view_if_needed()
    admin.tid("enrol-pick").set_input_files(_photo("2"))
    expect(admin.tid("enrol-step-2")).to_have_attribute("data-state", "ok", timeout=30_000)
    expect(admin.tid("enrol-why")).to_have_count(0)
    shot(admin, "decks-enrol-ready.png")

    # save, then "Adapt now" shows the run's progress and time left
    admin.tid("enrol-save").click()
    expect(admin.tid("enrol-saved")).to_contain_text("Deck blue is saved")
    expect(admin.tid("enrol-saved")).to_contain_text("53 cards from 2 photos")
    assert [d["name"] for d in server.api("GET", "/api/decks")["decks"]] == ["blue", "home"]
    assert axe_problems(admin) == []
    shot(admin, "decks-enrol-saved.png")
    admin.tid("enrol-adapt").click()
    expect(admin.tid("deck-job")).to_have_attribute("data-state", "adapting")
    expect(admin.tid("deck-job-left")).to_have_text("4:24 left")
    expect(admin.tid("deck-blue")).to_contain_text("Examples: 106")
    assert started == [("blue", {"minutes": 5})]
    shot(admin, "decks-enrol-adapt.png")


def test_the_admin_switches_learning_from_scans_off(server: Server, admin: Phone) -> None:
    import cv2

    from scorekeeper.decks.examples import Example, store

    profile = open_deck(server.data_dir, "home")
    image = cv2.imread(str(SAMPLE))
    store(profile, image, [Example("QD", (10, 10, 40, 60), "g1"),
                           Example("none", (90, 90, 120, 140), "g2")], "scan:1:abc")
    admin.tid("menu-btn").click()
    admin.tid("menu-decks").click()
    switch = admin.tid("deck-learning-switch")
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(admin.tid("deck-learned-total")).to_have_text("2 examples learned from play")
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "false")
    expect(admin.tid("deck-learning-text")).to_have_text(
        "Learning from scans is off on this table.")
    assert server.api("GET", "/api/decks")["learn_from_scans"] is False
    saved = json.loads((server.data_dir / "learning.json").read_text())
    assert saved == {"learn_from_scans": False}
    box = switch.bounding_box()
    assert box is not None and box["height"] >= 44
    assert axe_problems(admin) == []
    admin.tid("deck-learning").scroll_into_view_if_needed()
    shot(admin, "decks-learning.png")
    admin.tid("deck-forget-all").click()
    admin.tid("ask-ok").click()
    expect(admin.tid("deck-learned-total")).to_have_text("0 examples learned from play")
    assert open_deck(server.data_dir, "home").examples() == []


def _improved(folder: Path, second: str) -> None:
    """The deck 'home' as `deck adapt` leaves it, its check read beside `second`."""
    profile, _ = create_or_open(folder, "home")
    profile.manifest["classifier"] = {
        "onnx": "cards-cls.onnx", "installed": "2026-12-03T06:00:00+00:00",
        "check": {"adapted": 0.699, "generic": 0.663, "held_back": 86, "unit": "crops"},
        "second": second}
    profile.save()


@pytest.mark.parametrize("locale", ["en-GB", "es-ES", "pt-BR"])
def test_a_deck_improved_before_an_update_says_to_improve_it_again(browser: Any, tmp_path: Path,
                                                                   locale: str) -> None:
    """Its check read a second classifier this version no longer ships: the sheet says
    it reads beside the new one, and to improve it again to check the two, inside a
    320 px screen with large text in every language the page speaks."""
    with running(tmp_path / "data", prepare=lambda f: _improved(f, "0" * 64)) as srv:
        phone = open_phone(browser, f"{srv.url}/#token={TOKEN}", width=320, locale=locale)
        phone.page.evaluate("document.documentElement.style.fontSize = '150%'")
        phone.tid("menu-btn").click()
        phone.tid("menu-decks").click()
        expect(phone.tid("deck-model-home")).to_contain_text("69")
        line = phone.tid("deck-second-home")
        expect(line).to_be_visible()
        if locale == "en-GB":
            expect(line).to_have_text(
                "The scorekeeper was updated since it was improved: it reads half-hidden "
                "corners with the new reader; improve it again to check the two together.")
        else:
            expect(line).not_to_contain_text("The scorekeeper")
        box = line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"the sheet scrolls sideways ({width} px)"
        shot(phone, f"decks-second-newer-320-{locale}.png")
        assert phone.errors == [], f"JavaScript errors: {phone.errors}"
        phone.page.context.close()
