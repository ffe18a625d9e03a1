"""A table's TV view and the players' statistics, in Debian's Chromium against a real server.

The TV (/tv, no token) at 1920×1080 follows the table's game and updates live when a phone
saves a hand; at 1280×720, 1920×1080 and 3840×2160, dark and light, nothing is cut or off the
screen and names are as large as tv.css says. The statistics sheet fits 320 px at 200 % text.
Screenshots: test-artifacts/tv-*.png and stats-*.png.
Run: `.venv/bin/python -m pytest tests/test_browser_tv.py -m browser`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from tests.reflow import reflow_problems, set_text_size
from tests.test_browser import (  # noqa: F401  (browser and server are fixtures)
    ARTIFACTS,
    TOKEN,
    Phone,
    Server,
    axe_problems,
    browser,
    expect,
    open_phone,
    server,
    shot,
)

pytestmark = pytest.mark.browser

SCREENS = [(1280, 720), (1920, 1080), (3840, 2160)]
NAMES = ["Maria da Conceição Albuquerque Fernandes", "Bob", "Siobhán Ní Mhaoláin", "Dee"]
# Everything on the TV within its box and the screen; the names' size in px.
MEASURE = """() => {
  const problems = [];
  const h = innerHeight, w = innerWidth;
  for (const el of document.querySelectorAll('.tv-top *, .tv-main *, .tv-foot *')) {
    if (el.closest('[hidden]') || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
      problems.push(`cut: ${el.className} ${el.textContent.slice(0, 30)}`);
    if (r.right > w + 1 || r.bottom > h + 1 || r.left < -1 || r.top < -1)
      problems.push(`off screen: ${el.className} ${el.textContent.slice(0, 30)}`);
  }
  if (document.documentElement.scrollHeight > h + 1) problems.push('the page scrolls');
  const name = document.querySelector('.tv-row:not(.tv-head) .tv-name');
  return { problems, name: name ? parseFloat(getComputedStyle(name).fontSize) : 0 };
}"""


def tv(browser: Any, url: str, width: int, height: int) -> Phone:
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              device_scale_factor=1, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body.ready")
    return Phone(page, errors)


def rummy_hand(out: str, held: dict[str, int]) -> dict[str, Any]:
    return {"players": [{"name": out, "went_out": True, "hand": []},
                        *({"name": n, "held": v} for n, v in held.items())]}


def test_the_tv_follows_the_table_live_on_every_screen(server: Server, browser: Any) -> None:
    gid = server.api("POST", "/api/games", {"variant": "rummy", "players": NAMES,
                                            "settings": {"target": 500}})["id"]
    server.api("PUT", "/api/table", {"game": gid})
    server.api("POST", f"/api/games/{gid}/hands",
               rummy_hand(NAMES[1], {NAMES[0]: 20, NAMES[2]: 15, NAMES[3]: 7}))
    screen = tv(browser, f"{server.url}/tv", 1920, 1080)
    page = screen.page
    expect(screen.tid("tv-status")).to_have_text("Live")
    expect(screen.tid("tv-variant")).to_have_text("Rummy")
    expect(screen.tid("tv-goal")).to_have_text("Playing to 500")
    expect(screen.tid("tv-row-1")).to_have_class("tv-row lead")  # Bob leads with 42
    expect(screen.tid("tv-total-1")).to_have_text("42")
    # a phone saves the next hand: the TV shows it without a reload
    admin = open_phone(browser, f"{server.url}/?game={gid}#token={TOKEN}")
    server.api("POST", f"/api/games/{gid}/hands",
               rummy_hand(NAMES[0], {NAMES[1]: 30, NAMES[2]: 25, NAMES[3]: 40}))
    expect(screen.tid("tv-total-0")).to_have_text("95", timeout=3000)
    expect(screen.tid("tv-points-0")).to_have_text("+95")
    expect(screen.tid("tv-row-0")).to_have_class("tv-row lead")
    expect(screen.tid("tv-last")).to_have_text(f"Hand 2: {NAMES[0]} went out")
    expect(screen.tid("tv-hands")).to_have_text("2 hands")
    expect(screen.tid("tv-dealer")).to_contain_text("deals hand 3")
    assert page.locator(".tv-row:not(.tv-head)").count() == 4
    assert page.locator("button, input, select, a").count() == 0  # nothing to touch
    assert TOKEN not in page.content()
    got = page.evaluate(MEASURE)
    assert got["problems"] == [] and got["name"] >= 3.2 * 1080 / 45 - 0.5, got
    assert axe_problems(screen) == []
    shot(screen, "tv-1920x1080-dark.png")
    for width, height in SCREENS:
        for theme in ("dark", "light"):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{server.url}/tv?theme={theme}")
            page.wait_for_selector("body.ready")
            expect(screen.tid("tv-total-0")).to_have_text("95")
            got = page.evaluate(MEASURE)
            where = f"{width}×{height} {theme}"
            assert got["problems"] == [], (where, got)
            assert got["name"] >= 3.2 * height / 45 - 0.5, (where, got)
            if theme == "light":
                assert axe_problems(screen) == [], where
            if (width, theme) != (1920, "dark"):
                page.screenshot(path=str(ARTIFACTS / f"tv-{width}x{height}-{theme}.png"))
    # the game ends: the winner across the room
    server.api("POST", f"/api/games/{gid}/end", {"how": "finished"})
    expect(screen.tid("tv-result")).to_have_text(f"♛ {NAMES[0]} wins!")
    assert screen.errors == [] and admin.errors == []


def test_the_tv_says_when_no_game_is_played(server: Server, browser: Any) -> None:
    screen = tv(browser, f"{server.url}/tv?lang=es", 1280, 720)
    expect(screen.tid("tv-empty")).to_have_text("Todavía no se juega ninguna partida.")
    expect(screen.tid("tv-board")).to_be_hidden()
    assert screen.errors == []


def test_player_statistics_fit_320px_at_double_text(server: Server, browser: Any) -> None:
    for out in (NAMES[0], NAMES[1], NAMES[0]):
        gid = server.api("POST", "/api/games", {"variant": "rummy", "players": NAMES,
                                                "settings": {"target": 50}})["id"]
        server.api("POST", f"/api/games/{gid}/hands",
                   rummy_hand(out, {n: 20 for n in NAMES if n != out}))
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": NAMES[:2]})["id"]
    server.api("POST", f"/api/games/{gid}/hands", {"players": [
        {"name": NAMES[0], "held": 4, "knocked": True}, {"name": NAMES[1], "held": 2}]})
    server.api("POST", f"/api/games/{gid}/end", {"how": "finished"})
    phone = open_phone(browser, f"{server.url}/", 320, 640)
    cdp = set_text_size(phone.page, 2.0)
    phone.tid("games-btn").click()
    phone.tid("menu-stats").click()
    expect(phone.tid("stats-variant-rummy")).to_be_visible()
    first = phone.tid("stats-rummy-0")
    expect(first).to_contain_text(NAMES[0])
    expect(first).to_contain_text("Win rate")
    expect(first).to_contain_text("67%")
    expect(phone.tid("stats-variant-chicago")).to_contain_text("Knocks undercut")
    assert reflow_problems(phone.page) == []
    shot(phone, "stats-320-200.png")
    phone.tid("stats-variant-chicago").scroll_into_view_if_needed()
    assert reflow_problems(phone.page) == []
    shot(phone, "stats-320-200-chicago.png")
    assert axe_problems(phone) == []
    assert phone.errors == [] and cdp is not None


def test_show_on_a_tv_gives_a_link_without_the_token(server: Server, browser: Any) -> None:
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}")
    admin.tid("games-btn").click()
    admin.tid("menu-tv").click()
    url = admin.tid("tvlink-url").inner_text()
    assert url.endswith("/tv") and TOKEN not in url
    expect(admin.tid("tvlink-qr")).to_be_visible()
    shot(admin, "tv-link.png")
    assert admin.errors == []
