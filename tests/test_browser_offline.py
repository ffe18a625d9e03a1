"""The page with no network, and the buzz or chime on a new hand.

Drives Debian's Chromium against the real server on 127.0.0.1, a secure context, so the
page's service worker runs. The network goes with Playwright's `set_offline`; another phone's
hand is saved through the API meanwhile. Screens are at 320 px, under test-artifacts/.
Run: `.venv/bin/python -m pytest tests/test_browser_offline.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import re
from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, server: fixtures)
    LIVE_S,
    TOKEN,
    Phone,
    Server,
    browser,
    enter_player,
    expect,
    open_phone,
    server,
    shot,
)

pytestmark = pytest.mark.browser

NARROW = 320
RUMMY = {"variant": "rummy", "players": ["Ann", "Bob"]}
ANN_OUT = {"players": [{"name": "Ann", "hand": [], "went_out": True},
                       {"name": "Bob", "hand": ["KC", "5D"]}]}  # 15 to Ann
OFFLINE = re.compile(r"Offline since \d{1,2}:\d{2}( [AP]M)? — showing the last scoreboard")

# Counts the signals instead of making them: navigator.vibrate and WebAudio's notes.
SIGNALS = """
  window.__buzz = 0;
  window.__notes = 0;
  navigator.vibrate = () => { window.__buzz += 1; return true; };
  class FakeAudio {
    constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
    resume() { return Promise.resolve(); }
    createGain() {
      const ramp = () => {};
      return { gain: { setValueAtTime: ramp, exponentialRampToValueAtTime: ramp },
               connect: (to) => to };
    }
    createOscillator() {
      return { frequency: {}, connect: (to) => to, start: () => { window.__notes += 1; },
               stop: () => {} };
    }
  }
  window.AudioContext = FakeAudio;
"""


def signals(phone: Phone) -> tuple[int, int]:
    """(buzzes, notes) the page made since the counters were last reset."""
    got = phone.page.evaluate("[window.__buzz, window.__notes]")
    return got[0], got[1]


def reset_signals(phone: Phone) -> None:
    phone.page.evaluate("window.__buzz = 0; window.__notes = 0")


def worker_ready(phone: Phone) -> None:
    """The page's service worker is installed (the shell kept) and runs the page."""
    phone.page.evaluate("""async () => {
      await navigator.serviceWorker.ready;
      while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 50));
    }""")


def test_a_load_with_no_network_shows_the_last_scoreboard_then_catches_up(
        server: Server, browser: Any) -> None:
    gid = server.api("POST", "/api/games", RUMMY)["id"]
    server.api("POST", f"/api/games/{gid}/hands", ANN_OUT)
    viewer = open_phone(browser, f"{server.url}/", width=NARROW, height=640)
    expect(viewer.tid("player-total-0")).to_have_text("15")
    worker_ready(viewer)
    assert viewer.page.evaluate("window.isSecureContext")

    viewer.page.context.set_offline(True)
    viewer.page.reload()  # the browser's own error page, were it not for the worker
    viewer.page.wait_for_selector("body.ready")
    expect(viewer.tid("offline-banner")).to_be_visible()
    expect(viewer.tid("offline-banner")).to_have_text(OFFLINE)
    expect(viewer.tid("player-total-0")).to_have_text("15")  # the last scoreboard
    expect(viewer.tid("hand-row-1")).to_be_visible()
    expect(viewer.tid("reconnecting")).to_be_hidden()  # one banner says it all
    shot(viewer, "offline-load-320.png")

    server.api("POST", f"/api/games/{gid}/hands", ANN_OUT)  # another phone, meanwhile
    viewer.page.wait_for_timeout(500)
    expect(viewer.tid("player-total-0")).to_have_text("15")  # still offline: nothing new

    viewer.page.context.set_offline(False)
    expect(viewer.tid("player-total-0")).to_have_text("30", timeout=8000)  # caught up
    expect(viewer.tid("offline-banner")).to_be_hidden()
    expect(viewer.tid("hand-row-2")).to_be_visible()
    # live again: the next hand comes by the stream
    server.api("POST", f"/api/games/{gid}/hands", ANN_OUT)
    expect(viewer.tid("player-total-0")).to_have_text("45", timeout=LIVE_S * 1000 + 1000)
    shot(viewer, "offline-caught-up-320.png")
    assert viewer.errors == []
    viewer.page.context.close()


