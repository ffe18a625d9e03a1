"""Two admin phones on one hand, and a phone whose answer is lost: each hand saved once.

Drives Debian's Chromium against the real server, like test_browser.py (whose fixtures
these use).
"""
# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, server: fixtures)
    ANN_KNOCK,
    BOB_HAND,
    TOKEN,
    Phone,
    Server,
    axe_problems,
    browser,
    enter_player,
    expect,
    open_phone,
    server,
    shot,
)

pytestmark = pytest.mark.browser


def admin_phone(browser: Any, server: Server, **options: Any) -> Phone:
    return open_phone(browser, f"{server.url}/#token={TOKEN}", **options)


def enter_hand_one(phone: Phone, n: int = 1) -> None:
    phone.tid("primary-btn").click()
    expect(phone.tid("entry-title")).to_have_text(f"Hand {n}")
    enter_player(phone, 0, ANN_KNOCK, toggle="knocked")
    enter_player(phone, 1, BOB_HAND)
    expect(phone.tid("preview-points-1")).to_have_text("+60")


def drop_first_answer(phone: Phone, url: str, method: str) -> list[str]:
    """Let the first `method` request to `url` reach the server, then lose its answer (the
    Wi-Fi drops on the way back); the list gets the Idempotency-Key it carried."""
    dropped: list[str] = []

    def drop_answer(route: Any) -> None:
        if route.request.method == method and not dropped:
            route.fetch()  # reaches the server, which does the write
            dropped.append(route.request.headers.get("idempotency-key", ""))
            route.abort("connectionreset")
        else:
            route.continue_()

    phone.page.route(url, drop_answer)
    return dropped


def test_two_admin_phones_save_hand_one_once(server: Server, browser: Any) -> None:
    """Hand 1 open on two admin phones: the first saves; the second is told, keeps its
    cards, sees the saved hand, and enters them as a correction instead of a second hand."""
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    first, second = admin_phone(browser, server), admin_phone(browser, server)
    try:
        enter_hand_one(first)
        enter_hand_one(second)
        first.tid("entry-save").click()
        expect(first.tid("entry-sheet")).to_be_hidden()
        expect(second.tid("player-total-1")).to_have_text("60")  # live, under the sheet

        second.tid("entry-save").click()
        conflict = second.tid("entry-conflict")
        expect(conflict).to_be_visible()
        expect(conflict).to_contain_text("nothing was saved")
        expect(second.tid("conflict-changes")).to_have_text("Hand 1 was saved from another phone")
        expect(second.tid("conflict-saved")).to_contain_text("Bob+60")
        expect(second.tid("entry-sheet")).to_be_visible()
        expect(second.tid("zone-hand").locator(".chip")).to_have_count(7)  # cards kept
        assert len(server.api("GET", f"/api/games/{gid}")["hands"]) == 1
        assert axe_problems(second) == []
        shot(second, "two-admins-conflict.png")
        # the second phone's cards become a correction of hand 1 (Bob had a run of hearts)
        second.tid("conflict-correct").click()
        expect(second.tid("entry-title")).to_have_text("Correct hand 1")
        expect(second.tid("entry-conflict")).to_be_hidden()
        second.tid("entry-save").click()
        expect(second.tid("entry-sheet")).to_be_hidden()
        game = server.api("GET", f"/api/games/{gid}")
        assert len(game["hands"]) == 1 and game["seq"] == 2
        for phone in (first, second):
            expect(phone.tid("player-total-1")).to_have_text("60")
            assert phone.errors == [], phone.errors
    finally:
        for phone in (first, second):
            phone.page.context.close()


def test_the_notice_fits_a_small_screen_with_large_text(server: Server, browser: Any) -> None:
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    small = admin_phone(browser, server, width=320, height=640)
    try:
        small.page.add_style_tag(content="html { font-size: 130% !important; }")
        enter_hand_one(small)
        server.api("POST", f"/api/games/{gid}/hands", {"players": [
            {"name": "Ann", "hand": ["5H", "6H", "7H", "9C", "9D", "9S", "AC"], "knocked": True},
            {"name": "Bob", "hand": ["3C", "4C", "5C", "JD", "JS", "JH", "2D"]}]})
        small.tid("entry-save").click()
        expect(small.tid("entry-conflict")).to_be_visible()
        for testid in ("entry-conflict", "conflict-next", "conflict-correct"):
            box = small.tid(testid).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 320, (testid, box)
            overflow = small.tid(testid).evaluate("el => el.scrollWidth - el.clientWidth")
            assert overflow <= 0, (testid, overflow)
        shot(small, "two-admins-conflict-320.png")
        small.tid("conflict-next").click()  # the cards go on as hand 2
        expect(small.tid("entry-title")).to_have_text("Hand 2")
        small.tid("entry-save").click()
        expect(small.tid("entry-sheet")).to_be_hidden()
        assert len(server.api("GET", f"/api/games/{gid}")["hands"]) == 2
        assert small.errors == [], small.errors
    finally:
        small.page.context.close()


