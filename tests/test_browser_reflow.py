"""Any screen, any text size: every screen at 320 px wide with the browser's text at 100 %,
130 % and 200 %, in English, Spanish and Portuguese, with 2 to 8 players of 40-character
names. Nothing cut short, off the screen, drawn over other text, smaller than a finger, and
the page never scrolls sideways (tests/reflow.py; WCAG 1.4.4 and 1.4.10).

Chromium here has only the fonts `.ci/run` installs (DejaVu, a wide sans-serif): a layout
that fits it fits the narrower Roboto, SF and Noto of the phones.
Run: `.venv/bin/python -m pytest tests/test_browser_reflow.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

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
from tests.test_browser_scan import LEGAL, SAMPLES, FakeScans, chicago_scan
from tests.test_browser_table import check_screen, settle, walk_screens

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 320, 640
SCALES = (1.0, 1.3, 2.0)
LANGS = ("en", "es", "pt")
# 40 characters each (the longest name the rules take), long words and short ones
NAMES = [
    "Annabelle Marguerite de la Fontaine-Ros",
    "Bartholomew Alexander Fitzgerald Jones",
    "Maximiliano Hernández-Villalobos Garcia",
    "Dorothea Lange Photographer of the West",
    "Evangeline Smith-Worthington the Third",
    "Fitzgerald Brown of the Emerald Isle Co",
    "Guinevere Llewellyn ap Gruffydd o Gymru",
    "Wolfeschlegelsteinhausenbergerdorffvoral",
]
assert all(len(n) <= 40 for n in NAMES)


def seven_card_hands(players: int) -> list[list[str]]:
    """Seven different cards for each player after the first (two decks: no card thrice)."""
    deck = [f"{r}{s}" for s in "SHDC" for r in ("K", "Q", "J", "10", "9", "8", "7", "6")]
    deck = [c for c in deck if c not in ANN_KNOCK] * 2
    return [deck[i * 7:(i + 1) * 7] for i in range(players - 1)]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, int]]]:
    """One server with a game of each shape the walks below need, one hand played in each."""
    with running(tmp_path_factory.mktemp("reflow") / "data", "--camera",
                 f"replay:{SAMPLES}") as srv:
        games: dict[str, int] = {}
        for players in (8, 2):
            names = NAMES[:players]
            gid = srv.api("POST", "/api/games", {"variant": "chicago", "players": names})["id"]
            hands = [ANN_KNOCK, *seven_card_hands(players)]
            srv.api("POST", f"/api/games/{gid}/hands", {"players": [
                {"name": n, "hand": hands[i], "knocked": i == 0} for i, n in enumerate(names)]})
            games[f"chicago{players}"] = gid
        gid = srv.api("POST", "/api/games", {"variant": "rummy500", "players": NAMES})["id"]
        srv.api("POST", f"/api/games/{gid}/hands", {"players": [
            {"name": n, "hand": [f"{i + 2}H"], "melds": []} for i, n in enumerate(NAMES)]})
        games["rummy500"] = gid
        yield srv, games


def phone_at(browser: Any, srv: Server, gid: int, lang: str, scale: float) -> Phone:
    phone = open_phone(browser, f"{srv.url}/?game={gid}#token={TOKEN}", WIDTH, HEIGHT,
                       locale=lang)
    phone.cdp = set_text_size(phone.page, scale)  # type: ignore[attr-defined]
    settle(phone)
    return phone


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scale", SCALES)
def test_every_screen_fits_320px_at_any_text_size(
    table: tuple[Server, dict[str, int]], browser: Any, lang: str, scale: float
) -> None:
    """Eight players with 40-character names in a Chicago game: every screen of the admin's
    phone, as test_browser_table walks them. axe runs at 200 % (the other sizes are the
    same page; the walks at 390 and 320 px run it at 100 %)."""
    srv, games = table
    phone = phone_at(browser, srv, games["chicago8"], lang, scale)
    FakeScans(phone, chicago_scan(LEGAL))
    problems: list[str] = []
    tag = f"{lang} {int(scale * 100)}%"
    walk_screens(phone, problems, tag, axe=scale == 2.0,
                 shots=f"reflow-{lang}-{int(scale * 100)}" if lang == "es" else None)
    assert phone.errors == []
    phone.page.context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("scale", SCALES)
def test_two_players_and_rummy500_with_eight_fit(
    table: tuple[Server, dict[str, int]], browser: Any, scale: float
) -> None:
    """The scoreboard and hands table of a two-player game, and Rummy 500's eight players
    with their melds' form, at each text size."""
    srv, games = table
    problems: list[str] = []
    for key in ("chicago2", "rummy500"):
        phone = phone_at(browser, srv, games[key], "pt", scale)
        check_screen(phone, f"{key} {scale}: scoreboard", problems, axe=False)
        phone.tid("primary-btn").click()
        settle(phone)
        enter_player(phone, 1, ["5S", "6S"])
        check_screen(phone, f"{key} {scale}: hand entry", problems, axe=False)
        if key == "rummy500":
            phone.tid("add-meld").click()
            check_screen(phone, f"{key} {scale}: a meld", problems, axe=False)
            shot(phone, f"reflow-rummy500-{int(scale * 100)}-entry.png")
        assert phone.errors == []
        phone.page.context.close()
    assert problems == [], "\n".join(problems)