def test_the_open_page_says_offline_at_once_and_keeps_the_preview(
        server: Server, browser: Any) -> None:
    gid = server.api("POST", "/api/games", RUMMY)["id"]
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", width=NARROW, height=640)
    viewer = open_phone(browser, f"{server.url}/", width=NARROW, height=640)
    admin.tid("primary-btn").click()
    enter_player(admin, 0, [], toggle="went_out")
    enter_player(admin, 1, ["KC"])
    expect(admin.tid("preview-points-0")).to_have_text("+10")

    for phone in (admin, viewer):
        phone.page.context.set_offline(True)
        # at once, not at the next save: the phone says its network is gone
        expect(phone.tid("offline-banner")).to_be_visible(timeout=1000)
        expect(phone.tid("offline-banner")).to_have_text(OFFLINE)
    # the sheet over the page says it too
    expect(admin.tid("entry-offline")).to_contain_text("Offline since")
    enter_player(admin, 1, ["5D"])  # asked of the server, which cannot be reached
    admin.tid("entry-fold").click()  # the keys folded away: the preview in sight
    expect(admin.tid("preview-stale")).to_be_visible()
    expect(admin.tid("preview-points-0")).to_have_text("+10")  # the last preview stays
    drafts = admin.page.evaluate(
        "Object.keys(localStorage).filter((k) => k.startsWith('scorekeeper.draft.'))")
    assert len(drafts) == 1  # the cards entered are kept on the phone
    expect(viewer.tid("player-row-0")).to_be_visible()  # the scoreboard stays too
    admin.tid("preview-stale").scroll_into_view_if_needed()
    shot(admin, "offline-preview-320.png")
    shot(viewer, "offline-open-320.png")

    server.api("POST", f"/api/games/{gid}/hands", ANN_OUT)  # another phone, meanwhile
    viewer.page.context.set_offline(False)
    expect(viewer.tid("player-total-0")).to_have_text("15", timeout=8000)
    expect(viewer.tid("offline-banner")).to_be_hidden()
    admin.page.context.set_offline(False)
    expect(admin.tid("entry-offline")).to_be_hidden(timeout=8000)
    expect(admin.tid("offline-banner")).to_be_hidden()
    for phone in (admin, viewer):
        assert phone.errors == []
        phone.page.context.close()


def test_a_new_hand_from_another_phone_buzzes_and_chimes_only_when_asked(
        server: Server, browser: Any) -> None:
    gid = server.api("POST", "/api/games", RUMMY)["id"]
    phones = []
    for url in (f"{server.url}/#token={TOKEN}", f"{server.url}/"):
        ctx_phone = open_phone(browser, url, width=NARROW, height=640)
        ctx_phone.page.add_init_script(SIGNALS)
        ctx_phone.page.reload()
        ctx_phone.page.wait_for_selector("body.ready")
        phones.append(ctx_phone)
    admin, viewer = phones

    # off by default: a new hand changes the board and nothing else
    server.api("POST", f"/api/games/{gid}/hands", ANN_OUT)
    expect(viewer.tid("player-total-0")).to_have_text("15", timeout=LIVE_S * 1000)
    viewer.page.wait_for_timeout(300)
    assert signals(viewer) == (0, 0)

    for phone in phones:
        phone.tid("games-btn").click()
        switch = phone.tid("nudge-switch")
        expect(switch).to_have_attribute("aria-checked", "false")
        expect(phone.tid("menu-sheet")).to_contain_text("Buzz or chime on a new hand")
        switch.click()
        expect(switch).to_have_attribute("aria-checked", "true")
        assert signals(phone) == (1, 2)  # turned on: once, so the player knows it
        shot(phone, f"nudge-menu-{'admin' if phone is admin else 'viewer'}-320.png")
        phone.tid("menu-close").click()
        reset_signals(phone)

    # another phone's hand: one buzz and one chime (two notes), on each phone that wants it
    server.api("POST", f"/api/games/{gid}/hands", ANN_OUT)
    for phone in phones:
        expect(phone.tid("player-total-0")).to_have_text("30", timeout=LIVE_S * 1000)
        phone.page.wait_for_timeout(300)
        assert signals(phone) == (1, 2)
        reset_signals(phone)

    # this phone's own hand: no news to it, but news to the other phone
    admin.tid("primary-btn").click()
    enter_player(admin, 0, [], toggle="went_out")
    enter_player(admin, 1, ["KC", "5D"])
    admin.tid("entry-save").click()
    for phone in phones:
        expect(phone.tid("player-total-0")).to_have_text("45", timeout=LIVE_S * 1000 + 1000)
    admin.page.wait_for_timeout(500)
    assert signals(admin) == (0, 0)
    assert signals(viewer) == (1, 2)

    # kept per phone: still on after a reload
    viewer.page.reload()
    viewer.page.wait_for_selector("body.ready")
    viewer.tid("games-btn").click()
    expect(viewer.tid("nudge-switch")).to_have_attribute("aria-checked", "true")
    for phone in phones:
        assert phone.errors == []
        phone.page.context.close()
