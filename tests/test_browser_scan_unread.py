"""A card the reader saw but could not read (the scan's `unread` boxes), in Debian's
Chromium: the review marks it on the photo, says "n cards here I cannot read", and the hand
is not confirmed until each is added or dismissed as no card.
Run: `.venv/bin/python -m pytest tests/test_browser_scan_unread.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, phones, server: fixtures)
    Phone,
    Server,
    browser,
    expect,
    open_phone,
    phones,
    reload,
    server,
    shot,
)
from tests.test_browser_scan import (
    LEGAL,
    PHOTO,
    SCAN_500,
    FakeScans,
    chicago_scan,
    chip_cards,
    wait_photo,
)

pytestmark = pytest.mark.browser


def add_at_mark(phone: Phone, suit: str, rank: str, key: int = 0) -> None:
    """Tap mark `key`'s "?" and pick the card there in the picker that opens."""
    phone.tid(f"scan-unread-label-{key}").locator("button").click()
    expect(phone.tid("scan-picker-title")).to_have_text("Add a card")
    phone.tid(f"scan-suit-{suit}").click()
    phone.tid(f"scan-rank-{rank}").click()


def test_a_card_seen_but_not_read_is_asked_for(server: Server,
                                                phones: tuple[Phone, Phone]) -> None:
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})
    reload(admin)
    scan = {**SCAN_500, "cards": [{**c, "card": "10C"} if i == 2 else c
                                  for i, c in enumerate(SCAN_500["cards"])],
            "melds": [["10H", "10D", "10C"]], "impossible": [],
            "unread": [{"box": [520, 680, 700, 900], "confidence": 0.9},
                       {"box": [80, 660, 240, 880], "confidence": 0.7},
                       {"box": "nowhere", "confidence": 0.6}]}  # no box: left out
    FakeScans(admin, scan)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    # marked on the photo, said in words, and the hand cannot be confirmed past them
    expect(admin.tid("scan-unread-box-0")).to_be_visible()
    expect(admin.tid("scan-unread-label-1")).to_have_text("?2")
    expect(admin.tid("scan-unread")).to_contain_text("2 cards here I cannot read: add them")
    expect(admin.tid("scan-unread").locator(".scan-chip")).to_have_count(2)
    expect(admin.tid("scan-confirm")).to_be_disabled()
    expect(admin.tid("scan-confirm-what")).to_have_text("2 cards to add first")
    expect(admin.tid("scan-legend").locator(".lg-unread")).to_have_text("can’t read")
    expect(admin.tid("scan-legend").locator(".lg-corner")).to_have_count(0)  # no corner mark
    assert admin.tid("scan-unread-box-0").evaluate(
        "el => getComputedStyle(el).borderTopStyle") == "dashed"  # a body: the whole box
    expect(admin.tid("scan-legend").locator(".lg-bad")).to_have_count(0)  # none impossible
    admin.tid("scan-unread").scroll_into_view_if_needed()
    shot(admin, "scan-unread.png")

    # its "?" opens the picker on that box; the card picked lies there, the mark answered
    add_at_mark(admin, "D", "7")
    expect(admin.tid("scan-box-6")).to_have_attribute("data-card", "7D")
    expect(admin.tid("scan-unread-box-0")).to_have_count(0)
    expect(admin.tid("scan-unread")).to_contain_text("1 card here I cannot read: add it")
    expect(admin.tid("scan-confirm")).to_be_disabled()

    # the other is no card: one tap dismisses it, and the hand can be confirmed
    admin.tid("scan-unread-no-1").click()
    expect(admin.tid("scan-unread")).to_be_hidden()
    expect(admin.tid("scan-unread-box-1")).to_have_count(0)
    expect(admin.tid("scan-confirm")).to_be_enabled()
    expect(admin.tid("scan-confirm-what")).to_have_text("1 meld + 4 in hand")
    # every mark answered: the legend no longer names one
    expect(admin.tid("scan-legend").locator(".lg-unread")).to_have_count(0)
    shot(admin, "scan-unread-answered.png")
    admin.tid("scan-confirm").click()
    assert chip_cards(admin.tid("zone-hand")) == sorted(["QS", "QD", "AS", "7D"])


def test_the_legend_names_only_the_marks_the_photo_shows(server: Server,
                                                        phones: tuple[Phone, Phone]) -> None:
    """"unsure" while a card is shown unsure, with the server's line; gone once none is."""
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})
    reload(admin)
    FakeScans(admin, {**SCAN_500, "sure_line": 0.9})
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    legend = admin.tid("scan-legend")
    expect(legend.locator(".lg-low")).to_have_text("unsure (under 90%)")
    expect(legend.locator(".lg-unread")).to_have_count(0)  # nothing unread in this scan
    admin.tid("scan-chip-remove-3").click()  # the Q♠, the one unsure card
    expect(legend.locator(".lg-low")).to_have_count(0)
    expect(legend.locator(".lg-ok")).to_be_visible()
    legend.scroll_into_view_if_needed()
    shot(admin, "scan-legend-all-sure.png")


