"""Entering and checking a hand at 320 px, text at 100, 130 and 200 %, in the four languages:
the scores and the hands table, the hand form with its preview before Save, the knock check
(Chicago), the hand's details and Share with its QR code. Five players with long names,
one of a single word too long for any line. Nothing off the screen, no word split between
two lines, names included, and no sheet opened scrolled past its top (tests/reflow.py).

One phone a language; the text size changes on it, the page reloaded to lay out anew.
Screenshots at 200 % in Brazilian Portuguese (the longest words) go to test-artifacts/.
Run: `.venv/bin/python -m pytest tests/test_browser_reflow_hand.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.reflow import reflow_problems, set_text_size
from tests.test_browser import (  # noqa: F401  (browser: a fixture)
    ANN_KNOCK,
    TOKEN,
    Phone,
    Server,
    browser,
    enter_player,
    expect,
    open_phone,
    running,
    shot,
)
from tests.test_browser_reflow import seven_card_hands
from tests.test_browser_table import settle

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 320, 640
SCALES = (1.0, 1.3, 2.0)
LANGS = ("en", "es", "pt-PT", "pt-BR")  # the four catalogues (pt.js is Portugal's)
SHOTS = "pt-BR"  # the longest words: its screens at 200 % are kept to look at
NAMES = ["Maria da Conceição", "Maximiliano", "Guilhermina Albuquerque", "Bartholomew",
         "Wolfeschlegelsteinhausenbergerdorff"]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, int]]:
    """A Chicago game of the five, one hand played (the first knocked)."""
    with running(tmp_path_factory.mktemp("reflow-hand") / "data") as srv:
        gid = srv.api("POST", "/api/games", {"variant": "chicago", "players": NAMES})["id"]
        hands = [ANN_KNOCK, *seven_card_hands(len(NAMES))]
        srv.api("POST", f"/api/games/{gid}/hands", {"players": [
            {"name": n, "hand": hands[i], "knocked": i == 0} for i, n in enumerate(NAMES)]})
        yield srv, gid


def type_points(phone: Phone, index: int, points: str) -> None:
    phone.tid(f"entry-tab-{index}").click()
    phone.tid("mode-points").click()
    phone.tid("points-input").fill(points)


def walk_hand(phone: Phone, tag: str, problems: list[str], shots: bool) -> None:
    """Each screen of entering and checking a hand, measured where it opens."""

    def snap(screen: str, scroll_to: str | None = None) -> None:
        if shots:
            if scroll_to:  # shown from its top
                phone.page.locator(scroll_to).evaluate("(e) => e.scrollIntoView()")
            shot(phone, f"reflow-hand-{tag.replace(' ', '-').replace('%', '')}-{screen}.png")

    def look(screen: str, scroll_to: str | None = None) -> None:
        problems.extend(f"{tag} {screen}: {p}" for p in reflow_problems(phone.page))
        snap(screen, scroll_to)

    look("scores")  # the scores, the totals' chart and the hands table: one page
    snap("totals", "#chart-panel")
    snap("hands", "#history-panel")
    phone.page.evaluate("scrollTo(0, 0)")

    phone.tid("primary-btn").click()
    settle(phone)
    enter_player(phone, 0, ANN_KNOCK, toggle="knocked")
    look("entry")
    phone.tid("knock-check-0").click()
    expect(phone.tid("knock-verdict")).to_have_attribute("data-legal", "true")
    settle(phone)
    look("knock")
    phone.tid("knock-close").click()
    for i, points in enumerate(("31", "7", "52", "0")):
        type_points(phone, i + 1, points)
    expect(phone.tid("preview-total-4")).to_be_visible()
    look("preview", scroll_to=".preview")
    snap("preview-rows", ".pv-table")
    phone.tid("entry-close").click()
    phone.tid("ask-ok").click()  # the hand is not saved: the next size enters it again
    expect(phone.tid("entry-sheet")).to_be_hidden()

    phone.tid("hand-row-1").click()
    settle(phone)
    look("details")
    phone.tid("hand-sheet").locator("[data-close]").first.click()
    phone.tid("share-btn").click()
    settle(phone)
    look("share")
    phone.tid("share-close").click()


@pytest.mark.parametrize("lang", LANGS)
def test_entering_and_checking_a_hand_reflows_at_320px(
    game: tuple[Server, int], browser: Any, lang: str
) -> None:
    srv, gid = game
    phone = open_phone(browser, f"{srv.url}/?game={gid}#token={TOKEN}", WIDTH, HEIGHT,
                       locale=lang)
    cdp = set_text_size(phone.page, 1.0)
    problems: list[str] = []
    for scale in SCALES:
        size = round(16 * scale)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": size,
                                                     "fixed": round(13 * scale)}})
        phone.page.reload()
        phone.page.wait_for_selector("body.ready")
        assert phone.page.evaluate("getComputedStyle(document.documentElement).fontSize") \
            == f"{size}px"
        walk_hand(phone, f"{lang} {int(scale * 100)}%", problems,
                  shots=lang == SHOTS and scale == 2.0)
    assert phone.errors == []
    phone.page.context.close()
    assert problems == [], "\n".join(problems)


def test_the_preview_stacks_its_rows_only_when_its_columns_do_not_fit(
    game: tuple[Server, int], browser: Any
) -> None:
    """At 100 % the preview is a table (a name of one 40-letter word ends in "…" either way);
    at 200 % each player's figures go under the name, labelled, and a screen reader still
    reads a table: its column heads, a row a player. Share opens on its heading."""
    srv, gid = game
    phone = open_phone(browser, f"{srv.url}/?game={gid}#token={TOKEN}", WIDTH, HEIGHT,
                       locale="en")
    cdp = set_text_size(phone.page, 1.0)
    phone.tid("primary-btn").click()
    settle(phone)
    enter_player(phone, 0, ANN_KNOCK, toggle="knocked")
    for i, points in enumerate(("31", "7", "52", "0")):
        type_points(phone, i + 1, points)
    table = phone.page.locator(".pv-table")
    expect(phone.tid("preview-points-1")).to_have_text("+31")
    expect(table).not_to_have_class(re.compile("stacked"))
    names = table.locator(".pv-nm .whole-name")
    cut = "(e) => e.scrollWidth > e.clientWidth + 1"
    assert [names.nth(i).evaluate(cut) for i in range(len(NAMES))] == [False] * 4 + [True]
    assert names.nth(4).get_attribute("title") == NAMES[4]
    expect(phone.page.locator(".pv-k").first).to_be_hidden()

    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    phone.page.reload()  # the hand comes back as a draft, its preview laid out at 200 %
    phone.page.wait_for_selector("body.ready")
    expect(phone.tid("preview-points-1")).to_have_text("+31")
    expect(table).to_have_class(re.compile("stacked"))
    expect(phone.tid("preview-row-1").locator(".pv-k").nth(1)).to_have_text("Points")
    expect(phone.tid("preview-row-1").locator(".pv-k").nth(1)).to_be_visible()
    expect(table).to_match_aria_snapshot(
        "- table:\n"
        "  - rowgroup:\n"
        "    - row:\n"
        "      - columnheader \"Player\"\n"
        "      - columnheader \"Dead\"\n"
        "      - columnheader \"Points\"\n"
        "      - columnheader \"Total\"\n"
        "  - rowgroup:\n"
        "    - row\n"
        "    - row \"Maximiliano 31 +31 31\":\n"
        "      - cell \"Maximiliano\"\n"
        "      - cell \"31\"\n"
        "      - cell \"+31\"\n"
        "      - cell \"31\"\n")
    assert reflow_problems(phone.page) == []
    phone.tid("entry-close").click()
    phone.tid("ask-ok").click()

    phone.tid("share-btn").click()
    settle(phone)
    assert phone.page.evaluate("document.activeElement.dataset.i18n") == "share.title"
    assert phone.page.evaluate("document.querySelector('#share').scrollTop") == 0
    assert phone.errors == []
    phone.page.context.close()
