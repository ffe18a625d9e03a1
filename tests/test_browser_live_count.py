"""The live count while aiming, and a doubted card fixed with one tap, in Debian's Chromium.

The table camera's count runs against the real server on a replay camera (the real
model's read); the auto-taken scan and the phone's viewfinder run on routed answers, so
they do not depend on what a model reads. Phones at 320 px, the narrowest we serve.
Run: `.venv/bin/python -m pytest tests/test_browser_live_count.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_browser import (  # noqa: F401  (browser, server: fixtures)
    CHROMIUM,
    CHROMIUM_ARGS,
    TOKEN,
    Phone,
    Server,
    browser,
    expect,
    open_phone,
    running,
    server,
    shot,
)
from tests.test_browser_scan import SAMPLES, FakeScans, chicago_scan, wait_photo

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}


class FakeCounts:
    """Answers the count route with fixed counts, in turn (the last one then stays)."""

    def __init__(self, phone: Phone, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, str]] = []
        phone.page.route("**/api/games/*/count", self._count)

    def _count(self, route: Any) -> None:
        req = route.request
        self.requests.append({"method": req.method,
                              "type": req.headers.get("content-type", "")})
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        body = {"unread": 0, "ms": 5, "source": "camera", "fresh": True, **answer}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))


def _admin(browser: Any, srv: Server) -> Phone:
    return open_phone(browser, f"{srv.url}/#token={TOKEN}", **NARROW)


def test_the_aim_view_counts_the_replay_cameras_cards(tmp_path: Path, browser: Any) -> None:
    # five cards: never a whole Chicago hand, so the view is not closed by a scan taken by
    # itself (which a whole, sure read would do; the next test covers that)
    sample = SAMPLES / "sample-3-no-mat.jpg"
    with running(tmp_path / "data", "--camera", f"replay:{sample}") as srv:
        srv.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
        admin = _admin(browser, srv)
        counts: list[str] = []
        admin.page.on("request", lambda r: counts.append(r.method)
                      if re.search(r"/api/games/\d+/count$", r.url) else None)
        admin.tid("primary-btn").click()
        admin.tid("scan-aim-0").click()
        expect(admin.tid("camera-sheet")).to_be_visible()
        line = admin.tid("live-count")
        # the real model's read of the replayed frame, against Chicago's 7 (or 8)
        expect(line).to_have_text(re.compile(r"^\d+ of [78] read( · \d+ unsure)?$"),
                                  timeout=60_000)
        expect(admin.tid("live-hint")).to_contain_text("taken by itself")
        n = int(line.get_attribute("data-count") or "-1")
        answer = srv.api("GET", "/api/games/1/count")  # what the server counts: the same
        assert answer["count"] == n and answer["source"] == "camera"
        admin.page.wait_for_function(
            "() => document.querySelector('[data-testid=camera-snapshot]').naturalWidth > 0")
        shot(admin, "live-count-camera-320.png")
        # it keeps counting about once a second while the view is open, and stops with it
        # (about: a loaded machine reads the frame slower; the next ask waits for the answer)
        deadline = time.monotonic() + 30
        while counts.count("GET") < 2 and time.monotonic() < deadline:
            admin.page.wait_for_timeout(250)
        assert counts.count("GET") >= 2
        admin.tid("camera-close").click()
        time.sleep(0.5)
        seen = len(counts)
        time.sleep(2.2)
        assert len(counts) == seen, "the count went on after the view closed"
        assert admin.errors == []
        admin.page.context.close()


def test_a_whole_sure_hand_is_scanned_by_itself_once(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    admin = _admin(browser, server)
    counts = FakeCounts(admin, {"count": 5, "unsure": 2}, {"count": 7, "unsure": 1},
                        {"count": 7, "unsure": 0}, {"count": 7, "unsure": 0})
    scans = FakeScans(admin, chicago_scan({"limit": 5, "deadwood": 4, "legal": True,
                                           "melds": [], "unmelded": [], "dropped": None}))
    admin.tid("primary-btn").click()
    admin.tid("scan-aim-0").click()
    line = admin.tid("live-count")
    expect(line).to_have_text("5 of 7 read · 2 unsure")
    expect(line).to_have_attribute("data-state", "short")
    # what a hand that reads sure is (lab/RECORD.md, "the spread hand"): every corner whole
    expect(admin.tid("live-hint")).to_contain_text("corner shows whole")
    shot(admin, "live-count-short-320.png")
    expect(line).to_have_text("7 of 7 read · 1 unsure")
    expect(line).to_have_attribute("data-state", "whole")
    # whole and sure twice in a row: the scan is taken, and the review opens
    expect(admin.tid("scan-sheet")).to_be_visible(timeout=8000)
    expect(admin.tid("camera-sheet")).to_be_hidden()
    wait_photo(admin)
    time.sleep(2.0)
    assert len(scans.requests) == 1, "the scan was taken more than once"
    assert json.loads(scans.requests[0]["body"]) == {"player": "Ann"}
    asked = len(counts.requests)
    time.sleep(1.5)
    assert len(counts.requests) == asked, "the count went on after the scan"
    assert admin.errors == []
    admin.page.context.close()


def test_an_offered_card_of_the_wrong_suit_is_fixed_with_one_tap(
        server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    admin = _admin(browser, server)
    scan = chicago_scan({"limit": 5, "deadwood": 4, "legal": True, "melds": [],
                         "unmelded": [], "dropped": None})
    scan = {**scan, "cards": scan["cards"][:6], "hand": scan["hand"][:6], "knock": None,
            "maybe": [{"card": "8D", "confidence": 0.45, "box": [1200, 300, 1260, 500]},
                      {"card": "JK", "confidence": 0.4, "box": [40, 600, 100, 700]}]}
    FakeScans(admin, scan)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    offer = admin.tid("scan-offer-0")
    expect(offer).to_contain_text("8♦?")
    # the same rank in the other suits, the same colour first; none for a joker (the
    # server already keeps offers to cards the decks hold)
    alts = offer.locator(".scan-alt")
    expect(alts).to_have_count(3)
    assert [a.inner_text() for a in alts.all()] == ["8♥", "8♠", "8♣"]
    expect(admin.tid("scan-offer-1").locator(".scan-alt")).to_have_count(0)
    admin.tid("scan-maybe").scroll_into_view_if_needed()
    shot(admin, "scan-offer-alternatives-320.png")

    taps = 0
    admin.tid("scan-alt-0-8H").click()  # the real card is an 8♥ the reader doubted as 8♦
    taps += 1
    assert taps == 1
    expect(admin.tid("scan-chip-6")).to_have_attribute("data-card", "8H")
    expect(admin.tid("scan-offer-0")).to_have_count(0)
    expect(admin.tid("scan-count")).to_have_text(re.compile(r"^7 cards"))

    # a read card the players correct: the picker leads with its nearest cards
    admin.tid("scan-chip-3").locator(".scan-chip-main").click()  # the 4♣
    expect(admin.tid("scan-nearest-4S")).to_be_visible()
    nearest = admin.page.locator(".scan-nearest .scan-alt")
    # Chicago's two decks hold two of each: the 4♠ and 4♦ in this hand still have a copy
    assert [a.inner_text() for a in nearest.all()] == ["4♠", "4♥", "4♦"]
    shot(admin, "scan-picker-nearest-320.png")
    admin.tid("scan-nearest-4H").click()
    expect(admin.tid("scan-chip-3")).to_have_attribute("data-card", "4H")
    admin.tid("scan-confirm").click()
    expect(admin.tid("scan-sheet")).to_be_hidden()
    assert admin.errors == []
    admin.page.context.close()


@pytest.fixture(scope="module")
def camera_browser(browser: Any) -> Any:
    """Chromium with a fake camera that the page may use without asking."""
    args = [*CHROMIUM_ARGS, "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream"]
    b = browser.browser_type.launch(executable_path=str(CHROMIUM), args=args)
    yield b
    b.close()


def test_the_phones_viewfinder_counts_and_takes_the_photo_by_itself(
        server: Server, camera_browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    admin = open_phone(camera_browser, f"{server.url}/#token={TOKEN}", **NARROW,
                       permissions=["camera"])
    assert admin.page.evaluate("window.isSecureContext")  # localhost: a secure context
    counts = FakeCounts(admin, {"count": 6, "unsure": 0}, {"count": 7, "unsure": 0},
                        {"count": 7, "unsure": 0})
    scans = FakeScans(admin, chicago_scan({"limit": 5, "deadwood": 4, "legal": True,
                                           "melds": [], "unmelded": [], "dropped": None}))
    admin.tid("primary-btn").click()
    admin.tid("scan-photo-0").click()
    expect(admin.tid("finder-sheet")).to_be_visible()
    expect(admin.tid("live-count")).to_have_text("6 of 7 read", timeout=10_000)
    assert admin.tid("finder-video").evaluate("v => v.videoWidth") > 0
    shot(admin, "live-count-viewfinder-320.png")
    expect(admin.tid("scan-sheet")).to_be_visible(timeout=10_000)
    expect(admin.tid("finder-sheet")).to_be_hidden()
    assert all(r["method"] == "POST" and r["type"].startswith("multipart/form-data")
               for r in counts.requests)
    assert len(scans.requests) == 1 and scans.requests[0]["type"].startswith("multipart/")
    expect(admin.tid("scan-title")).to_have_text("Ann’s cards")
    live = admin.page.evaluate(
        "() => [...document.querySelectorAll('video')].some(v => v.srcObject?.active)")
    assert not live, "the camera stayed on after the photo"
    assert admin.errors == []
    admin.page.context.close()
