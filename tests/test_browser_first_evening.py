"""A newcomer's first evening, on a 320 px phone: Share on a laptop's own address offers
the network address instead, a greyed "Check" says why, and a whole hand's points go in
with one tap and the keyboard."""
# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.test_browser import (  # noqa: F401  (browser, server: fixtures)
    ANN_KNOCK,
    TOKEN,
    Phone,
    Server,
    browser,
    expect,
    open_phone,
    server,
    shot,
)
from tests.test_browser_table import check_screen

pytestmark = pytest.mark.browser

NARROW = 320
# Counts the taps (clicks) the page sees, whatever their target, from the moment it is set.
COUNT_TAPS = ("() => { window.taps = 0; "
              "addEventListener('click', () => { window.taps += 1; }, true); }")


def test_share_on_a_loopback_address_offers_the_network_one(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
    # The test server listens on 127.0.0.1 only, so it has no network address: as a laptop
    # off the Wi-Fi, Share says so.
    phone = open_phone(browser, f"{server.url}/", NARROW)
    phone.tid("share-btn").click()
    expect(phone.tid("share-loopback")).to_contain_text("127.0.0.1")
    expect(phone.tid("share-loopback")).to_contain_text("other phones cannot open it")
    expect(phone.tid("share-no-lan")).to_contain_text("no network address yet")
    phone.tid("share-close").click()

    # A laptop on the Wi-Fi: the server's answer names its addresses, and the QR code and
    # the link carry the first instead of 127.0.0.1 (and never the admin token).
    lan = [f"http://192.168.1.20:{server.port}/", f"http://10.0.0.4:{server.port}/"]
    phone.page.route("**/api/addresses", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"urls": lan})))
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", NARROW)
    admin.page.route("**/api/addresses", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"urls": lan})))
    admin.tid("share-btn").click()
    expect(admin.tid("share-lan")).to_contain_text("same Wi-Fi")
    expect(admin.tid("share-url")).to_have_text(f"http://192.168.1.20:{server.port}/")
    assert TOKEN not in admin.tid("share-url").inner_text()
    assert "192.168.1.20" in admin.tid("share-qr").get_attribute("src")
    expect(admin.tid("share-address")).to_have_count(2)
    problems: list[str] = []
    check_screen(admin, "share on loopback", problems)
    assert problems == [], "\n".join(problems)
    shot(admin, "share-loopback-320.png")
    admin.tid("share-address").nth(1).click()
    expect(admin.tid("share-url")).to_have_text(f"http://10.0.0.4:{server.port}/")
    assert phone.errors == [] and admin.errors == []
    for ph in (phone, admin):
        ph.page.context.close()


def test_a_greyed_check_says_how_many_cards_are_missing(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    viewer = open_phone(browser, f"{server.url}/", NARROW)
    viewer.tid("mayknock-btn").click()
    viewer.tid("mayknock-tap").click()
    for card in ANN_KNOCK[:5]:
        viewer.tid(f"mk-suit-{card[-1]}").click()
        viewer.tid(f"mk-rank-{card[:-1]}").click()
    check = viewer.tid("mayknock-check")
    expect(check).to_be_disabled()
    expect(viewer.tid("mayknock-why")).to_have_text("A hand is 7 cards: tap in the 2 missing.")
    assert check.get_attribute("aria-describedby") == "mayknock-why"
    viewer.tid("mayknock-why").scroll_into_view_if_needed()
    shot(viewer, "mayknock-why-320.png")
    for card in ANN_KNOCK[5:]:
        viewer.tid(f"mk-suit-{card[-1]}").click()
        viewer.tid(f"mk-rank-{card[:-1]}").click()
    expect(check).to_be_enabled()
    expect(viewer.tid("mayknock-why")).to_have_count(0)
    assert viewer.errors == []
    viewer.page.context.close()


def test_a_whole_hand_of_points_in_three_taps(server: Server, browser: Any) -> None:
    """Four players' points: one tap on Points, the keyboard's Next from player to player,
    a tap on Knocked and one on Save (it took 13 taps, a tab, Points and a field each)."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": names})["id"]
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", NARROW)
    admin.tid("primary-btn").click()
    expect(admin.tid("entry-sheet")).to_be_visible()
    admin.page.evaluate(COUNT_TAPS)

    admin.tid("mode-points").click()
    for i, points in enumerate(["5", "23", "30", "12"]):
        expect(admin.page.locator(":focus")).to_have_attribute("id", f"points-held-{i}")
        admin.page.keyboard.type(points)
        admin.page.keyboard.press("Enter")  # the keypad's Next: the next player's field
    expect(admin.page.locator(":focus")).to_have_count(0)  # after the last, the keypad goes
    expect(admin.tid("entry-tab-3")).to_contain_text("points")
    expect(admin.tid("entry-sheet")).to_be_visible()  # Enter never saved the hand
    admin.tid("toggle-knocked").click()
    expect(admin.tid("preview-knock")).to_contain_text("Legal knock")
    shot(admin, "points-all-320.png")
    admin.tid("entry-save").click()
    expect(admin.tid("entry-sheet")).to_be_hidden()
    assert admin.page.evaluate("window.taps") == 3

    stored = server.api("GET", f"/api/games/{gid}")["hands"][0]["players"]
    assert [p.get("held") for p in stored] == [5, 23, 30, 12]
    assert stored[0]["knocked"] is True
    assert admin.errors == []
    admin.page.context.close()


def test_a_row_typed_into_and_emptied_goes_back_to_cards(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob", "Cy"]})
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", NARROW)
    admin.tid("primary-btn").click()
    admin.tid("mode-points").click()
    admin.tid("points-input-2").fill("9")
    expect(admin.tid("entry-tab-2")).to_contain_text("points")
    admin.tid("points-input-2").fill("")
    expect(admin.tid("entry-tab-2")).to_contain_text("0 cards")
    admin.tid("points-input-2").fill("-3")  # bad input: the server's refusal names it
    expect(admin.tid("preview-error")).to_be_visible()
    assert admin.errors == []
    admin.page.context.close()