def test_the_card_keys_fold_away_and_the_hands_table_keeps_whole_figures(
    table: tuple[Server, dict[str, int]], browser: Any
) -> None:
    """At 200 % text the card keys take at most a third of a 640 px screen and fold away;
    the hands table of eight long names heads its columns with short names, and scrolls in
    its own box rather than shrink its figures."""
    srv, games = table
    phone = phone_at(browser, srv, games["chicago8"], "en", 2.0)
    table_el = phone.tid("history-table")
    assert "short-heads" in (table_el.get_attribute("class") or "")
    heads = table_el.locator("th.hcol .th-short").all_inner_texts()
    assert heads == ["A", "B", "M", "D", "E", "F", "G", "W"]
    assert table_el.locator("th.hcol").first.get_attribute("title") == NAMES[0]
    assert phone.page.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    box = phone.page.evaluate("""() => { const b = document.querySelector('.table-fit');
        return [b.scrollWidth > b.clientWidth, getComputedStyle(b).overflowX]; }""")
    assert box == [True, "auto"]

    phone.tid("primary-btn").click()
    settle(phone)
    keys = phone.tid("card-picker").bounding_box()
    assert keys is not None and keys["height"] <= HEIGHT / 3 + 1
    expect(phone.tid("entry-tab-0")).to_contain_text("Annabelle")  # first names on tabs
    phone.tid("entry-fold").click()
    expect(phone.tid("card-picker")).to_be_hidden()
    expect(phone.tid("entry-fold")).to_have_attribute("aria-expanded", "false")
    assert reflow_problems(phone.page) == []
    shot(phone, "reflow-keys-folded-200.png")
    phone.tid("entry-fold").click()
    expect(phone.tid("card-picker")).to_be_visible()
    assert phone.errors == []
    phone.page.context.close()


def test_whole_names_head_the_table_when_they_fit(
    table: tuple[Server, dict[str, int]], browser: Any
) -> None:
    srv, _ = table
    gid = srv.api("POST", "/api/games", {"variant": "rummy", "players": ["Ann", "Bob", "Cy"]})["id"]
    srv.api("POST", f"/api/games/{gid}/hands", {"players": [
        {"name": "Ann", "hand": [], "went_out": True}, {"name": "Bob", "hand": ["KC"]},
        {"name": "Cy", "hand": ["QD"]}]})
    phone = phone_at(browser, srv, gid, "en", 1.3)
    table_el = phone.tid("history-table")
    assert "short-heads" not in (table_el.get_attribute("class") or "")
    assert table_el.locator("th.hcol .th-name").all_inner_texts() == ["Ann", "Bob", "Cy"]
    phone.page.context.close()
