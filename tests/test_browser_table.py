"""The phone page at a real table: drafts, redo, players' words, dark mode, small screens.

Drives Debian's Chromium against the real server, like test_browser.py (whose fixtures
and helpers it uses). Run: `.venv/bin/python -m pytest tests/test_browser_table.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.reflow import reflow_problems

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, phones, server: fixtures)
    ANN_KNOCK,
    ARTIFACTS,
    BOB_HAND,
    TOKEN,
    Phone,
    Server,
    axe_problems,
    browser,
    enter_player,
    expect,
    open_phone,
    phones,
    reload,
    running,
    server,
    shot,
)
from tests.test_browser_scan import LEGAL, SAMPLES, FakeScans, chicago_scan

pytestmark = pytest.mark.browser

# Every visible control at least 44 × 44 px, none clipped (content cut by its own
# overflow) or off the right edge. Exempt: the player tabs' strip scrolls sideways by
# design (size still checked), and the labels drawn on the scan photo, whose every action
# the card list under the photo offers with full-size buttons (WCAG 2.5.8 "equivalent").
SMALL_OR_CLIPPED = """() => [...document.querySelectorAll(
    'button, a[href], input:not([type=file]), select, textarea, [role=button], [role=tab]')]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .filter((el) => !el.closest('.scan-photo-wrap'))
  .map((el) => {
    const r = el.getBoundingClientRect();
    const css = getComputedStyle(el);
    const typed = el.matches('input, textarea, select');  // a typing field scrolls its text
    const cuts = !typed && (/hidden|clip|auto|scroll/.test(css.overflowX + css.overflowY)
      || css.textOverflow === 'ellipsis');
    const scrolls = !!el.closest('.ptabs');
    return { id: el.dataset.testid || el.className || el.tagName, w: r.width, h: r.height,
      clipped: cuts
        && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1),
      off: !scrolls && (r.right > innerWidth + 1 || r.left < -1) };
  })
  .filter((x) => x.w < 43.5 || x.h < 43.5 || x.clipped || x.off)"""


def check_screen(phone: Phone, screen: str, problems: list[str], axe: bool = True) -> None:
    """axe's serious and critical findings, any small or clipped control, and any text cut
    short, off the screen or drawn over other text (tests/reflow.py), on this screen."""
    if axe:
        problems += [f"{screen}: {p}" for p in axe_problems(phone)]
    problems += [f"{screen}: small or clipped {x}" for x in phone.page.evaluate(SMALL_OR_CLIPPED)]
    problems += [f"{screen}: {p}" for p in reflow_problems(phone.page)]


def settle(phone: Phone) -> None:
    phone.page.wait_for_timeout(250)  # sheets slide in: measure them where they stop


def drafts(phone: Phone) -> list[str]:
    return phone.page.evaluate(
        "Object.keys(localStorage).filter((k) => k.startsWith('scorekeeper.draft.'))"
    )


def test_a_half_entered_hand_survives_a_reload(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    reload(admin)
    admin.tid("primary-btn").click()
    enter_player(admin, 0, ANN_KNOCK, toggle="knocked")
    enter_player(admin, 1, BOB_HAND[:3])
    expect(admin.tid("draft-notice")).to_be_hidden()
    assert len(drafts(admin)) == 1

    reload(admin)  # the tab was dropped: the form comes back by itself, cards and all
    expect(admin.tid("entry-sheet")).to_be_visible()
    expect(admin.tid("draft-notice")).to_contain_text("Restored the cards you were entering")
    expect(admin.tid("entry-tab-1")).to_have_attribute("aria-selected", "true")
    expect(admin.tid("zone-hand").locator(".chip")).to_have_count(3)
    admin.tid("entry-tab-0").click()
    expect(admin.tid("zone-hand").locator(".chip")).to_have_count(7)
    expect(admin.tid("toggle-knocked")).to_have_attribute("aria-pressed", "true")

    enter_player(admin, 1, BOB_HAND[3:])
    expect(admin.tid("draft-notice")).to_be_hidden()  # said once, gone with the next change
    expect(admin.tid("preview-knock")).to_contain_text("Legal knock")
    admin.tid("entry-save").click()
    expect(admin.tid("entry-sheet")).to_be_hidden()
    expect(admin.tid("hand-1-points-1")).to_contain_text("+60")
    assert drafts(admin) == []  # saved: the draft is gone
    reload(admin)
    expect(admin.tid("entry-sheet")).to_be_hidden()


def type_points(phone: Phone, index: int, points: str, toggle: str | None = None) -> None:
    phone.tid(f"entry-tab-{index}").click()
    phone.tid("mode-points").click()
    expect(phone.tid("mode-points")).to_have_attribute("aria-pressed", "true")
    expect(phone.tid("card-picker")).to_be_hidden()
    phone.tid("points-input").fill(points)
    if toggle:
        phone.tid(f"toggle-{toggle}").click()


def test_points_typed_instead_of_cards(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    gid = server.api("POST", "/api/games",
                     {"variant": "chicago", "players": ["Ann", "Bob", "Cy"]})["id"]
    reload(admin)
    admin.tid("primary-btn").click()
    type_points(admin, 0, "5", toggle="knocked")
    expect(admin.tid("entry-tab-0")).to_contain_text("points")
    type_points(admin, 1, "")
    expect(admin.tid("preview-error")).to_have_text("Type Bob’s points.")
    admin.tid("points-input").fill("23")
    enter_player(admin, 2, BOB_HAND)  # Cy's cards are tapped: both ways in one hand
    expect(admin.tid("preview-knock")).to_contain_text("Legal knock")
    expect(admin.tid("preview-knock")).to_contain_text("5")

    reload(admin)  # the typed points are kept on the phone like cards
    expect(admin.tid("draft-notice")).to_be_visible()
    admin.tid("entry-tab-2").click()
    expect(admin.tid("zone-hand").locator(".chip")).to_have_count(7)
    admin.tid("entry-tab-1").click()
    expect(admin.tid("points-input")).to_have_value("23")
    shot(admin, "entry-points-typed.png")
    admin.tid("entry-save").click()
    expect(admin.tid("entry-sheet")).to_be_hidden()

    expect(viewer.tid("hand-1-points-1")).to_contain_text("P")
    expect(viewer.tid("hand-1-points-1")).to_contain_text("+23")
    expect(viewer.tid("hand-1-points-2")).not_to_contain_text("P")
    expect(viewer.tid("history-legend")).to_contain_text("P entered as points")
    stored = server.api("GET", f"/api/games/{gid}")["hands"][0]["players"]
    assert [p.get("held") for p in stored] == [5, 23, None]
    assert [p["total"] for p in server.api("GET", f"/api/games/{gid}")["players"]] == [5, 23, 60]
    assert admin.errors == [] and viewer.errors == []


def test_a_draft_is_per_game_and_hand_and_can_be_dropped(
    server: Server, phones: tuple[Phone, Phone]
) -> None:
    admin, _ = phones
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    reload(admin)
    admin.tid("primary-btn").click()
    enter_player(admin, 0, ANN_KNOCK[:2])
    assert drafts(admin) == [f"scorekeeper.draft.{gid}.new-1"]
    # another phone saves hand 1 meanwhile: this draft was for hand 1, not for hand 2
    server.api("POST", f"/api/games/{gid}/hands", {"players": [
        {"name": "Ann", "hand": ANN_KNOCK, "knocked": True}, {"name": "Bob", "hand": BOB_HAND}]})
    reload(admin)
    expect(admin.tid("player-total-1")).to_have_text("60")
    expect(admin.tid("entry-sheet")).to_be_hidden()
    admin.tid("primary-btn").click()
    expect(admin.tid("draft-notice")).to_be_hidden()
    assert drafts(admin) == []

    enter_player(admin, 1, BOB_HAND[:2])
    reload(admin)
    expect(admin.tid("draft-notice")).to_be_visible()
    admin.tid("draft-discard").click()
    expect(admin.tid("zone-hand").locator(".chip")).to_have_count(0)
    assert drafts(admin) == []


def test_undo_then_redo_puts_the_hand_back(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    gid = server.api("POST", "/api/games", {"variant": "rummy500", "players": ["Ann", "Bob"]})["id"]
    hand = {"players": [
        {"name": "Ann", "hand": ["KD"],
         "melds": [["7S", "8S", "9S"], {"cards": ["AH"], "on": ["2H", "3H", "4H"]}]},
        {"name": "Bob", "hand": ["QC", "2D"]}]}
    server.api("POST", f"/api/games/{gid}/hands", hand)
    reload(admin)
    expect(admin.tid("player-total-0")).to_have_text("15")  # 24 + 1 (low ace) - 10
    admin.tid("undo-btn").click()
    admin.tid("ask-ok").click()
    expect(admin.tid("player-total-0")).to_have_text("0")
    expect(viewer.tid("player-total-0")).to_have_text("0")
    admin.tid("redo-btn").click()
    expect(admin.tid("toast")).to_contain_text("Hand 1 is back")
    expect(admin.tid("player-total-0")).to_have_text("15")
    expect(viewer.tid("player-total-0")).to_have_text("15")
    again = server.api("GET", f"/api/games/{gid}")["hands"][0]["players"]
    assert again[0]["melds"] == hand["players"][0]["melds"]


def test_messages_speak_the_players_words(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, _ = phones
    server.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
    reload(admin)
    admin.tid("primary-btn").click()
    enter_player(admin, 1, ["KC", "QD"])
    expect(admin.tid("preview-error")).to_have_text("Mark the player who went out.")
    admin.tid("entry-save").click()
    expect(admin.tid("entry-error")).to_have_text("Mark the player who went out.")
    expect(admin.tid("preview-error")).to_have_count(0)  # said once, not twice
    admin.tid("entry-close").click()
    admin.tid("ask-ok").click()

    admin.tid("games-btn").click()
    admin.tid("menu-settings").click()
    admin.tid("setting-target").fill("1.5")
    admin.tid("settings-save").click()
    expect(admin.tid("settings-error")).to_have_text("Target: must be a whole number.")
    admin.tid("setting-target").fill("0")
    admin.tid("settings-save").click()
    expect(admin.tid("settings-error")).to_have_text("Target: must be 1 or more.")
    words = admin.page.evaluate(
        "async () => { const m = await import('/static/messages.js');"
        " return [m.refusalText({code: 'settings_invalid', params: {variant: 'chicago',"
        "   problems: [{setting: 'knock_penalty', reason: 'whole'}]}}),"
        " m.refusalText({code: 'out_missing', params: {hand: 2}}),"
        " m.refusalText({code: 'no_knock', params: {player: 'Bob', variant: 'rummy10'}})]; }"
    )
    assert words == [
        "Knock penalty: must be a whole number.",
        "Hand 2: Mark the player who went out.",
        "Bob: nobody knocks in Rummy 10-card.",
    ]


THREE = ["Ann", "Bob", "Cy"]
CY_HAND = ["KH", "QH", "JH", "9S", "8S", "7S", "6S"]


def walk_screens(phone: Phone, problems: list[str], tag: str, axe: bool = True,
                 shots: str | None = None) -> None:
    """Every screen of an admin's phone in a Chicago game with one hand played; with `shots`,
    a screenshot of each screen named after it."""

    def look(phone: Phone, screen: str, problems: list[str]) -> None:
        check_screen(phone, screen, problems, axe)
        if shots:
            shot(phone, f"{shots}-{screen.removeprefix(tag).strip().replace(' ', '-')}.png")

    look(phone, f"{tag} scoreboard", problems)
    phone.tid("primary-btn").click()
    settle(phone)
    enter_player(phone, 0, ANN_KNOCK[:3])
    look(phone, f"{tag} hand entry", problems)
    phone.tid("mode-points").click()
    phone.tid("points-input").fill("7")
    look(phone, f"{tag} points typed", problems)
    phone.tid("mode-cards").click()
    phone.tid("knock-check-0").click()
    expect(phone.tid("knock-verdict")).to_have_attribute("data-legal", "true")
    look(phone, f"{tag} knock check", problems)
    phone.tid("knock-review").click()
    expect(phone.tid("scan-sheet")).to_be_visible()
    settle(phone)
    look(phone, f"{tag} scan review", problems)
    phone.tid("scan-confirm").click()
    phone.tid("entry-close").click()
    look(phone, f"{tag} discard question", problems)
    phone.tid("ask-ok").click()
    phone.tid("hand-row-1").click()
    settle(phone)
    look(phone, f"{tag} hand details", problems)
    phone.tid("hand-sheet").locator("[data-close]").first.click()
    phone.tid("games-btn").click()
    settle(phone)
    look(phone, f"{tag} games menu", problems)
    phone.tid("menu-settings").click()
    settle(phone)
    look(phone, f"{tag} rules", problems)
    phone.tid("settings-close").click()
    phone.tid("games-btn").click()
    phone.tid("menu-new-game").click()
    settle(phone)
    look(phone, f"{tag} new game", problems)
    phone.tid("newgame-close").click()
    phone.tid("games-btn").click()
    phone.tid("menu-camera").click()
    expect(phone.tid("camera-state")).to_have_attribute("data-state", re.compile("ok|none"))
    settle(phone)
    look(phone, f"{tag} camera", problems)
    phone.tid("camera-close").click()
    phone.tid("share-btn").click()
    settle(phone)
    look(phone, f"{tag} share", problems)
    phone.tid("share-close").click()


def test_every_screen_light_and_dark_passes_axe_and_fits(tmp_path: Path, browser: Any) -> None:
    """axe-core (from the npm lock) on every screen, light and dark, at 390 and 320 px wide."""
    with running(tmp_path / "data", "--camera", f"replay:{SAMPLES}") as srv:
        gid = srv.api("POST", "/api/games", {"variant": "chicago", "players": THREE})["id"]
        srv.api("POST", f"/api/games/{gid}/hands", {"players": [
            {"name": "Ann", "hand": ANN_KNOCK, "knocked": True},
            {"name": "Bob", "hand": BOB_HAND}, {"name": "Cy", "hand": CY_HAND}]})
        problems: list[str] = []
        for scheme, width in (("light", 390), ("dark", 390), ("dark", 320), ("light", 320)):
            phone = open_phone(browser, f"{srv.url}/#token={TOKEN}", width, color_scheme=scheme)
            FakeScans(phone, chicago_scan(LEGAL))
            dark = phone.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
            assert dark == (scheme == "dark")
            if scheme == "dark" and width == 390:
                shot(phone, "dark-scoreboard.png")
            walk_screens(phone, problems, f"{scheme} {width}px")
            if scheme == "dark" and width == 390:
                phone.tid("primary-btn").click()
                enter_player(phone, 0, ANN_KNOCK[:4])
                shot(phone, "dark-entry.png")
            assert phone.errors == []
            phone.page.context.close()
        assert problems == [], "\n".join(problems)


def test_the_theme_switch_overrides_the_phone(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
    phone = open_phone(browser, f"{server.url}/", 390, color_scheme="light")
    bg = "getComputedStyle(document.body).backgroundColor"
    light = phone.page.evaluate(bg)
    phone.tid("games-btn").click()
    expect(phone.tid("theme-auto")).to_have_attribute("aria-pressed", "true")
    phone.tid("theme-dark").click()
    expect(phone.tid("theme-dark")).to_have_attribute("aria-pressed", "true")
    dark = phone.page.evaluate(bg)
    assert dark != light
    reload(phone)
    assert phone.page.evaluate(bg) == dark  # kept on this phone
    phone.tid("games-btn").click()
    phone.tid("theme-auto").click()
    assert phone.page.evaluate(bg) == light
    phone.page.context.close()


LONG = ["Annabelle Marguerite", "Bartholomew Jones", "Cyrus the Great", "Dorothea Lange",
        "Evangeline Smith", "Fitzgerald Brown", "Guinevere Llewellyn", "Horatio Hornblower"]
CARDS = [["KC", "QD"], ["JS", "9H"], ["8H", "7C"], ["6D", "5S"], ["4H", "3C"], ["2D", "AS"]]


@pytest.mark.parametrize("width", [390, 320])
def test_six_and_eight_players_fit_without_scrolling_sideways(
    server: Server, browser: Any, width: int
) -> None:
    six = LONG[:6]
    gid = server.api("POST", "/api/games", {"variant": "rummy", "players": six})["id"]
    for out in range(3):
        server.api("POST", f"/api/games/{gid}/hands", {"players": [
            {"name": n, "hand": [] if i == out else CARDS[i], "went_out": i == out}
            for i, n in enumerate(six)]})
    phone = open_phone(browser, f"{server.url}/?game={gid}#token={TOKEN}", width)
    fits = """() => { const t = document.querySelector('[data-testid=history-table]');
        return [document.scrollingElement.scrollWidth <= innerWidth,
                t.getBoundingClientRect().right <= innerWidth,
                t.scrollWidth <= t.parentElement.clientWidth]; }"""
    expect(phone.tid("hand-3-points-2")).to_contain_text("+")
    assert phone.page.evaluate(fits) == [True, True, True]
    assert phone.tid("history-table").locator("th").nth(1).get_attribute("title") == LONG[0]
    expect(phone.tid("history-legend")).to_have_text(
        "R went out in one go (rummy) · O went out · Tap a hand for its cards.")
    expect(phone.tid("hand-3-points-2").locator(".hmark")).to_have_text("O")
    problems: list[str] = []
    check_screen(phone, f"six players {width}px", problems)
    assert problems == [], "\n".join(problems)
    if width == 390:
        phone.page.screenshot(path=str(ARTIFACTS / "six-players.png"), full_page=True)

    eight = server.api("POST", "/api/games", {"variant": "rummy500", "players": LONG})["id"]
    server.api("POST", f"/api/games/{eight}/hands", {"players": [
        {"name": n, "hand": CARDS[i % 6][:1] if i < 6 else [], "melds": []}
        for i, n in enumerate(LONG)]})
    phone.page.goto(f"{server.url}/?game={eight}")
    phone.page.wait_for_selector("body.ready")
    expect(phone.tid("hand-1-points-0")).to_contain_text("−10")
    assert phone.page.evaluate(fits) == [True, True, True]
    expect(phone.tid("history-legend")).to_have_text("Tap a hand for its cards.")
    assert phone.errors == []
    phone.page.context.close()


def test_viewers_see_when_the_tables_camera_is_lost(server: Server, browser: Any) -> None:
    server.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob"]})
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.route("**/api/camera", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body='{"state": "lost", "error": "no frame for 10 s", "since": "2026-01-01T00:00:00Z"}'))
    page.goto(f"{server.url}/")
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("camera-lost")).to_be_visible()
    expect(page.get_by_test_id("camera-lost")).to_contain_text("camera is lost")
    ctx.close()
    viewer = open_phone(browser, f"{server.url}/", 390)  # no camera configured: nothing is lost
    viewer.page.wait_for_timeout(500)
    expect(viewer.tid("camera-lost")).to_be_hidden()
    viewer.page.context.close()


def test_a_viewer_asks_may_i_knock_privately(server: Server, phones: tuple[Phone, Phone]) -> None:
    admin, viewer = phones
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})["id"]
    reload(viewer)
    before = server.api("GET", f"/api/games/{gid}")
    asked: list[str] = []
    admin.page.on("request", lambda r: asked.append(r.url) if "knock-check" in r.url else None)

    expect(admin.tid("mayknock-btn")).to_be_hidden()  # the admin has it in the menu
    problems: list[str] = []
    check_screen(viewer, "viewer scoreboard", problems)
    viewer.tid("mayknock-btn").click()
    expect(viewer.tid("mayknock-sheet")).to_be_visible()
    viewer.tid("mayknock-player").select_option("Bob")
    viewer.tid("mayknock-tap").click()
    for card in ANN_KNOCK:
        viewer.tid(f"mk-suit-{card[-1]}").click()
        viewer.tid(f"mk-rank-{card[:-1]}").click()
    viewer.tid("mayknock-check").click()
    verdict = viewer.tid("mayknock-verdict")
    expect(verdict).to_have_attribute("data-legal", "true")
    expect(verdict).to_have_text("✓Legal knock — 5 ≤ 9")
    expect(viewer.tid("mayknock-numbers")).to_contain_text("Your limit9")
    expect(viewer.tid("mayknock-melds").locator(".chips")).to_have_count(2)
    check_screen(viewer, "may I knock", problems)
    assert problems == [], "\n".join(problems)
    shot(viewer, "may-i-knock.png")

    viewer.tid("mayknock-chip-AH").click()  # one card less: 6 cards cannot be checked
    expect(viewer.tid("mayknock-check")).to_be_disabled()
    expect(verdict).to_have_count(0)

    # a photo of the hand: read by the real reader (or a clear word without one)
    viewer.tid("mayknock-file").set_input_files(str(SAMPLES / "sample-1-mat-a4.jpg"))
    answered = viewer.page.locator(
        "[data-testid=mayknock-verdict]:not(.busy), [data-testid=mayknock-error]")
    expect(answered).to_be_visible(timeout=30_000)
    if viewer.tid("mayknock-error").count():
        expect(viewer.tid("mayknock-error")).to_contain_text("card reader is not available")
    else:  # six cards on the sample mat: part of a hand gets no verdict, only what to do
        expect(verdict).to_have_attribute("data-legal", "")
        expect(verdict).to_have_text("?Read 6 of 7 cards")
        expect(viewer.tid("mayknock-read").locator(".chip")).to_have_count(6)
        expect(viewer.tid("mayknock-image")).to_be_visible()  # the photo, the cards marked
        check_screen(viewer, "may I knock, part of a hand", problems)
        assert problems == [], "\n".join(problems)
        shot(viewer, "may-i-knock-partial.png")
        viewer.tid("mayknock-add").click()  # tap in the rest, from the six read
        expect(viewer.tid("mayknock-cards").locator(".chip")).to_have_count(6)
        viewer.tid("mk-suit-C").click()
        viewer.tid("mk-rank-5").click()
        expect(viewer.tid("mayknock-check")).to_be_enabled()
    viewer.tid("mayknock-close").click()
    assert viewer.page.evaluate("localStorage.getItem('scorekeeper.me')") == "Bob"
    # nothing stored, nothing broadcast: the game and the admin's phone never heard of it
    assert server.api("GET", f"/api/games/{gid}") == before
    assert asked == []
    expect(admin.tid("history-empty")).to_be_visible()


# English left on a translated page: the English catalogue's words (cut at its {values})
# that no message of the page's language also holds, found in what the page shows.
ENGLISH_LEFT = """async (lang) => {
  const { CATALOGUES } = await import('/static/i18n.js');
  const pt = Object.values(CATALOGUES[lang]).join('\\n');
  const bits = new Set();
  for (const text of Object.values(CATALOGUES.en)) {
    for (const bit of text.split(/\\{\\w+\\}/)) {
      const b = bit.trim();
      if (b.length >= 6 && /[a-z]{3}/.test(b) && !pt.includes(b)) bits.add(b);
    }
  }
  const shown = document.body.innerText;
  return [...bits].filter((b) => shown.includes(b));
}"""


def english_left(phone: Phone, screen: str, problems: list[str], lang: str = "pt-BR") -> None:
    problems += [f"{screen}: English {b!r}" for b in phone.page.evaluate(ENGLISH_LEFT, lang)]


def chicago_after_one_hand(server: Server) -> int:
    """A three-player Chicago game with Ann's knock scored: every screen has something to say."""
    gid = server.api("POST", "/api/games", {"variant": "chicago", "players": THREE})["id"]
    server.api("POST", f"/api/games/{gid}/hands", {"players": [
        {"name": "Ann", "hand": ANN_KNOCK, "knocked": True},
        {"name": "Bob", "hand": BOB_HAND}, {"name": "Cy", "hand": CY_HAND}]})
    return gid