def test_a_save_whose_answer_is_lost_is_saved_once(server: Server, browser: Any) -> None:
    """The server commits the hand but the phone never hears back (Wi-Fi drops): the phone
    says so and keeps the cards; Save again gets the first answer, not a second hand."""
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    phone = admin_phone(browser, server)
    try:
        dropped = drop_first_answer(phone, f"**/api/games/{gid}/hands", "POST")
        enter_hand_one(phone)
        phone.tid("entry-save").click()
        # not "cannot reach": the hand may be saved, and Save again will not count it twice
        expect(phone.tid("entry-error")).to_have_text(
            "No answer from the scorekeeper: the hand may already be saved. Save again once "
            "the Wi-Fi is back — it will not be counted twice.")
        expect(phone.tid("entry-sheet")).to_be_visible()
        phone.tid("entry-error").scroll_into_view_if_needed()
        shot(phone, "lost-answer-save.png")
        assert dropped and dropped[0]  # the page sent its draft's key
        assert len(server.api("GET", f"/api/games/{gid}")["hands"]) == 1
        phone.tid("entry-save").click()  # the retry
        expect(phone.tid("entry-sheet")).to_be_hidden()
        expect(phone.tid("player-total-1")).to_have_text("60")
        game = server.api("GET", f"/api/games/{gid}")
        assert len(game["hands"]) == 1 and game["seq"] == 1
        assert phone.errors == [], phone.errors
    finally:
        phone.page.context.close()


def test_a_new_game_whose_answer_is_lost_is_created_once(server: Server, browser: Any) -> None:
    """Start game reaches the server but its answer is lost: the sheet says the scorekeeper
    could not be reached, and Start game again opens the game made, not a second one."""
    phone = admin_phone(browser, server)
    try:
        dropped = drop_first_answer(phone, "**/api/games", "POST")
        phone.tid("primary-btn").click()
        phone.tid("variant-rummy500").click()
        phone.tid("player-input-0").fill("Ann")
        phone.tid("player-input-1").fill("Bob")
        phone.tid("create-game").click()
        expect(phone.tid("newgame-error")).to_contain_text("Cannot reach the scorekeeper")
        assert dropped and dropped[0]  # the page sent a key for this game
        assert len(server.api("GET", "/api/games")) == 1
        phone.tid("create-game").click()  # the retry
        expect(phone.tid("newgame-sheet")).to_be_hidden()
        expect(phone.tid("player-row-1")).to_contain_text("Bob")
        assert len(server.api("GET", "/api/games")) == 1
        assert phone.errors == [], phone.errors
    finally:
        phone.page.context.close()


def test_a_correction_whose_answer_is_lost_is_not_called_another_phones(
        server: Server, browser: Any) -> None:
    """A correction reaches the server but its answer is lost: Save again gets the first
    answer, not "hand 1 was corrected from another phone" for this phone's own change."""
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    phone = admin_phone(browser, server)
    try:
        enter_hand_one(phone)
        phone.tid("entry-save").click()
        expect(phone.tid("entry-sheet")).to_be_hidden()
        dropped = drop_first_answer(phone, f"**/api/games/{gid}/hands/1", "PUT")
        phone.tid("hand-row-1").click()
        phone.tid("correct-hand").click()
        expect(phone.tid("entry-title")).to_have_text("Correct hand 1")
        phone.tid("entry-tab-1").click()
        phone.tid("zone-hand").locator(".chip").first.click()  # takes Bob's first card out
        phone.tid("suit-C").click()
        phone.tid("rank-2").click()
        phone.tid("entry-save").click()
        expect(phone.tid("entry-error")).to_contain_text("the hand may already be saved")
        assert dropped and dropped[0]  # the correction carried its draft's key
        assert server.api("GET", f"/api/games/{gid}")["seq"] == 2
        phone.tid("entry-save").click()  # the retry
        expect(phone.tid("entry-sheet")).to_be_hidden()
        expect(phone.tid("entry-conflict")).to_be_hidden()
        assert server.api("GET", f"/api/games/{gid}")["seq"] == 2
        assert phone.errors == [], phone.errors
    finally:
        phone.page.context.close()
