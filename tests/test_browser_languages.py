"""The page in the phone's own Portuguese: the language its list of languages names, and
every word of the camera view in it, the words shown while the picture comes included.

Drives Debian's Chromium against the real server, like test_browser.py (whose fixtures
and helpers it uses). Run: `.venv/bin/python -m pytest tests/test_browser_languages.py`.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.reflow import reflow_problems, set_text_size

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser: a fixture)
    TOKEN,
    Phone,
    Server,
    browser,
    expect,
    open_phone,
    running,
    shot,
)
from tests.test_browser_table import chicago_after_one_hand, english_left

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parent.parent / "scorekeeper" / "camera" / "samples"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server with a (replay) camera: with none the page hides the camera view, words and all."""
    with running(tmp_path / "data", "--camera", f"replay:{SAMPLES}") as srv:
        yield srv

# the phone's languages, in its order → the page's language and words it must show
PORTUGUESE = {
    "pt-PT": (["pt-PT"], "pt-PT", "Jogos e definições", "A carregar a imagem…"),
    # a phone in Portugal that lists bare "pt" first (Chrome's list can): still European
    "pt+pt-PT": (["pt", "pt-PT"], "pt-PT", "Jogos e definições", "A carregar a imagem…"),
    "pt-BR": (["pt-BR"], "pt-BR", "Jogos e configurações", "Carregando a imagem…"),
}

# the words a box shows from CSS (::before/::after content with letters): never translated
CSS_WORDS = """() => [...document.querySelectorAll('body *')].flatMap((el) =>
  ['::before', '::after'].map((p) => getComputedStyle(el, p).content)
    .filter((c) => /"[^"]*\\p{L}{2}/u.test(c)))"""


def hold_the_picture(phone: Phone) -> list[Any]:
    """The camera's first picture held back (the requests, to let go), so the words shown
    while it comes stay on screen; the later ones are let through."""
    held: list[Any] = []
    asked = [0]

    def hold(route: Any) -> None:
        asked[0] += 1
        if asked[0] == 1:
            held.append(route)
        else:
            route.continue_()
    phone.page.route("**/api/camera/snapshot", hold)
    return held


def phone_speaking(browser: Any, url: str, languages: list[str], width: int) -> Phone:
    """A phone whose language list is `languages` (Playwright's locale sets only one)."""
    listed = json.dumps(languages)
    script = f"Object.defineProperty(navigator, 'languages', {{ get: () => {listed} }});"
    return open_phone(browser, url, width, locale=languages[0], init_script=script)


@pytest.mark.parametrize("case", list(PORTUGUESE))
def test_the_phones_portuguese_down_to_the_camera_view(server: Server, browser: Any,
                                                      case: str) -> None:
    languages, lang, menu, loading = PORTUGUESE[case]
    chicago_after_one_hand(server)
    admin = phone_speaking(browser, f"{server.url}/#token={TOKEN}", languages, 390)
    assert admin.page.evaluate("navigator.languages") == languages
    assert admin.page.evaluate("document.documentElement.lang") == lang
    expect(admin.tid("menu-btn")).to_have_attribute("aria-label", menu)
    expect(admin.tid("hand-count")).to_have_text("1 mão")
    problems: list[str] = []
    english_left(admin, "placar", problems, lang)
    shot(admin, f"language-{case}-scoreboard-390.png")

    held = hold_the_picture(admin)
    admin.tid("menu-btn").click()
    admin.tid("menu-camera").click()
    expect(admin.tid("camera-loading")).to_have_text(loading)
    expect(admin.tid("camera-loading")).to_be_visible()
    english_left(admin, "câmera", problems, lang)
    problems += [f"CSS shows {c}" for c in admin.page.evaluate(CSS_WORDS)]
    shot(admin, f"language-{case}-camera-390.png")
    assert problems == [], "\n".join(problems)
    held.pop().continue_()  # the picture comes: its words go
    expect(admin.tid("camera-loading")).to_be_hidden()
    expect(admin.tid("camera-snapshot")).to_be_visible()
    assert admin.errors == []
    admin.page.context.close()


def test_the_camera_views_words_fit_320px_at_200_percent(server: Server, browser: Any) -> None:
    admin = phone_speaking(browser, f"{server.url}/#token={TOKEN}", ["pt-PT"], 320)
    cdp = set_text_size(admin.page, 2.0)
    hold_the_picture(admin)
    admin.tid("menu-btn").click()
    admin.tid("menu-camera").click()
    expect(admin.tid("camera-loading")).to_have_text("A carregar a imagem…")
    assert reflow_problems(admin.page) == []
    shot(admin, "language-pt-PT-camera-320-200.png")
    cdp.detach()
    admin.page.context.close()
