"""A card's corner seen but not read (an `unread` mark of kind "index"), as a player meets
it in Debian's Chromium: a fan of real-print cards where the reader reads seven cards and
boxes the J♠'s corner without naming it. The review marks it "?", says "1 card here I cannot
read", and Confirm waits until the card is added from the mark; the hand then scores and
reaches the other phone.

The first two tests route the scan to the reader's own answer for that photo
(`data/sure-fans-real-judge/images/000037.jpg`, 640 × 640) over a plain picture of the same
size, so the marks lie where they do on the real photo and no model is needed; the last
reads the photo itself with the real model through a replay camera, where the data set is
at hand (data/ is not in the repository).
Run: `.venv/bin/python -m pytest tests/test_browser_index_mark.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.reflow import reflow_problems, set_text_size
from tests.test_browser import (  # noqa: F401  (browser, phones, server: fixtures)
    LIVE_S,
    ROOT,
    TOKEN,
    Phone,
    Server,
    browser,
    expect,
    open_phone,
    phones,
    pick,
    reload,
    running,
    server,
    shot,
    totals,
)
from tests.test_browser_scan import SCAN_IMAGE, chip_cards, wait_photo
from tests.test_browser_scan_unread import add_at_mark

pytestmark = pytest.mark.browser

FAN = ROOT / "data" / "sure-fans-real-judge" / "images" / "000037.jpg"
CORNER = [273.5, 459.8, 327.5, 488.5]  # the J♠'s index, boxed and not read
CORNER_ATTR = ",".join(str(v) for v in CORNER)  # as the labels carry it (data-box)


def _card(card: str, conf: float, box: list[float]) -> dict[str, Any]:
    return {"card": card, "confidence": conf, "sure": True, "box": box}


# The scan answer the real server gave for FAN (one deck's K♥ twice: the fan holds two decks).
FAN_SCAN: dict[str, Any] = {
    "player": "Ann",
    "cards": [
        _card("JD", 1.0, [235.2, 180.3, 490.9, 390.9]),
        _card("9S", 0.996, [310.6, 511.5, 361.7, 547.4]),
        _card("JH", 0.992, [260.7, 437.7, 307.9, 461.1]),
        _card("KH", 0.99, [249.8, 406.4, 297.9, 428.3]),
        _card("JC", 0.987, [246.5, 377.9, 294.8, 402.5]),
        _card("KH", 0.987, [289.9, 492.6, 341.0, 526.0]),
        _card("AC", 0.982, [242.1, 346.4, 294.0, 372.3]),
    ],
    "melds": [["JD", "JC", "JH"]],
    "hand": ["AC", "KH", "KH", "9S"],
    "impossible": [],
    "image": SCAN_IMAGE,
    "knock": None,
    "ms": 304,
    "maybe": [],
    "sure_line": 0.9775,
    "unread": [{"box": CORNER, "confidence": 0.618, "kind": "index"}],
}


def plain_photo() -> bytes:
    """A 640 × 640 picture the colour of the mat: the photo's size, so the boxes and labels
    lie as they do on the real one."""
    ok, jpg = cv2.imencode(".jpg", np.full((640, 640, 3), (190, 225, 180), np.uint8))
    assert ok
    return jpg.tobytes()


def route_fan(phone: Phone, scan: dict[str, Any] = FAN_SCAN) -> None:
    """The scan answers `scan` (the fan by default) on the plain photo."""
    photo = plain_photo()
    phone.page.route("**/api/games/*/scan", lambda r: r.fulfill(
        status=201, content_type="application/json", body=json.dumps(scan)))
    phone.page.route(f"**{SCAN_IMAGE}", lambda r: r.fulfill(
        status=200, content_type="image/jpeg", body=photo))


def new_game(server: Server) -> int:
    return int(server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"],
                                                 "settings": {"decks": 2}})["id"])


def expect_corner_asked_for(phone: Phone) -> None:
    """The mark on the photo, the line under it, and Confirm held back by it."""
    label = phone.tid("scan-unread-label-0")
    expect(label).to_have_text("?")
    expect(label).to_be_visible()
    expect(label).to_have_attribute("data-box", CORNER_ATTR)
    expect(phone.tid("scan-unread-box-0")).to_have_count(1)
    expect(phone.tid("scan-unread")).to_contain_text("1 card here I cannot read: add it")
    expect(phone.tid("scan-count")).to_have_text("7 cards")
    expect(phone.tid("scan-confirm")).to_be_disabled()
    expect(phone.tid("scan-confirm-what")).to_have_text("1 card to add first")
    # a corner is marked apart from a card's body: brackets, not a dashed box, and its own
    # line in the legend (the body's "can’t read" only while a body mark is there)
    box = phone.tid("scan-unread-box-0")
    expect(box).to_have_class("scan-box unread corner")
    assert box.evaluate("el => getComputedStyle(el).borderTopStyle") == "none"
    expect(phone.tid("scan-legend").locator(".lg-corner")).to_have_text("corner can’t read")
    expect(phone.tid("scan-legend").locator(".lg-unread")).to_have_count(0)
    expect(phone.tid("scan-unread-label-0").locator("button")).to_have_attribute(
        "aria-label", "Add the card at corner mark 1")
    # the corner stays in sight: no label covers its box, and its "?" sits beside it
    corner = phone.tid("scan-unread-box-0").bounding_box()
    assert corner is not None
    for k in range(phone.page.locator(".scan-label").count()):
        other = phone.page.locator(".scan-label").nth(k).bounding_box()
        assert other is not None
        assert not (other["x"] < corner["x"] + corner["width"] - 1
                    and corner["x"] < other["x"] + other["width"] - 1
                    and other["y"] < corner["y"] + corner["height"] - 1
                    and corner["y"] < other["y"] + other["height"] - 1), (k, other, corner)
    mark = label.bounding_box()
    assert mark is not None
    assert abs(mark["y"] - corner["y"]) < corner["height"] + mark["height"]
    assert abs(mark["x"] - (corner["x"] + corner["width"])) < 2 * mark["width"] + 8


def test_a_corner_not_read_is_added_from_its_mark_and_scored(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    new_game(server)
    reload(admin)
    reload(viewer)
    route_fan(admin)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    expect_corner_asked_for(admin)
    shot(admin, "index-mark-390.png")

    # the "?" opens the picker on the corner; the J♠ picked lies there, the mark answered
    add_at_mark(admin, "S", "J")
    expect(admin.tid("scan-box-7")).to_have_attribute("data-card", "JS")
    expect(admin.tid("scan-label-7")).to_have_attribute("data-box", CORNER_ATTR)
    expect(admin.tid("scan-unread")).to_be_hidden()
    expect(admin.tid("scan-unread-box-0")).to_have_count(0)
    expect(admin.tid("scan-legend").locator(".lg-corner")).to_have_count(0)
    expect(admin.tid("scan-count")).to_have_text("8 cards")
    expect(admin.tid("scan-confirm")).to_be_enabled()
    expect(admin.tid("scan-confirm-what")).to_have_text("1 meld + 5 in hand")
    shot(admin, "index-mark-after-add.png")
    admin.tid("scan-confirm").click()
    assert chip_cards(admin.tid("zone-hand")) == sorted(["AC", "KH", "JS", "KH", "9S"])
    expect(admin.tid("entry-tab-0")).to_contain_text("8 cards")

    # Bob holds 2♣ 3♦; the hand saved reaches the viewer's phone
    admin.tid("entry-tab-1").click()
    pick(admin, ["2C", "3D"])
    admin.tid("entry-save").click()
    for ph in phones:  # Ann: 30 laid down, 15 + 10 + 10 + 10 + 9 in hand; Bob: 2 + 3
        expect(ph.tid("player-total-1")).to_have_text("−5", timeout=LIVE_S * 1000)
        assert totals(ph) == ["−24", "−5"]
    shot(viewer, "index-mark-viewer.png")
    game = server.api("GET", "/api/games")[0]
    ann = server.api("GET", f"/api/games/{game['id']}")["hands"][0]["players"][0]
    assert ann["melds"] == [["JD", "JC", "JH"]]
    assert sorted(ann["hand"]) == sorted(["AC", "KH", "JS", "KH", "9S"])


def test_the_corner_mark_fits_320px_at_200_percent_text(server: Server, browser: Any) -> None:
    gid = new_game(server)
    phone = open_phone(browser, f"{server.url}/?game={gid}#token={TOKEN}", 320, 640)
    phone.cdp = set_text_size(phone.page, 2.0)  # type: ignore[attr-defined]
    route_fan(phone)
    phone.tid("primary-btn").click()
    phone.tid("scan-camera-0").click()
    wait_photo(phone)
    expect_corner_asked_for(phone)
    # the "?" lies on the photo, whole
    photo = phone.tid("scan-photo").bounding_box()
    mark = phone.tid("scan-unread-label-0").bounding_box()
    assert photo is not None and mark is not None
    assert photo["x"] <= mark["x"] and mark["x"] + mark["width"] <= photo["x"] + photo["width"]
    assert photo["y"] <= mark["y"] and mark["y"] + mark["height"] <= photo["y"] + photo["height"]
    shot(phone, "index-mark-320-200.png")
    assert reflow_problems(phone.page) == []
    phone.tid("scan-unread").scroll_into_view_if_needed()
    shot(phone, "index-mark-320-200-list.png")
    assert reflow_problems(phone.page) == []
    # "Not a card" answers it too
    phone.tid("scan-unread-no-0").click()
    expect(phone.tid("scan-unread")).to_be_hidden()
    expect(phone.tid("scan-confirm")).to_be_enabled()
    assert phone.errors == []
    phone.page.context.close()


@pytest.mark.skipif(not FAN.is_file(), reason=f"{FAN} is not here (data/ is not in the repository)")
def test_the_real_reader_marks_the_jack_of_spades_corner(tmp_path: Path, browser: Any) -> None:
    """The real model on the real photo, through a replay camera: the same marks."""
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(FAN, camera / FAN.name)
    with running(tmp_path / "data", "--camera", f"replay:{camera}") as srv:
        new_game(srv)
        admin = open_phone(browser, f"{srv.url}/#token={TOKEN}")
        admin.tid("primary-btn").click()
        with admin.page.expect_response("**/api/games/*/scan", timeout=120_000) as answer:
            admin.tid("scan-camera-0").click()
        scan = answer.value.json()
        assert sorted(c["card"] for c in scan["cards"]) == sorted(
            c["card"] for c in FAN_SCAN["cards"])
        assert [(u["kind"], u["box"]) for u in scan["unread"]] == [("index", CORNER)]
        wait_photo(admin)
        expect_corner_asked_for(admin)
        shot(admin, "index-mark-real.png")
        add_at_mark(admin, "S", "J")
        expect(admin.tid("scan-confirm")).to_be_enabled()
        admin.tid("scan-confirm").click()
        assert chip_cards(admin.tid("zone-hand")) == sorted(["AC", "KH", "JS", "KH", "9S"])
        assert admin.errors == []
        admin.page.context.close()


# A ten-card fan read whole: the index corners in a tight arc across the middle of the photo.
TEN = ["AS", "3H", "5C", "7D", "9S", "JH", "QC", "KD", "2S", "4H"]
TEN_SCAN: dict[str, Any] = {
    **FAN_SCAN,
    "cards": [_card(card, 0.99, [150.0 + 32 * i, 250.0 + 2.5 * (i - 4.5) ** 2,
                                 198.0 + 32 * i, 278.0 + 2.5 * (i - 4.5) ** 2])
              for i, card in enumerate(TEN)],
    "melds": [], "hand": TEN, "unread": [],
}
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('.scan-label')].filter((el) => el.checkVisibility())
    .map((el) => [el.dataset.testid, el.getBoundingClientRect()]);
  const out = [];
  for (const [i, [a, p]] of boxes.entries()) {
    for (const [b, q] of boxes.slice(i + 1)) {
      if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5
          && q.top < p.bottom - 0.5) out.push(`${a} × ${b}`);
    }
  }
  return out;
}"""


