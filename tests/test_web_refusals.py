"""Every refusal carries a stable code and its params, documented in /openapi.json, and says
`detail` in the language the request asks for, from the page's own catalogues: a code
without words in any language, or a raise without a code, fails here."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.decks.adapting import parse_event, phase_message
from scorekeeper.web.refusals.catalogue import LANGUAGES, LOCALES, read, words
from scorekeeper.web.refusals.codes import CODES, REASONS
from scorekeeper.web.refusals.language import pick
from scorekeeper.web.refusals.say import say
from tests.apiclient import ADMIN

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
CHICAGO_7 = ["AS", "2S", "3S", "4H", "5H", "6H", "7C"]


# ---- the language a request asks for ----------------------------------------------------

@pytest.mark.parametrize(("header", "language"), [
    (None, "en"), ("", "en"), ("de-DE", "en"), ("*", "en"),
    ("es-MX,es;q=0.9", "es"), ("pt-BR", "pt-BR"), ("pt", "pt-BR"), ("pt-PT", "pt-PT"),
    ("pt-AO", "pt-PT"), ("PT-pt", "pt-PT"),
    ("de-DE, pt-PT;q=0.8, es;q=0.9", "es"),  # q-values, not the order
    ("en;q=0.1, pt-BR;q=0.9", "pt-BR"),
    ("es;q=0, pt-PT", "pt-PT"),  # q=0: not wanted
    ("es;q=0.5, pt-BR;q=0.5", "es"),  # a tie: the first listed
    ("es;q=high, pt-BR;q=0.2", "pt-BR"),  # a broken q-value is not a wish
    ("fr-FR, de", "en"),
])
def test_the_language_asked_for(header: str | None, language: str) -> None:
    assert pick(header) == language


# ---- every code has words -----------------------------------------------------------------

def test_every_code_has_words_in_every_language() -> None:
    for language in LANGUAGES:
        w = words(language)
        missing = [c for c in CODES if f"refusal.{c}" not in w and f"refusal.{c}.other" not in w]
        assert missing == [], f"{language} cannot say {missing}"
        assert [r for r in REASONS if f"reason.{r}" not in w] == [], language


def test_the_catalogues_hold_no_words_for_a_code_that_is_gone() -> None:
    stale = {k.split(".")[1] for k in read(LOCALES / "en.js") if k.startswith("refusal.")}
    stale -= set(CODES) | {"inHand", "ofPlayer", "problem", "more", "or"}
    assert stale == set()


def test_each_language_says_its_own_words() -> None:
    """A catalogue that only repeats English (or Portugal's, for Brazil) has not been
    translated: most refusals differ."""
    en = words("en")
    for language in ("es", "pt-BR", "pt-PT"):
        w = words(language)
        same = [c for c in CODES if w.get(f"refusal.{c}") == en.get(f"refusal.{c}")]
        assert len(same) <= 2, f"{language} repeats English: {same}"


def test_the_page_test_lists_the_same_codes() -> None:
    """tests/js/refusal-codes.json is what the page's test checks its catalogues against."""
    listed = json.loads((ROOT / "tests/js/refusal-codes.json").read_text())
    assert listed == sorted(CODES)


def _raised_codes() -> Iterator[tuple[str, int, str | None]]:
    """(file, line, code) for each refusal built in the package: the code it is given (a
    string literal, positional or code=), None when it has none."""
    makers = {"RulesError": 1, "CardError": 1, "ApiError": None, "AdaptRefused": 2,
              "EnrolRefused": 2, "malformed": None}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in makers:
                continue
            where = str(path.relative_to(ROOT))
            if name == "malformed":
                yield where, node.lineno, "request_invalid"
                continue
            given = next((k.value for k in node.keywords if k.arg == "code"), None)
            at = makers[name]
            if given is None and at is not None and len(node.args) > at:
                given = node.args[at]
            if given is None:
                yield where, node.lineno, None
            elif isinstance(given, ast.Constant):
                yield where, node.lineno, str(given.value)
            elif isinstance(given, ast.IfExp):  # "knock_several" if enders else "knock_missing"
                for branch in (given.body, given.orelse):
                    assert isinstance(branch, ast.Constant), f"{where}:{node.lineno}"
                    yield where, node.lineno, str(branch.value)
            # else: a code passed on (exc.code), checked where it was made


def test_every_refusal_is_made_with_a_listed_code() -> None:
    found = list(_raised_codes())
    assert len(found) > 100, f"only {len(found)} refusals found: is the scan broken?"
    without = [f"{f}:{n}" for f, n, code in found
               if code is None and not f.endswith(("rules/errors.py", "http/errors.py"))]
    assert without == []
    unlisted = [f"{f}:{n} {code}" for f, n, code in found if code and code not in CODES]
    assert unlisted == []
    unused = set(CODES) - {code for _, _, code in found} - {
        # given by a class or a handler rather than at a raise
        "knock_hand_size", "idempotency_key_reused", "json_malformed", "game_changed",
        "game_not_found", "storage_failed", "camera_failed", "live_full", "live_client_full",
        "body_too_large", "body_too_slow", "http_error", "unexpected", "settings_invalid",
        "variant_unknown", "name_empty", "name_too_long", "name_broken", "name_control",
        "game_deleted", "head_too_large", "request_malformed"}
    assert unused == set()


# ---- the words, put together --------------------------------------------------------------

def test_cards_and_numbers_are_said_in_the_language() -> None:
    assert say("out_holds_cards", {"player": "Ann", "cards": ["KD", "8D", "JK"]}, "pt-BR") == (
        "Ann saiu mas ainda tem rei de ouros, 8♦, curinga.")
    assert say("card_too_many", {"card": "QS", "count": 3, "allowed": 2, "decks": 2}, "es") == (
        "Reina de picas aparece 3 veces, pero las barajas solo tienen 2.")
    assert say("photo_too_large", {"width": 8000, "height": 6000, "max": 24.5}, "pt-PT") == (
        "A foto tem 8000 × 6000 píxeis; leem-se no máximo 24,5 megapíxeis.")
    assert say("no_such_code", {}, "es") is None


def test_a_refusal_of_a_hand_names_the_hand_and_the_player() -> None:
    params = {"hand": 4, "player": "Ann", "n": 3}
    assert say("chicago_hand_size", params, "es") == (
        "Mano 4: Ann tiene 3 cartas; una mano de Chicago es de 7 (8 para quien cerró o hizo "
        "rummy).")
    assert say("card_unknown", {"hand": 2, "player": "Bo", "card": "ZZ"}, "pt-PT") == (
        "Mão 2: Bo: «ZZ» não é uma carta.")


def test_settings_problems_name_the_setting_as_the_page_does() -> None:
    said = say("settings_invalid", {"variant": "chicago", "more": 1, "problems": [
        {"setting": "knock_penalty", "reason": "whole"},
        {"setting": "min_naturals", "reason": "one_of", "options": [0, 1]}]}, "pt-BR")
    assert said == ("Multa por bater: tem que ser um número inteiro; Cartas naturais em uma "
                    "combinação: tem que ser 0 ou 1; e mais 1 problema.")


# ---- over HTTP: every kind of refusal -----------------------------------------------------

def _game(client: TestClient, variant: str = "chicago") -> int:
    r = client.post("/api/games", json={"variant": variant, "players": ["Ann", "Bob"]},
                    headers=ADMIN)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def _refusal(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and isinstance(body["params"], dict), body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def test_every_kind_of_refusal_carries_code_and_params(client: TestClient) -> None:
    gid = _game(client)
    hands = f"/api/games/{gid}/hands"
    short = {"players": [{"name": "Ann", "hand": CHICAGO_7[:3], "knocked": True},
                         {"name": "Bob", "hand": CHICAGO_7}]}
    body = _refusal(client.post(hands, json=short, headers=ADMIN), 422, "chicago_hand_size")
    assert body["params"] == {"hand": 1, "player": "Ann", "n": 3}
    body = _refusal(client.post(hands, json={"players": [{"name": "Ann", "hand": 5}]},
                                headers=ADMIN), 422, "request_invalid")  # pydantic's
    assert body["params"]["problems"][0]["reason"] == "list"
    _refusal(client.post(hands, content=b"{", headers={**ADMIN, "Content-Type":
                                                       "application/json"}),
             422, "json_malformed")
    settings = client.put(f"/api/games/{gid}/settings",
                          json={"settings": {"knock_penalty": 1.5}}, headers=ADMIN)
    body = _refusal(settings, 422, "settings_invalid")
    assert body["params"]["problems"] == [{"setting": "knock_penalty", "reason": "whole"}]
    _refusal(client.get("/api/games/999"), 404, "game_not_found")
    _refusal(client.post(hands, json=short), 401, "token_required")
    _refusal(client.post(hands, json=short, headers={**ADMIN, "If-Match": '"0", "1"'}),
             412, "precondition_malformed")
    _refusal(client.delete(f"/api/games/{gid}/hands/last", headers=ADMIN), 422,
             "undo_nothing")
    _refusal(client.get("/api/no-such-route"), 404, "http_error")
    _refusal(client.post(hands, content=b"x" * (1024 * 1024 + 1),
                         headers={**ADMIN, "Content-Type": "application/json"}),
             413, "body_too_large")
    _refusal(client.get("/api/qr.svg", params={"url": "x" * 5000}), 414, "qr_too_long")


def test_a_game_that_moved_on_keeps_its_fields(client: TestClient) -> None:
    gid = _game(client, "rummy")
    hand = {"players": [{"name": "Ann", "went_out": True}, {"name": "Bob", "hand": ["KD"]}]}
    client.post(f"/api/games/{gid}/hands", json=hand, headers=ADMIN)
    r = client.post(f"/api/games/{gid}/hands", json=hand,
                    headers={**ADMIN, "If-Match": '"0"', "Accept-Language": "es"})
    body = _refusal(r, 412, "game_changed")
    assert body["seq"] == 1 and body["changes"] == ["hand 1 was saved from another phone"]
    assert body["params"] == {"seq": 1, "changes": [{"change": "hand", "hand": 1}]}
    assert body["detail"].startswith("La partida cambió en otro teléfono")
    assert say("game_changed", body["params"], "pt-BR") is not None
    assert say("x", {}, "es") is None


def test_detail_is_in_the_language_asked_for(client: TestClient) -> None:
    gid = _game(client, "rummy")
    hand = {"players": [{"name": "Ann", "went_out": True, "hand": ["KD", "8H"]},
                        {"name": "Bob", "hand": ["2C"]}]}
    said = {}
    for asked in ("en-US", "es-ES", "pt-BR", "pt-PT;q=0.9, en;q=0.2"):
        r = client.post(f"/api/games/{gid}/hands", json=hand,
                        headers={**ADMIN, "Accept-Language": asked})
        body = _refusal(r, 422, "out_holds_cards")
        assert body["params"] == {"hand": 1, "player": "Ann", "cards": ["KD", "8H"]}
        assert "Accept-Language" in r.headers["Vary"]
        said[r.headers["Content-Language"]] = body["detail"]
    assert said == {
        "en": "hand 1: Ann went out but still holds KD 8H",  # the rules' own words
        "es": "Mano 1: Ann salió pero aún tiene rey de diamantes, 8♥.",
        "pt-BR": "Mão 1: Ann saiu mas ainda tem rei de ouros, 8♥.",
        "pt-PT": "Mão 1: Ann saiu mas ainda tem rei de ouros, 8♥.",
    }


def test_a_refused_body_is_said_in_the_language_too(client: TestClient) -> None:
    r = client.post("/api/games", content=b"x" * (1024 * 1024 + 1),
                    headers={**ADMIN, "Content-Type": "application/json",
                             "Accept-Language": "es"})
    body = _refusal(r, 413, "body_too_large")
    assert body["detail"] == "La petición pasa de 1 MB."


# ---- the error body in /openapi.json ------------------------------------------------------

def test_openapi_documents_the_error_body(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    problem = doc["components"]["schemas"]["Problem"]
    assert set(problem["required"]) >= {"detail", "code", "params"}
    assert problem["properties"]["code"]["enum"] == list(CODES)
    assert all(c in problem["properties"]["code"]["description"] for c in CODES)
    assert problem["properties"]["params"]["type"] == "object"
    refs = 0
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status.startswith("2") or path == "/api/health":  # its 503 is a health
                    continue
                schema = answer["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Problem"}, (path, method, status)
                refs += 1
    assert refs > 40


# ---- the Improve-this-deck screen's numbers -----------------------------------------------

def test_the_adapt_run_s_events_are_data_and_other_lines_none() -> None:
    assert parse_event(b'{"event": "counts", "learn": 97, "check": 11, "others": 3000}\n') \
        == {"event": "counts", "learn": 97, "check": 11, "others": 3000}
    assert parse_event(b"Ultralytics 8.3 says hello\n") is None
    assert parse_event(b'["event"]\n') is None and parse_event(b'{"phase": 1}') is None
    assert phase_message("home", {"phase": "adapting", "progress": 0.25, "left_s": 125}) \
        == "adapting home:  25%  2:05 left"


def test_the_catalogue_files_are_read_whole() -> None:
    """Every line of every catalogue is one the server reads (a comment, or 'key': 'text'):
    a line of another shape would be a message the server never says."""
    for name in ("en.js", "es.js", "pt.js", "pt-BR.js"):
        text = (LOCALES / name).read_text()
        entries = len(re.findall(r"^\s*'[^']+': '", text, flags=re.M))
        assert len(read(LOCALES / name)) >= entries > 50, name