def test_the_page_speaks_portuguese(server: Server, browser: Any) -> None:
    chicago_after_one_hand(server)
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", 390, locale="pt-BR")
    problems: list[str] = []
    assert admin.page.evaluate("document.documentElement.lang") == "pt-BR"
    expect(admin.tid("game-title")).to_have_text("Rummy Chicago")
    expect(admin.tid("primary-btn")).to_have_text("+ Mão 2")
    expect(admin.tid("hand-count")).to_have_text("1 mão")
    expect(admin.tid("knock-limit").first).to_have_text("bate com ≤ 9")
    expect(admin.tid("history-legend")).to_have_text(
        "R rummy · B bateu · Toque em uma mão para ver as cartas.")
    english_left(admin, "placar", problems)
    check_screen(admin, "placar", problems)
    shot(admin, "portuguese.png")

    admin.tid("primary-btn").click()
    enter_player(admin, 0, ANN_KNOCK[:3])
    expect(admin.tid("zone-hint")).to_have_text("3 de 7 cartas")
    expect(admin.tid("rank-A")).to_contain_text("A")
    assert admin.tid("suit-H").get_attribute("aria-label") == "Copas"
    expect(admin.tid("preview-error")).to_have_text("Marque o jogador que bateu ou fez rummy.")
    english_left(admin, "mão", problems)
    shot(admin, "portuguese-entry.png")
    admin.tid("entry-close").click()
    expect(admin.tid("ask-ok")).to_have_text("Descartar")
    admin.tid("ask-ok").click()

    admin.tid("hand-row-1").click()
    expect(admin.tid("hand-sheet")).to_contain_text("Batida válida")
    english_left(admin, "detalhes", problems)
    admin.tid("hand-sheet").locator("[data-close]").first.click()
    admin.tid("games-btn").click()
    english_left(admin, "menu", problems)
    admin.tid("menu-new-game").click()
    expect(admin.tid("variant-rummy10")).to_contain_text("Rummy de 10 cartas")
    admin.tid("variant-chicago").click()
    expect(admin.tid("setting-knocker_tie")).to_contain_text("Sem multa")
    english_left(admin, "novo jogo", problems)
    check_screen(admin, "novo jogo", problems)
    admin.tid("newgame-close").click()
    assert problems == [], "\n".join(problems)

    # the switch overrides the phone's language, and is kept
    admin.tid("games-btn").click()
    with admin.page.expect_navigation():
        admin.tid("language").select_option("en")
    admin.page.wait_for_selector("body.ready")
    expect(admin.tid("primary-btn")).to_have_text("+ Hand 2")
    assert admin.page.evaluate("localStorage.getItem('scorekeeper.lang')") == "en"
    assert admin.errors == []
    admin.page.context.close()


def test_the_page_speaks_spanish(server: Server, browser: Any) -> None:
    chicago_after_one_hand(server)
    viewer = open_phone(browser, f"{server.url}/", 390, locale="es-MX")
    problems: list[str] = []
    expect(viewer.tid("game-title")).to_have_text("Rummy Chicago")
    expect(viewer.tid("mayknock-btn")).to_have_text("¿Puedo cerrar?")
    expect(viewer.tid("history-legend")).to_have_text(
        "R rummy · C cerró · Toca una mano para ver sus cartas.")
    english_left(viewer, "marcador", problems, "es")
    check_screen(viewer, "marcador", problems)
    viewer.tid("mayknock-btn").click()
    viewer.tid("mayknock-tap").click()
    expect(viewer.tid("mayknock-check")).to_have_text("Comprobar estas 0 cartas")
    english_left(viewer, "¿puedo cerrar?", problems, "es")
    assert problems == [], "\n".join(problems)
    shot(viewer, "spanish.png")
    assert viewer.errors == []
    viewer.page.context.close()
