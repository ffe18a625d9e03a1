"""Scanning cards from the phone page, in Debian's Chromium against the real server.

The review / correct / confirm flow runs on a fixed scan answer (the scan request is
routed by Playwright), so it does not depend on what a model reads; one test goes to the
real endpoint, which answers 201 with a model or a clear 503 without one.
Run: `.venv/bin/python -m pytest tests/test_browser_scan.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, phones, server: fixtures)
    LIVE_S,
    ROOT,
    TOKEN,
    Phone,
    Server,
    browser,
    enter_player,
    expect,
    open_phone,
    phones,
    reload,
    running,
    server,
    shot,
    totals,
)

pytestmark = pytest.mark.browser

SAMPLES = ROOT / "scorekeeper" / "camera" / "samples"
PHOTO = SAMPLES / "sample-1-mat-a4.jpg"  # 1280 × 960: three tens in melds, Q♠ Q♦ A♠ in hand
PHOTO_SIZE = (1280, 960)
SCAN_IMAGE = "/api/scans/fixture-scan.jpg"

# Rummy 500 as a reader might get sample 1 wrong: the 10♣ read as a second 10♥ (a deck
# has one: impossible), the Q♠ half hidden in the fan (low confidence: not sure). Each card
# carries the server's `sure`, and the answer its line, as every scan answer does.
SCAN_500: dict[str, Any] = {
    "player": "Ann",
    "cards": [
        {"card": "10H", "confidence": 0.98, "sure": True, "box": [247, 343, 474, 640]},
        {"card": "10D", "confidence": 0.96, "sure": True, "box": [388, 357, 612, 657]},
        {"card": "10H", "confidence": 0.91, "sure": True, "box": [530, 334, 737, 626]},
        {"card": "QS", "confidence": 0.62, "sure": False, "box": [812, 333, 872, 612]},
        {"card": "QD", "confidence": 0.95, "sure": True, "box": [866, 333, 930, 615]},
        {"card": "AS", "confidence": 0.99, "sure": True, "box": [928, 330, 1115, 610]},
    ],
    "sure_line": 0.8,
    "melds": [["10H", "10D", "10H"]],
    "hand": ["QS", "QD", "AS"],
    "impossible": ["10H"],
    "image": SCAN_IMAGE,
    "knock": None,
    "ms": 412,
}

CHICAGO_CARDS = ["AH", "2H", "3H", "4C", "4D", "4S", "5C"]


def chicago_scan(knock: dict[str, Any]) -> dict[str, Any]:
    boxes = [[80 + i * 160, 300, 220 + i * 160, 500] for i in range(len(CHICAGO_CARDS))]
    return {
        "player": "Ann",
        "cards": [
            {"card": c, "confidence": 0.95, "sure": True, "box": b}
            for c, b in zip(CHICAGO_CARDS, boxes, strict=True)
        ],
        "sure_line": 0.8,
        "melds": [["AH", "2H", "3H"], ["4C", "4D", "4S"]],
        "hand": CHICAGO_CARDS,
        "impossible": [],
        "image": SCAN_IMAGE,
        "knock": {"player": "Ann", **knock},
        "ms": 380,
    }


LEGAL = {
    "limit": 5,
    "deadwood": 4,
    "legal": True,
    "melds": [["AH", "2H", "3H"], ["4C", "4D", "4S"]],
    "unmelded": ["5C"],
    "dropped": None,
}
ILLEGAL = {
    "limit": 5,
    "deadwood": 12,
    "legal": False,
    "melds": [["AH", "2H", "3H"]],
    "unmelded": ["4C", "4D", "4S", "5C"],
    "dropped": None,
}


# ---- helpers ----------------------------------------------------------------------------


class FakeScans:
    """Answers the scan route with fixed JSON (in turn) and the photo with a sample file."""

    def __init__(self, phone: Phone, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, Any]] = []
        phone.page.route("**/api/games/*/scan", self._scan)
        phone.page.route(f"**{SCAN_IMAGE}", self._image)

    def _scan(self, route: Any) -> None:
        req = route.request
        self.requests.append(
            {
                "method": req.method,
                "type": req.headers.get("content-type", ""),
                "auth": req.headers.get("authorization", ""),
                "body": req.post_data,
            }
        )
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        route.fulfill(status=201, content_type="application/json", body=json.dumps(answer))

    def _image(self, route: Any) -> None:
        route.fulfill(status=200, content_type="image/jpeg", body=PHOTO.read_bytes())


def wait_photo(phone: Phone) -> None:
    phone.page.wait_for_function(
        "() => { const i = document.querySelector('[data-testid=scan-photo]');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )


def chip_cards(zone: Any) -> list[str]:
    testids = zone.locator(".chip").evaluate_all("els => els.map(e => e.dataset.testid)")
    return sorted(t.removeprefix("chip-") for t in testids)


def swipe_left(phone: Phone, locator: Any, px: int = 120) -> None:
    box = locator.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] * 0.35, box["y"] + box["height"] / 2
    mouse = phone.page.mouse
    mouse.move(x, y)
    mouse.down()
    for step in range(1, 9):
        mouse.move(x - px * step / 8, y)
    mouse.up()


# ---- tests ------------------------------------------------------------------------------


def test_review_correct_and_confirm_a_scan(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    gid = server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})["id"]
    for ph in phones:
        reload(ph)
    fake = FakeScans(admin, SCAN_500)
    expect(viewer.tid("scan-camera-0")).to_have_count(0)  # viewers never get the scan tools

    admin.tid("primary-btn").click()
    expect(admin.tid("entry-sheet")).to_be_visible()
    admin.tid("scan-camera-0").click()
    sheet = admin.tid("scan-sheet")
    expect(sheet).to_be_visible()
    assert fake.requests[0]["method"] == "POST"
    assert json.loads(fake.requests[0]["body"]) == {"player": "Ann"}
    assert fake.requests[0]["auth"] == f"Bearer {TOKEN}"
    wait_photo(admin)
    expect(admin.tid("scan-title")).to_have_text("Ann’s cards")
    expect(admin.page.locator("[data-testid^=scan-box-]")).to_have_count(6)

    # The boxes sit where the scan says, scaled to the photo as shown.
    photo = admin.tid("scan-photo").bounding_box()
    assert photo is not None and photo["width"] <= 390
    scale = photo["width"] / PHOTO_SIZE[0]
    assert abs(photo["height"] - PHOTO_SIZE[1] * scale) < 2
    for i, card in enumerate(SCAN_500["cards"]):
        x1, y1, x2, y2 = card["box"]
        b = admin.tid(f"scan-box-{i}").bounding_box()
        assert b is not None
        assert abs(b["x"] - (photo["x"] + x1 * scale)) < 2.5
        assert abs(b["y"] - (photo["y"] + y1 * scale)) < 2.5
        assert abs(b["width"] - (x2 - x1) * scale) < 2.5
        assert abs(b["height"] - (y2 - y1) * scale) < 2.5

    # Every card labelled; the unsure one and the impossible pair stand out.
    for i, card in enumerate(SCAN_500["cards"]):
        expect(admin.tid(f"scan-label-{i}")).to_have_attribute("data-card", card["card"])
    expect(admin.tid("scan-box-3")).to_have_attribute("data-low", "true")
    expect(admin.tid("scan-box-3")).to_have_css("border-top-style", "dashed")
    expect(admin.tid("scan-label-3")).to_contain_text("62%")
    expect(admin.tid("scan-chip-3")).to_have_attribute("data-low", "true")
    expect(admin.tid("scan-box-5")).to_have_attribute("data-low", "false")
    for i in (0, 2):
        expect(admin.tid(f"scan-box-{i}")).to_have_attribute("data-impossible", "true")
        expect(admin.tid(f"scan-chip-{i}")).to_have_attribute("data-impossible", "true")
    expect(admin.tid("scan-box-1")).to_have_attribute("data-impossible", "false")
    expect(admin.tid("scan-warning")).to_contain_text("10♥")
    expect(admin.tid("scan-confirm")).to_be_disabled()
    # Rummy 500: the meld in front and the cards in hand are separate groups.
    expect(admin.tid("scan-group-meld-0").locator(".scan-chip")).to_have_count(3)
    expect(admin.tid("scan-group-hand").locator(".scan-chip")).to_have_count(3)
    admin.tid("scan-sheet").locator(".sheet-scroll").evaluate("el => el.scrollTop = 0")
    shot(admin, "scan-review.png")

    # Change the misread card: tap its label, then suit and rank in the picker.
    admin.tid("scan-label-2").locator(".scan-label-main").click()
    expect(admin.tid("scan-picker")).to_be_visible()
    expect(admin.tid("scan-picker-title")).to_have_text("Change 10♥")
    expect(admin.tid("scan-box-2")).to_have_class("scan-box bad sel")
    admin.tid("scan-suit-C").click()
    admin.tid("scan-rank-10").click()
    expect(admin.tid("scan-picker")).to_be_hidden()
    expect(admin.tid("scan-box-2")).to_have_attribute("data-card", "10C")
    expect(admin.tid("scan-warning")).to_be_hidden()
    expect(admin.tid("scan-box-0")).to_have_attribute("data-impossible", "false")
    expect(admin.tid("scan-confirm")).to_be_enabled()

    # Add a missed card by tapping empty space on the photo: it goes where the tap was.
    ov = admin.tid("scan-overlay")
    at = (560, 800)  # natural pixels: the mat below the melds, no card there
    ov.click(position={"x": at[0] * scale, "y": at[1] * scale})
    expect(admin.tid("scan-picker-title")).to_have_text("Add a card")
    expect(admin.tid("scan-box-new")).to_be_visible()
    expect(admin.tid("scan-move-hand")).to_have_attribute("aria-checked", "true")
    shot(admin, "scan-picker.png")
    admin.tid("scan-suit-S").click()
    admin.tid("scan-rank-5").click()
    expect(admin.tid("scan-box-6")).to_have_attribute("data-card", "5S")
    nb = admin.tid("scan-box-6").bounding_box()
    assert nb is not None
    centre = (nb["x"] + nb["width"] / 2, nb["y"] + nb["height"] / 2)
    assert abs(centre[0] - (photo["x"] + at[0] * scale)) < 3
    assert abs(centre[1] - (photo["y"] + at[1] * scale)) < 3
    expect(admin.tid("scan-group-hand").get_by_test_id("scan-chip-6")).to_be_visible()

    # Remove: a card added by mistake with its chip's ✕, the ace by swiping its label left.
    admin.tid("scan-add").click()
    admin.tid("scan-suit-C").click()
    admin.tid("scan-rank-2").click()
    expect(admin.tid("scan-chip-7")).to_have_attribute("data-card", "2C")
    admin.tid("scan-chip-remove-7").click()
    expect(admin.tid("scan-chip-7")).to_have_count(0)
    swipe_left(admin, admin.tid("scan-label-5"))
    expect(admin.tid("scan-box-5")).to_have_count(0)
    expect(admin.tid("scan-chip-5")).to_have_count(0)
    expect(admin.tid("scan-picker")).to_be_hidden()  # a swipe is not a tap
    expect(admin.tid("scan-confirm-what")).to_have_text("1 meld + 3 in hand")

    admin.tid("scan-confirm").click()
    expect(admin.tid("scan-sheet")).to_be_hidden()
    assert chip_cards(admin.tid("zone-meld-0")) == sorted(["10H", "10D", "10C"])
    assert chip_cards(admin.tid("zone-hand")) == sorted(["QS", "QD", "5S"])
    expect(admin.tid("zone-meld-1")).to_have_count(0)
    expect(admin.tid("entry-tab-0")).to_contain_text("6 cards")
    # The live preview scores it: melds 30, in hand Q Q 5 = 25.
    expect(admin.tid("preview-points-0")).to_have_text("+5")

    enter_player(admin, 1, ["KC"])
    expect(admin.tid("preview-points-1")).to_have_text("−10")
    admin.tid("entry-save").click()
    expect(viewer.tid("player-total-0")).to_have_text("5", timeout=LIVE_S * 1000)
    assert totals(viewer) == ["5", "−10"]
    hand = server.api("GET", f"/api/games/{gid}")["hands"][0]["players"][0]
    assert hand["melds"] == [["10H", "10D", "10C"]]
    assert sorted(hand["hand"]) == sorted(["QS", "QD", "5S"])


def test_a_card_the_reader_was_unsure_of_is_added_with_one_tap(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})
    reload(admin)
    scan = {**SCAN_500, "cards": [{**c, "card": "10C"} if i == 2 else c
                                  for i, c in enumerate(SCAN_500["cards"])],
            "melds": [["10H", "10D", "10C"]], "impossible": [],
            "maybe": [{"card": "7D", "confidence": 0.41, "box": [560, 700, 640, 820]},
                      {"card": "KS", "confidence": 0.35, "box": [100, 700, 180, 820]},
                      {"card": "2H", "confidence": 0.3, "box": "nowhere"}]}  # no box: left out
    FakeScans(admin, scan)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    # offered on the photo and in their own row, counted nowhere
    expect(admin.tid("scan-maybe-0")).to_contain_text("7♦?")
    expect(admin.tid("scan-maybe-box-1")).to_be_visible()
    expect(admin.tid("scan-maybe")).to_be_visible()
    expect(admin.tid("scan-maybe").locator(".scan-chip")).to_have_count(2)
    expect(admin.tid("scan-count")).to_have_text("6 cards · 1 to check")
    expect(admin.tid("scan-confirm-what")).to_have_text("1 meld + 3 in hand")
    admin.tid("scan-maybe").scroll_into_view_if_needed()
    shot(admin, "scan-maybe.png")

    # one tap on the photo's label adds the 7♦ to the hand, where it lies
    admin.tid("scan-maybe-0").locator("button").click()
    expect(admin.tid("scan-maybe-0")).to_have_count(0)
    expect(admin.tid("scan-box-6")).to_have_attribute("data-card", "7D")
    expect(admin.tid("scan-group-hand").get_by_test_id("scan-chip-6")).to_be_visible()
    # the other from its chip; then nothing is left to offer
    admin.tid("scan-maybe-chip-1").locator("button").click()
    expect(admin.tid("scan-chip-7")).to_have_attribute("data-card", "KS")
    expect(admin.tid("scan-maybe")).to_be_hidden()
    expect(admin.tid("scan-confirm-what")).to_have_text("1 meld + 5 in hand")
    admin.tid("scan-confirm").click()
    assert chip_cards(admin.tid("zone-hand")) == sorted(["QS", "QD", "AS", "7D", "KS"])


def test_chicago_knock_check_verdict(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, _viewer = phones
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    reload(admin)
    fake = FakeScans(admin, chicago_scan(LEGAL), chicago_scan(ILLEGAL), chicago_scan(LEGAL))
    admin.tid("primary-btn").click()
    knock = admin.tid("knock-check-0")
    expect(knock).to_be_visible()
    box = knock.bounding_box()
    assert box is not None and box["height"] >= 56 and box["width"] >= 300  # large

    shot(admin, "scan-entry.png")
    knock.click()
    verdict = admin.tid("knock-verdict")
    expect(verdict).to_have_text("✓Legal knock — 4 ≤ 5")
    expect(verdict).to_have_attribute("data-legal", "true")
    expect(verdict).to_have_css("background-color", "rgb(21, 128, 61)")
    expect(admin.tid("knock-numbers")).to_contain_text("Limit5")
    expect(admin.tid("knock-melds").locator(".chips")).to_have_count(2)
    assert json.loads(fake.requests[0]["body"]) == {"player": "Ann"}
    shot(admin, "scan-knock.png")

    admin.tid("knock-retry").click()
    expect(verdict).to_have_text("✗Not legal — 12 > 5")
    expect(verdict).to_have_attribute("data-legal", "false")
    expect(verdict).to_have_css("background-color", "rgb(198, 40, 40)")
    expect(admin.tid("knock-melds").locator(".chips")).to_have_count(1)

    # A player at 100 (out at 101) may not knock at all.
    head = admin.page.evaluate(
        "async () => (await import('/static/knock.js')).knockVerdict("
        "{knock: {limit: 0, deadwood: 3, legal: false, melds: []}, hand: ['AH']}, 100).head"
    )
    assert head == "Not legal — may not knock at 100"

    # From the verdict to the review, then the cards into Ann's hand.
    admin.tid("knock-retry").click()
    expect(verdict).to_have_attribute("data-legal", "true")
    admin.tid("knock-review").click()
    expect(admin.tid("knock-dialog")).to_be_hidden()
    expect(admin.tid("scan-sheet")).to_be_visible()
    expect(admin.tid("scan-group-hand").locator(".scan-chip")).to_have_count(7)
    admin.tid("scan-confirm").click()
    assert chip_cards(admin.tid("zone-hand")) == sorted(CHICAGO_CARDS)
    # who asked "Knock?" and confirmed is the knocker: 8 cards are then a knocker's hand
    expect(admin.tid("toggle-knocked")).to_have_attribute("aria-pressed", "true")
    expect(admin.tid("entry-tab-0")).to_contain_text("knock")
    n = len(CHICAGO_CARDS)
    expect(admin.tid("zone-hint")).to_have_text(f"{n} of 7 or 8 cards")
    expect(admin.tid("zone-hint")).not_to_have_class(re.compile("warn"))


def test_a_whole_hand_read_with_too_many_cards_says_how_many_to_remove(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    """A Chicago hand is 7 cards, 8 for the one who ends it (the variant's record): a scan
    of 10 says so before it is confirmed, as a scan of too few does."""
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    reload(admin)
    extra = ["9S", "KD", "QC"]
    scan = chicago_scan(LEGAL)
    scan["cards"] += [{"card": c, "confidence": 0.95, "sure": True,
                       "box": [80 + i * 160, 560, 220 + i * 160, 760]}
                      for i, c in enumerate(extra)]
    scan["hand"], scan["knock"] = CHICAGO_CARDS + extra, None
    FakeScans(admin, scan)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    short = admin.tid("scan-short")
    expect(short).to_have_text("10 cards read; a hand holds at most 8: remove 2.")
    expect(short).to_have_attribute("data-kind", "over")
    admin.tid("scan-chip-remove-9").click()
    expect(short).to_have_text("9 cards read; a hand holds at most 8: remove 1.")
    admin.tid("scan-chip-remove-8").click()
    expect(short).to_be_hidden()  # 8: the knocker's hand with the card just drawn
    for card in (7, 6):
        admin.tid(f"scan-chip-remove-{card}").click()
    expect(short).to_have_text("A whole hand is 7 cards: 1 is missing.")


def test_real_scan_endpoint_without_camera(tmp_path: Path, browser: Any) -> None:
    with running(tmp_path / "data", "--camera", "none") as srv:
        srv.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
        admin = open_phone(browser, f"{srv.url}/#token={TOKEN}")
        admin.tid("primary-btn").click()

        # Camera scan: the server's reason, shown plainly; the form keeps working.
        admin.tid("scan-camera-0").click()
        expect(admin.tid("scan-error")).to_contain_text("This scorekeeper has no table camera.")
        expect(admin.tid("scan-error")).to_contain_text("Photo")
        expect(admin.tid("scan-sheet")).to_be_hidden()
        admin.tid("suit-H").click()
        admin.tid("rank-7").click()
        expect(admin.tid("zone-hand").locator(".chip")).to_have_count(1)

        # Knock? without a camera says the same in its dialog.
        admin.tid("knock-check-0").click()
        expect(admin.tid("knock-error")).to_contain_text("no table camera")
        admin.tid("knock-close").click()
        expect(admin.tid("knock-dialog")).to_be_hidden()

        # Photo upload (multipart, with the player): a review, or a clear 503.
        with admin.page.expect_response("**/api/games/*/scan", timeout=60_000) as answer:
            admin.tid("scan-file-0").set_input_files(str(PHOTO))
        response = answer.value
        request = response.request
        assert request.headers["content-type"].startswith("multipart/form-data")
        assert response.status in (201, 503), response.text()
        if response.status == 201:
            assert response.json()["player"] == "Ann"  # the form sent the player along
            expect(admin.tid("scan-sheet")).to_be_visible()
            wait_photo(admin)
            n = len(response.json()["cards"])
            chips = "#scan [data-testid^=scan-chip-]:not([data-testid*=remove])"
            expect(admin.page.locator(chips)).to_have_count(n)
            admin.tid("scan-close").click()
        else:
            assert "card reader unavailable" in response.json()["detail"]
            expect(admin.tid("scan-error")).to_contain_text("card reader is not available")
            expect(admin.tid("scan-error")).to_contain_text("tap the cards in")
        expect(admin.tid("zone-hand").locator(".chip")).to_have_count(1)

        # The camera panel says there is no camera, in the page's words (from the status's
        # reason code), not the server's English error meant for its log.
        admin.tid("scan-aim-0").click()
        expect(admin.tid("camera-state")).to_have_attribute("data-state", "none")
        expect(admin.tid("camera-state")).to_contain_text("No camera is set up")
        expect(admin.tid("camera-state")).not_to_contain_text("camera spec")
        # The server's placeholder picture (its English words drawn in) is not shown.
        expect(admin.tid("camera-snapshot")).to_have_attribute("data-frames", "1")
        expect(admin.tid("camera-snapshot")).to_be_hidden()
        admin.tid("camera-close").click()
        expect(admin.tid("entry-sheet")).to_be_visible()
        assert admin.errors == []
        admin.page.context.close()


def test_camera_panel_shows_the_live_picture(tmp_path: Path, browser: Any) -> None:
    with running(tmp_path / "data", "--camera", f"replay:{SAMPLES}") as srv:
        srv.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
        admin = open_phone(browser, f"{srv.url}/#token={TOKEN}")
        snaps: list[str] = []
        admin.page.on(
            "request", lambda r: snaps.append(r.url) if "/camera/snapshot" in r.url else None
        )

        admin.tid("menu-btn").click()
        admin.tid("menu-camera").click()
        expect(admin.tid("menu-sheet")).to_be_hidden()
        expect(admin.tid("camera-sheet")).to_be_visible()
        expect(admin.tid("camera-state")).to_have_attribute("data-state", "ok", timeout=10_000)
        expect(admin.tid("camera-state")).to_contain_text("Camera OK")
        img = admin.tid("camera-snapshot")
        # It refreshes about every second: a few new pictures in a few seconds.
        expect(img).to_have_attribute("data-frames", "3", timeout=8000)
        assert img.evaluate("el => el.complete && el.naturalWidth") > 0
        assert img.get_attribute("src").startswith("blob:")
        shot(admin, "camera-panel.png")

        admin.tid("camera-close").click()
        expect(admin.tid("camera-sheet")).to_be_hidden()
        time.sleep(0.3)  # a request already on its way may still land
        seen = len(snaps)
        time.sleep(2.2)
        assert len(snaps) == seen, "the panel kept refreshing after it closed"

        # From the hand form: the Aim button opens it with a scan button for the player.
        admin.tid("primary-btn").click()
        admin.tid("scan-aim-0").click()
        expect(admin.tid("camera-sheet")).to_be_visible()
        expect(admin.tid("camera-scan")).to_have_text("Scan Ann’s cards")
        admin.tid("camera-close").click()

        # A viewer has no camera panel (the snapshot is admin only).
        viewer = open_phone(browser, f"{srv.url}/")
        viewer.tid("menu-btn").click()
        expect(viewer.tid("game-list")).to_be_visible()
        expect(viewer.tid("menu-camera")).to_have_count(0)
        assert admin.errors == [] and viewer.errors == []
        for ph in (admin, viewer):
            ph.page.context.close()


def test_rummy_photo_scan_counts_only_the_hand(
    server: Server,
    phones: tuple[Phone, Phone],
) -> None:
    admin, _viewer = phones
    server.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
    reload(admin)
    read = json.loads(json.dumps(SCAN_500))
    read["cards"][2]["card"] = "10C"
    read["melds"], read["impossible"] = [["10H", "10D", "10C"]], []
    fake = FakeScans(admin, read)
    admin.tid("primary-btn").click()
    expect(admin.tid("knock-check-0")).to_have_count(0)  # Chicago only

    admin.tid("scan-file-0").set_input_files(str(PHOTO))
    expect(admin.tid("scan-sheet")).to_be_visible()
    assert fake.requests[0]["type"].startswith("multipart/form-data")
    expect(admin.tid("scan-sheet")).to_contain_text("from a photo")
    expect(admin.tid("scan-group-meld-0")).to_contain_text("Laid down 1")
    expect(admin.tid("scan-group-meld-0")).to_contain_text("not counted")
    expect(admin.tid("scan-warning")).to_be_hidden()
    expect(admin.tid("scan-rescan")).to_have_text("↻ New photo")
    admin.tid("scan-confirm").click()
    assert chip_cards(admin.tid("zone-hand")) == sorted(["QS", "QD", "AS"])
    expect(admin.tid("entry-tab-0")).to_contain_text("3 cards")

    # A big phone photo is scaled down before the upload.
    size = admin.page.evaluate(
        """async () => {
          const c = document.createElement('canvas');
          c.width = 4000; c.height = 3000;
          const g = c.getContext('2d');
          const px = g.createImageData(4000, 3000);
          for (let i = 0; i < px.data.length; i++) px.data[i] = (i * 2654435761) % 251;
          g.putImageData(px, 0, 0);
          const blob = await new Promise((r) => c.toBlob(r, 'image/jpeg', 0.95));
          const big = new File([blob], 'IMG_0001.JPG', { type: 'image/jpeg' });
          const small = await (await import('/static/photo-shrink.js')).shrinkPhoto(big);
          const bmp = await createImageBitmap(small);
          return [big.size, small.size, small.name, bmp.width, bmp.height];
        }"""
    )
    assert size[0] > 1_500_000 and size[1] < size[0]
    assert size[2:] == ["IMG_0001.jpg", 2048, 1536]


def test_the_review_marks_what_the_server_calls_unsure(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    """The server's `sure` decides which cards are dashed, whatever their figure, and the
    legend names its line (`sure_line`): the calibrated confidence, not a fixed 80 %."""
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})
    reload(admin)
    cards = [dict(c, sure=c["confidence"] >= 0.97) for c in SCAN_500["cards"]]
    cards[3]["sure"] = True  # 62 %, shown sure by the server's word
    FakeScans(admin, {**SCAN_500, "cards": cards, "sure_line": 0.97})
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    expect(admin.tid("scan-box-3")).to_have_attribute("data-low", "false")
    for i in (1, 2, 4):  # 96 %, 91 %, 95 %: under the line
        expect(admin.tid(f"scan-box-{i}")).to_have_attribute("data-low", "true")
    expect(admin.tid("scan-box-5")).to_have_attribute("data-low", "false")
    expect(admin.page.locator(".scan-legend .lg-low")).to_contain_text("97")