def scan_ten(phone: Phone) -> None:
    route_fan(phone, TEN_SCAN)
    phone.tid("primary-btn").click()
    phone.tid("scan-camera-0").click()
    wait_photo(phone)
    expect(phone.tid("scan-label-9")).to_be_attached()


def test_ten_labels_at_320px_and_200_percent_text_cover_none_of_each_other(
        server: Server, browser: Any) -> None:
    """Ten labels cannot all sit whole on a 320 px photo at 200 % text: they go compact
    (the card's name, no ✕) and cover none of each other; the chips below keep every
    action (change and remove) for each card."""
    gid = new_game(server)
    phone = open_phone(browser, f"{server.url}/?game={gid}#token={TOKEN}", 320, 640)
    phone.cdp = set_text_size(phone.page, 2.0)  # type: ignore[attr-defined]
    try:
        scan_ten(phone)
        assert phone.page.evaluate(OVERLAPS) == []
        expect(phone.tid("scan-overlay")).to_have_class("scan-overlay compact")
        expect(phone.tid("scan-remove-0")).to_be_hidden()  # the ✕ is the chips' then
        shot(phone, "review-ten-labels-320-200.png")
        # every card is still changed and removed from its chip below the photo
        phone.tid("scan-chip-3").locator(".scan-chip-main").click()
        expect(phone.tid("scan-picker-title")).to_have_text("Change 7♦")
        phone.tid("scan-pick-cancel").click()
        expect(phone.tid("scan-picker")).to_be_hidden()
        for n in range(len(TEN)):
            expect(phone.tid(f"scan-chip-{n}").locator(".scan-chip-main")).to_be_visible()
            expect(phone.tid(f"scan-chip-remove-{n}")).to_be_visible()
        phone.tid("scan-chip-remove-0").click()
        expect(phone.tid("scan-chip-0")).to_have_count(0)
        expect(phone.tid("scan-label-0")).to_have_count(0)
        assert phone.page.evaluate(OVERLAPS) == []
        assert phone.errors == []
    finally:
        phone.page.context.close()


def test_ten_labels_that_fit_keep_their_whole_layout_at_390px(
        server: Server, browser: Any) -> None:
    """Where the labels fit (390 px, the default text size), each keeps its ✕."""
    gid = new_game(server)
    phone = open_phone(browser, f"{server.url}/?game={gid}#token={TOKEN}", 390, 844)
    try:
        scan_ten(phone)
        assert phone.page.evaluate(OVERLAPS) == []
        expect(phone.tid("scan-overlay")).to_have_class("scan-overlay")
        for n in range(len(TEN)):
            expect(phone.tid(f"scan-remove-{n}")).to_be_visible()
        shot(phone, "review-ten-labels-390.png")
        assert phone.errors == []
    finally:
        phone.page.context.close()
