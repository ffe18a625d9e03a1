"""The table's decks on the phone page, in Debian's Chromium against the real server: the
new-game sheet names the deck, the review says which deck read a scan (and why not), the
saved hand teaches the deck the confirmed cards, and "Improve this deck" shows its
progress and can be cancelled (its routes answered by Playwright: no training here).
Run: `.venv/bin/python -m pytest tests/test_browser_decks.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from scorekeeper.decks.profile import create_or_open
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
    shot,
)
from tests.test_browser_scan import SCAN_500, FakeScans, wait_photo

pytestmark = pytest.mark.browser

WARNING = ("deck 'home' has no adapted model yet (run `scorekeeper deck adapt home`); "
           "reading with the generic model")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "data")
    srv.data_dir.mkdir()
    create_or_open(srv.data_dir, "home")
    srv.start()
    yield srv
    srv.stop()


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
    # correct the misread 10♥, add a card by hand (it has no box: not learned from)
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
        {"read": 3, "card": "QS"}, {"read": 4, "card": "QD"}, {"read": 5, "card": "AS"}]}]


def test_improve_this_deck_shows_progress_and_cancels(server: Server, admin: Phone) -> None:
    status: dict[str, Any] = {"state": "idle", "running": False}
    started: list[Any] = []

    def adapt(route: Any) -> None:
        req = route.request
        if req.method == "POST":
            started.append(json.loads(req.post_data))
            status.update(state="adapting", running=True, deck="home", minutes=5,
                          progress=0.42, left_s=174,
                          message="adapting the classifier:  42%  2:54 left")
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
    expect(admin.tid("deck-model-home")).to_have_text(
        "Reads with the shipped model: not improved yet.")
    admin.tid("deck-improve-home").click()
    expect(admin.tid("deck-job")).to_have_attribute("data-state", "adapting")
    expect(admin.tid("deck-job-left")).to_have_text("2:54 left")
    assert admin.tid("deck-job-progress").get_attribute("value") == "0.42"
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
