"""Ending a game (with its Undo), the dealer's badge, and a viewer following the table, on
two phones in Debian's Chromium against the real server (test_browser.py's fixtures).

Each screen is screenshotted under test-artifacts/, checked by axe, and fitted into a
320 px phone with the text at 200 %: nothing of it off screen or cut.
"""
# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.reflow import reflow_problems, set_text_size
from tests.test_browser import (  # noqa: F401  (browser, server, phones: fixtures)
    TOKEN,
    Phone,
    Server,
    axe_problems,
    browser,
    expect,
    open_phone,
    phones,
    reload,
    server,
    shot,
)

pytestmark = pytest.mark.browser
OUT = {"players": [{"name": "Ann", "hand": [], "went_out": True},
                   {"name": "Bob", "hand": ["3C", "KD"]}]}
LIVE_MS = 2000


def new_game(server: Server, variant: str = "rummy500", **extra: Any) -> int:
    body = {"variant": variant, "players": ["Ann", "Bob"], **extra}
    return int(server.api("POST", "/api/games", body)["id"])


def big_text(phone: Phone) -> Any:
    """The phone's text at 200 % (its setting, as tests/reflow.py sets it); keep the result."""
    return set_text_size(phone.page, 2.0)


def assert_fits(phone: Phone, *testids: str) -> None:
    """Each element, and all inside it, lies within the screen's width and shows its whole
    content (nothing scrolled away sideways or clipped)."""
    width = phone.page.viewport_size["width"]
    for testid in testids:
        found = phone.tid(testid).evaluate(
            """(el, width) => [el, ...el.querySelectorAll('*')].flatMap((e) => {
                 const r = e.getBoundingClientRect();
                 if (!r.width && !r.height) return [];
                 const bad = [];
                 if (r.left < -0.5 || r.right > width + 0.5)
                   bad.push(`off screen ${r.left}..${r.right}`);
                 const cut = getComputedStyle(e).overflowX !== 'visible';
                 if (cut && e.scrollWidth > e.clientWidth + 1)
                   bad.push(`clipped ${e.scrollWidth} > ${e.clientWidth}`);
                 return bad.map((b) => `${e.tagName}.${e.className} ${b}`);
               })""", width)
        assert found == [], (testid, found)
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= width


def small_controls(phone: Phone, testid: str) -> list[dict[str, Any]]:
    """The controls inside `testid` smaller than 44 × 44 px (test_browser_table's rule)."""
    found: list[dict[str, Any]] = phone.tid(testid).evaluate(
        """(root) => [...root.querySelectorAll('button, a[href], input, select, [role=button]')]
             .filter((el) => el.getClientRects().length)
             .map((el) => { const r = el.getBoundingClientRect();
                            return { id: el.dataset.testid || el.className, w: r.width,
                                     h: r.height }; })
             .filter((x) => x.w < 43.5 || x.h < 43.5)""")
    return found


def admin_on(browser: Any, server: Server, **options: Any) -> Phone:
    return open_phone(browser, f"{server.url}/#token={TOKEN}", **options)


def end_with(admin: Phone, choice: str) -> None:
    admin.tid("games-btn").click()
    admin.tid("menu-end-game").click()
    expect(admin.tid("choose-dialog")).to_be_visible()
    admin.tid(choice).click()
    expect(admin.tid("choose-dialog")).to_be_hidden()


