"""The rules sheet on the page: each variant's rules in words and a hand worked out, in
English and another language, fitting 320 px at 200 % text (tests/reflow.py).

Run: `.venv/bin/python -m pytest tests/test_browser_rulesheet.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.reflow import reflow_problems, set_text_size
from tests.test_browser import (  # noqa: F401  (browser: a fixture)
    ARTIFACTS,
    Phone,
    Server,
    browser,
    expect,
    open_phone,
    running,
    shot,
)
from tests.test_browser_table import settle

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Ben"]
# Per variant: a hand to play first (None: the sheet shows its example), the other language,
# and what its sheet must say in English and in that language.
CASES = {
    "chicago": ({"players": [
        {"name": "Ana", "knocked": True, "hand": ["7H", "7S", "7D", "9C", "KC", "KS", "2C"]},
        {"name": "Ben", "hand": ["4H", "5H", "6H", "8S", "8D", "8C", "AD"]}]}, "es",
        ["Hand 1, worked out", "Ana knocked with 9 (limit 9).", "Ana: 24 points",
         "Knock penalty: +15", "For the hand: 9 + 15 = 24", "Twos are wild"],
        ["La mano 1, explicada", "Ana cerró con 9", "Multa por cerrar: +15"]),
    "rummy": (None, "pt-BR",
              ["Example hand", "Ana went out.", "From Ben’s hand: +27", "The first to 150",
               "7♣ 9♦ K♠ A♥ = 7 + 9 + 10 + 1 = 27"],
              ["Mão de exemplo", "Da mão de Ben: +27", "Nenhuma mão foi jogada ainda"]),
    "rummy10": (None, "pt-PT",
                ["Example hand", "once you have laid down a meld", "nobody scores"],
                ["Mão de exemplo", "Ainda não se jogou nenhuma mão"]),
    "rummy500": ({"players": [
        {"name": "Ana", "melds": [["AC", "2C", "3C"], ["9H", "9S", "9D"]], "hand": ["KD"]},
        {"name": "Ben", "hand": ["AS", "5D"]}]}, "es",
        ["Hand 1, worked out", "Melded: A♣ 2♣ 3♣ = 1 + 2 + 3 = 6", "Ana: 23 points",
         "In hand, taken off: A♠ 5♦ = 15 + 5 = 20", "Ben: −20 points",
         "Card values: A = 15 · 2–10 = as marked · J–K = 10 · joker = 15."],
        ["La mano 1, explicada", "Bajadas: A♣ 2♣ 3♣", "Ben: −20 puntos"]),
}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, int]]]:
    with running(tmp_path_factory.mktemp("rulesheet") / "data") as srv:
        ids: dict[str, int] = {}
        for variant, (hand, *_) in CASES.items():
            gid = srv.api("POST", "/api/games", {"variant": variant, "players": NAMES})["id"]
            if hand is not None:
                srv.api("POST", f"/api/games/{gid}/hands", hand)
            ids[variant] = gid
        yield srv, ids


def open_sheet(browser: Any, srv: Server, gid: int, lang: str, height: int,
               scale: float = 1.0) -> Phone:
    """A viewer's phone (no token: the sheet is as public as the game) on the rules sheet."""
    phone = open_phone(browser, f"{srv.url}/?game={gid}", 320, height, locale=lang)
    if scale != 1.0:
        phone.cdp = set_text_size(phone.page, scale)  # type: ignore[attr-defined]
    phone.tid("games-btn").click()
    phone.tid("menu-settings").click()
    expect(phone.tid("rulesheet")).to_have_attribute("data-ready", "1")
    settle(phone)
    return phone


@pytest.mark.parametrize("variant", list(CASES))
def test_the_sheet_explains_each_variant_in_two_languages(
        games: tuple[Server, dict[str, int]], browser: Any, variant: str) -> None:
    srv, ids = games
    _, other, english, words = CASES[variant]
    for lang, said in (("en", english), (other, words)):
        phone = open_sheet(browser, srv, ids[variant], lang, 2400)
        text = phone.tid("rulesheet").inner_text()
        for want in said:
            assert want in text, f"{variant} {lang}: {want!r} not in\n{text}"
        assert "rulesheet." not in text  # every statement has its words
        assert phone.tid("rulesheet-player").count() == 2
        ARTIFACTS.mkdir(exist_ok=True)
        phone.tid("rulesheet").screenshot(path=str(ARTIFACTS / f"rulesheet-{variant}-{lang}.png"))
        assert phone.errors == []
        phone.page.context.close()


@pytest.mark.parametrize("variant", ["chicago", "rummy500"])
@pytest.mark.parametrize("lang", ["en", "pt-BR"])
def test_the_sheet_fits_320px_at_200_percent_text(
        games: tuple[Server, dict[str, int]], browser: Any, variant: str, lang: str) -> None:
    """Scrolled part by part, nothing on the sheet is cut short, off the screen or drawn over
    other text, and the page never scrolls sideways."""
    srv, ids = games
    phone = open_sheet(browser, srv, ids[variant], lang, 640, scale=2.0)
    problems: list[str] = []
    heads = phone.page.locator(".rulesheet-head, .rulesheet-player")
    for i in range(heads.count()):
        heads.nth(i).scroll_into_view_if_needed()
        problems += [f"{variant} {lang} at {i}: {p}" for p in reflow_problems(phone.page)]
    assert phone.page.evaluate("document.scrollingElement.scrollWidth") <= 320
    shot(phone, f"rulesheet-{variant}-{lang}-200.png")
    assert phone.errors == []
    phone.page.context.close()
    assert problems == [], "\n".join(problems)
