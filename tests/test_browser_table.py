"""The phone page at a real table: drafts, redo, players' words, dark mode, small screens.

Drives Debian's Chromium against the real server, like test_browser.py (whose fixtures
and helpers it uses). Run: `.venv/bin/python -m pytest tests/test_browser_table.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

from pathlib import Path

import pytest

if not Path("/usr/bin/chromium").exists():
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed", allow_module_level=True)

from tests.test_browser import (  # noqa: F401  (browser, phones and server are fixtures)
    ANN_KNOCK,
    BOB_HAND,
    TOKEN,
    Phone,
    Server,
    browser,
    enter_player,
    expect,
    open_phone,
    phones,
    server,
    shot,
)

pytestmark = pytest.mark.browser


def reload(phone: Phone) -> None:
    phone.page.reload()
    phone.page.wait_for_selector("body.ready")


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
        " return [m.playerWords(\"setting knock_penalty=1.5: must be a whole number\", 'chicago'),"
        " m.playerWords(\"hand 2: no winner: one player must have 'went_out'\", 'rummy'),"
        " m.playerWords(\"Bob: nobody knocks in rummy10; use 'went_out'\", 'rummy10')]; }"
    )
    assert words == [
        "Knock penalty: must be a whole number",
        "Hand 2: no winner: mark the player who went out",
        "Bob: nobody knocks in Rummy 10-card; use went out",
    ]