def test_finish_and_delete_a_game_each_with_undo(server: Server,
                                                 phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    kept = new_game(server)
    gid = new_game(server)
    server.api("POST", f"/api/games/{gid}/hands", OUT)
    for phone in (admin, viewer):
        reload(phone)
        expect(phone.tid("hand-count")).to_contain_text("1")

    admin.tid("games-btn").click()
    admin.tid("menu-end-game").click()
    expect(admin.tid("end-finish")).to_have_text("Finish now: Ann wins")
    expect(admin.tid("end-abandon")).to_be_visible()
    assert axe_problems(admin) == []
    shot(admin, "end-game-choices.png")
    admin.tid("end-finish").click()
    expect(admin.tid("toast")).to_contain_text("Game finished")
    expect(admin.tid("gameover-label")).to_have_text("Finished")
    expect(admin.tid("winner")).to_contain_text("Ann wins")
    expect(viewer.tid("winner")).to_contain_text("Ann wins", timeout=LIVE_MS)  # live
    expect(admin.tid("primary-btn")).to_contain_text("New game")  # no more hands
    shot(admin, "end-game-finished-undo.png")
    assert axe_problems(admin) == []
    admin.tid("end-undo").click()
    expect(admin.tid("toast")).to_contain_text("Game reopened")
    expect(admin.tid("primary-btn")).to_have_text("+ Hand 2")
    expect(viewer.tid("game-over")).to_be_hidden(timeout=LIVE_MS)
    assert server.api("GET", f"/api/games/{gid}")["state"] == "in_play"

    end_with(admin, "end-delete")
    expect(admin.tid("toast")).to_contain_text("Game deleted")
    expect(admin.page.locator("body")).to_have_attribute("data-seq", "0")  # on the kept game
    assert [g["id"] for g in server.api("GET", "/api/games")] == [kept]
    shot(admin, "end-game-deleted-undo.png")
    admin.tid("end-undo").click()  # within the Undo's seconds
    expect(admin.tid("toast")).to_contain_text("Game reopened")
    expect(admin.tid("hand-count")).to_contain_text("1")  # back on it, its hand and all
    assert [g["id"] for g in server.api("GET", "/api/games")] == [gid, kept]

    end_with(admin, "end-abandon")
    admin.tid("games-btn").click()
    expect(admin.tid(f"state-{gid}")).to_have_text("abandoned")
    shot(admin, "end-game-list-states.png")
    assert axe_problems(admin) == []
    admin.tid("menu-close").click()
    expect(viewer.tid("gameover-label")).to_have_text("Abandoned", timeout=LIVE_MS)
    end_with(admin, "end-delete")  # an abandoned game deleted: the viewer leaves it too
    expect(viewer.page.locator("body")).to_have_attribute("data-seq", "0", timeout=8000)


def test_the_end_choices_fit_a_small_screen_with_large_text(server: Server,
                                                            browser: Any) -> None:
    gid = new_game(server)
    server.api("POST", f"/api/games/{gid}/hands", OUT)
    small = admin_on(browser, server, width=320, height=640)
    try:
        _size = big_text(small)  # (kept: the setting lasts as long as its session)
        small.tid("menu-btn").click()  # (the bottom bar's layout at 200 % is not this test's)
        small.tid("menu-end-game").click()
        expect(small.tid("choose-dialog")).to_be_visible()
        assert_fits(small, "choose-dialog")
        assert small_controls(small, "choose-dialog") == []
        assert reflow_problems(small.page) == []
        shot(small, "end-game-choices-320-200pct.png")
        small.tid("end-finish").click()
        expect(small.tid("gameover-reopen")).to_be_visible()
        assert_fits(small, "game-over")
        assert small_controls(small, "game-over") == []
        assert reflow_problems(small.page) == []
        shot(small, "end-game-finished-320-200pct.png")
        small.tid("gameover-reopen").click()  # an end is reopened later too
        expect(small.tid("game-over")).to_be_hidden()
        assert small.errors == [], small.errors
    finally:
        small.page.context.close()


def test_the_dealer_badge_moves_left_and_the_admin_corrects_it(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    admin.tid("empty-new-game").click()
    admin.tid("variant-rummy500").click()
    admin.tid("player-input-0").fill("Ann")
    admin.tid("player-input-1").fill("Bob")
    admin.tid("newgame-dealer").click()  # the list is read when it opens
    admin.tid("newgame-dealer").select_option(label="Bob")
    admin.tid("create-game").click()
    expect(admin.tid("player-row-1").get_by_test_id("dealer-badge")).to_be_visible()
    gid = server.api("GET", "/api/games")[0]["id"]
    assert server.api("GET", f"/api/games/{gid}")["dealer"] == "Bob"
    # (the viewer, open before the game existed, finds it by the list's poll, every 3 s)
    expect(viewer.tid("player-row-1").get_by_test_id("dealer-badge")).to_be_visible(
        timeout=15_000)
    shot(viewer, "dealer-badge-viewer.png")

    server.api("POST", f"/api/games/{gid}/hands", OUT)  # Bob dealt: Ann deals hand 2
    for phone in (admin, viewer):
        expect(phone.tid("player-row-0").get_by_test_id("dealer-badge")).to_be_visible(
            timeout=LIVE_MS)
        expect(phone.tid("dealer-badge")).to_have_count(1)
    server.api("DELETE", f"/api/games/{gid}/hands/last")  # undone: Bob deals again
    expect(viewer.tid("player-row-1").get_by_test_id("dealer-badge")).to_be_visible(
        timeout=LIVE_MS)

    expect(admin.tid("player-row-1").get_by_test_id("dealer-badge")).to_be_visible()
    admin.tid("dealer-badge").click()
    admin.tid("dealer-pick-0").click()
    expect(admin.tid("toast")).to_contain_text("Ann deals next")
    expect(viewer.tid("player-row-0").get_by_test_id("dealer-badge")).to_be_visible(
        timeout=LIVE_MS)
    shot(admin, "dealer-badge-admin.png")
    assert axe_problems(admin) == [] and axe_problems(viewer) == []


def test_the_dealer_badge_fits_a_small_screen_with_large_text(server: Server,
                                                              browser: Any) -> None:
    long = ["Maximiliana Fernández-Oliveira da Costa", "Bartholomew Montgomery-Smythe III"]
    server.api("POST", "/api/games", {"variant": "rummy500", "players": long, "dealer": long[1]})
    small = admin_on(browser, server, width=320, height=640)
    try:
        _size = big_text(small)  # (kept: the setting lasts as long as its session)
        expect(small.tid("dealer-badge")).to_be_visible()
        assert_fits(small, "dealer-badge")  # (the names' own cut is the scoreboard's layout)
        assert small_controls(small, "scoreboard") == []
        assert reflow_problems(small.page) == []
        row = small.tid("player-row-1").bounding_box()
        assert row and row["x"] >= 0 and row["x"] + row["width"] <= 320, row
        shot(small, "dealer-badge-320-200pct.png")
        assert small.errors == [], small.errors
    finally:
        small.page.context.close()


def test_a_viewer_is_told_where_the_table_went_and_may_follow(
        server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    one = new_game(server, "rummy", settings={"target": 1000})
    two = new_game(server)
    for phone in (admin, viewer):
        reload(phone)
        expect(phone.tid("game-title")).to_have_text("Rummy 500")
    expect(viewer.tid("table-notice")).to_be_hidden()

    admin.tid("games-btn").click()  # the admin opens the older game
    admin.tid(f"game-item-{one}").click()
    expect(admin.tid("game-title")).to_have_text("Rummy")
    notice = viewer.tid("table-notice")
    expect(notice).to_be_visible(timeout=LIVE_MS)
    expect(notice).to_contain_text("another game")
    expect(admin.tid("table-notice")).to_be_hidden()  # the admin's page is not told
    shot(viewer, "follow-notice-viewer.png")
    shot(admin, "follow-notice-admin.png")
    assert axe_problems(viewer) == []
    viewer.tid("table-notice-open").click()
    expect(viewer.tid("game-title")).to_have_text("Rummy")
    expect(notice).to_be_hidden()

    viewer.page.goto(f"{server.url}/?game={two}")  # a phone pinned to the other game
    viewer.page.wait_for_selector("body.ready")
    expect(viewer.tid("table-notice")).to_be_visible(timeout=LIVE_MS)  # told as it opens
    viewer.tid("table-notice-follow").click()  # from now on it follows by itself
    expect(viewer.tid("game-title")).to_have_text("Rummy")
    assert viewer.page.evaluate("localStorage.getItem('scorekeeper.follow')") == "1"
    admin.tid("games-btn").click()
    admin.tid(f"game-item-{two}").click()
    expect(viewer.tid("game-title")).to_have_text("Rummy 500", timeout=LIVE_MS)
    expect(viewer.tid("table-notice")).to_be_hidden()
    viewer.tid("games-btn").click()
    expect(viewer.tid("follow-table")).to_have_attribute("aria-checked", "true")
    assert small_controls(viewer, "menu-sheet") == [] and axe_problems(viewer) == []
    viewer.tid("follow-table").click()
    expect(viewer.tid("follow-table")).to_have_attribute("aria-checked", "false")
    assert viewer.page.evaluate("localStorage.getItem('scorekeeper.follow')") is None


def test_the_follow_notice_fits_a_small_screen_with_large_text(server: Server,
                                                               browser: Any) -> None:
    one, two = new_game(server), new_game(server)
    server.api("PUT", "/api/table", {"game": one})
    small = open_phone(browser, f"{server.url}/?game={two}", width=320, height=640,
                       locale="es-ES", color_scheme="dark")
    try:
        _size = big_text(small)  # (kept: the setting lasts as long as its session)
        expect(small.tid("table-notice")).to_be_visible(timeout=LIVE_MS)
        assert_fits(small, "table-notice")
        assert small_controls(small, "table-notice") == []
        assert reflow_problems(small.page) == []
        shot(small, "follow-notice-320-200pct-es-dark.png")
        assert axe_problems(small) == []
        assert small.errors == [], small.errors
    finally:
        small.page.context.close()
