"""A refusal from the server on a Brazilian and a Spanish phone: said in the page's language
from its code and params (not from the server's words), with the hand and the player
named, and shown once. Screenshots: test-artifacts/refusal-*.png.
"""

# ruff: noqa: F811  (the fixtures imported from test_browser are parameters here)

from __future__ import annotations

import json
from typing import Any

import pytest

# (importing test_browser skips this module where Chromium is not installed)
from tests.test_browser import (  # noqa: F401  (browser, server: fixtures)
    BOB_HAND,
    TOKEN,
    Server,
    browser,
    enter_player,
    expect,
    open_phone,
    server,
    shot,
)

SAID = {
    "pt-BR": "Mão 1: Ann tem 3 cartas; uma mão de Chicago é de 7 (8 para quem bateu ou fez "
             "rummy).",
    "es-MX": "Mano 1: Ann tiene 3 cartas; una mano de Chicago es de 7 (8 para quien cerró o "
             "hizo rummy).",
}


def _server_words_replaced(route: Any) -> None:
    """The server's answer with its `detail` swapped: what the page shows is its own."""
    answer = route.fetch()
    body = answer.json()
    if isinstance(body, dict) and "code" in body:
        body["detail"] = "THE SERVER'S WORDS"
    route.fulfill(response=answer, body=json.dumps(body))


@pytest.mark.parametrize("locale", list(SAID))
def test_a_refusal_is_said_once_in_the_page_language(server: Server, browser: Any,
                                                      locale: str) -> None:
    server.api("POST", "/api/games", {"variant": "chicago", "players": ["Ann", "Bob"]})
    admin = open_phone(browser, f"{server.url}/#token={TOKEN}", 390, locale=locale)
    admin.page.route("**/api/games/*/preview", _server_words_replaced)
    admin.page.route("**/api/games/*/hands", _server_words_replaced)
    admin.tid("primary-btn").click()
    enter_player(admin, 0, ["AH", "2H", "3H"], toggle="knocked")
    enter_player(admin, 1, BOB_HAND)
    expect(admin.tid("preview-error")).to_have_text(SAID[locale])
    admin.tid("entry-save").click()
    expect(admin.tid("entry-error")).to_have_text(SAID[locale])
    expect(admin.tid("preview-error")).to_have_count(0)
    sheet = admin.tid("entry-sheet").inner_text()
    assert sheet.count(SAID[locale]) == 1, sheet  # once, not twice
    assert "THE SERVER'S WORDS" not in sheet and "holds" not in sheet
    shot(admin, f"refusal-{locale}.png")
    assert admin.errors == []
    admin.page.context.close()