def test_the_legend_names_impossible_only_while_a_card_is(server: Server,
                                                         phones: tuple[Phone, Phone]) -> None:
    """Two 10♥ from one deck: "impossible" in the legend; one taken away, no card is, and
    the legend no longer names it (as it already did for "unsure" and "can't read")."""
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})
    reload(admin)
    FakeScans(admin, SCAN_500)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    legend = admin.tid("scan-legend")
    expect(admin.tid("scan-box-2")).to_have_attribute("data-impossible", "true")
    expect(legend.locator(".lg-bad")).to_have_text("impossible")
    admin.tid("scan-chip-remove-2").click()  # the second 10♥
    expect(admin.tid("scan-box-0")).to_have_attribute("data-impossible", "false")
    expect(legend.locator(".lg-bad")).to_have_count(0)
    expect(legend.locator(".lg-low")).to_be_visible()  # the Q♠ is still unsure
    expect(legend.locator(".lg-ok")).to_be_visible()
    legend.scroll_into_view_if_needed()
    shot(admin, "scan-legend-none-impossible.png")


def test_a_card_without_the_servers_word_is_shown_unsure(server: Server,
                                                        phones: tuple[Phone, Phone]) -> None:
    """No `sure` and no `sure_line`: every read card is checked (the page keeps no line of
    its own, so a 99 % card is not sure by it), and the legend names no figure."""
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})
    reload(admin)
    bare = {k: v for k, v in SCAN_500.items() if k != "sure_line"}
    bare["cards"] = [{k: v for k, v in c.items() if k != "sure"} for c in SCAN_500["cards"]]
    FakeScans(admin, bare)
    admin.tid("primary-btn").click()
    admin.tid("scan-camera-0").click()
    wait_photo(admin)
    for i in range(6):
        expect(admin.tid(f"scan-box-{i}")).to_have_attribute("data-low", "true")
    expect(admin.tid("scan-count")).to_have_text("6 cards · 6 to check")
    expect(admin.tid("scan-legend").locator(".lg-low")).to_have_text("unsure")


LOST = {"box": [700, 560, 860, 760], "confidence": 0.9}


def test_the_knock_check_gives_no_verdict_while_a_card_is_unread(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    """Seven cards read and judged legal, and one more seen but not read: no verdict, the
    cards read, and the way on (the review, where the card is added)."""
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    reload(admin)
    FakeScans(admin, {**chicago_scan(LEGAL), "unread": [LOST]})
    admin.tid("primary-btn").click()
    admin.tid("knock-check-0").click()
    verdict = admin.tid("knock-verdict")
    expect(verdict).to_have_text("?1 card here I cannot read")
    expect(verdict).to_have_attribute("data-legal", "")
    expect(admin.page.locator("#knock-body")).to_contain_text("No verdict while a card is not read")
    expect(admin.tid("knock-numbers")).to_have_count(0)  # no deadwood beside no verdict
    expect(admin.tid("knock-melds")).to_have_count(0)
    shot(admin, "knock-unread.png")
    admin.tid("knock-review").click()
    expect(admin.tid("scan-unread")).to_contain_text("1 card here I cannot read: add it")
    expect(admin.tid("scan-confirm")).to_be_disabled()


def test_may_i_knock_says_a_card_is_not_read(server: Server, browser: Any) -> None:
    """The private check's photo answer with a card not read: said in words, no verdict,
    the photo and the two ways on (retake, or tap in the rest)."""
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    phone = open_phone(browser, f"{server.url}/")
    answer = {"player": "Ann", "limit": 9, "deadwood": 0, "legal": None, "melds": [],
              "unmelded": [], "dropped": None, "cards": chicago_scan(LEGAL)["hand"],
              "impossible": [], "rummy": False, "count": 7, "hand_size": 7, "missing": 0,
              "maybe": [], "unread": [LOST, LOST],
              "image": "data:image/jpeg;base64," + base64.b64encode(PHOTO.read_bytes()).decode()}

    def fulfil(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    phone.page.route("**/api/games/*/knock-check", fulfil)
    phone.tid("mayknock-btn").click()
    phone.tid("mayknock-file").set_input_files(str(PHOTO))
    verdict = phone.tid("mayknock-verdict")
    expect(verdict).to_have_text("?2 cards here I cannot read")
    expect(verdict).to_have_attribute("data-legal", "")
    expect(phone.page.locator("#mayknock-body")).to_contain_text(
        "No verdict while cards are not read")
    expect(phone.tid("mayknock-numbers")).to_have_count(0)
    expect(phone.tid("mayknock-partial")).to_be_visible()
    expect(phone.tid("mayknock-read").locator(".chip")).to_have_count(7)
    expect(phone.tid("mayknock-retake")).to_be_visible()
    phone.tid("mayknock-partial").scroll_into_view_if_needed()
    shot(phone, "mayknock-unread.png")
    phone.tid("mayknock-add").click()  # tap in the rest, from the seven read
    expect(phone.tid("mayknock-cards").locator(".chip")).to_have_count(7)
    assert phone.errors == []
    phone.page.context.close()
