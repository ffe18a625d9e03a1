"""GET /api/variants: the page's rule data, checked against the rules package itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from scorekeeper.rules import Game, chicago, rummy, rummy500
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.scoring import deck_for, player_limits
from scorekeeper.rules.variants import VARIANTS, parse_settings
from scorekeeper.settings import Settings
from scorekeeper.web.app import create_app
from scorekeeper.web.variants import variants

FIXTURE = Path(__file__).parent / "js" / "variants.json"
SETTINGS = {v.name: v.settings for v in VARIANTS.entries()}


@pytest.fixture(scope="module")
def body(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("variants")
    app = create_app(Settings(data_dir=data, admin_token=None), token="t")
    with TestClient(app) as client:
        r = client.get("/api/variants")  # public: no token
        assert r.status_code == 200, r.text
        yield r.json()


def by_id(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {v["id"]: v for v in body["variants"]}


def test_every_variant_and_setting_is_served(body: dict[str, Any]) -> None:
    served = by_id(body)
    assert list(served) == list(VARIANTS)  # in the registry's order
    for variant, model in SETTINGS.items():
        v = served[variant]
        assert (v["min_players"], v["max_players"]) == player_limits(variant)
        assert [s["key"] for s in v["settings"]] == list(model.model_fields)
        defaults = model()
        for s in v["settings"]:
            assert s["default"] == getattr(defaults, s["key"])


def test_allowed_values_are_the_rules_own(body: dict[str, Any]) -> None:
    """Every listed option is accepted; a number setting's least value is, one below is not."""
    for variant, v in by_id(body).items():
        for s in v["settings"]:
            if s["options"] is not None:
                for option in s["options"]:
                    parse_settings(variant, {s["key"]: option})
                if s["type"] == "choice" and all(isinstance(o, int) for o in s["options"]):
                    with pytest.raises(RulesError):
                        parse_settings(variant, {s["key"]: max(s["options"]) + 1})
            else:
                parse_settings(variant, {s["key"]: s["min"]})
                with pytest.raises(RulesError):
                    parse_settings(variant, {s["key"]: s["min"] - 1})
    rummy10 = {s["key"]: s for s in by_id(body)["rummy10"]["settings"]}
    assert rummy10["target"]["options"] == [100, 300, 500]


def test_decks_card_values_hand_sizes_and_knock_limit(body: dict[str, Any]) -> None:
    served = by_id(body)
    for rule in served["rummy500"]["deck"]:
        spec = deck_for(parse_settings("rummy500", rule["when"]))
        assert rule["values"] == {"copies": spec.decks, "jokers": spec.jokers}
    assert served["chicago"]["deck"][0]["values"] == {"copies": 2, "jokers": 0}
    for rule in served["rummy500"]["card_values"]:
        s = parse_settings("rummy500", rule["when"])
        for rank, points in rule["values"].items():
            if rank == "A_low":
                assert points == rummy500.card_points(parse_card("AS"), s, low_ace=True)
            else:
                code = "JK" if rank == "JK" else f"{rank}S"
                assert points == rummy500.card_points(parse_card(code), s)
    high = next(r for r in served["rummy"]["card_values"] if r["when"] == {"ace": "high_or_low"})
    high_ace = parse_settings("rummy", {"ace": "high_or_low"})
    assert high["values"]["A"] == rummy.card_points(parse_card("AS"), high_ace)
    dealt = served["rummy"]["hand_size"]["dealt"]
    assert all(dealt[str(n)] == rummy.deal_size("rummy", n) for n in range(2, 7))
    k = served["chicago"]["knock"]
    for total in range(0, 130):
        assert min(k["ceiling"], k["base"] - total) == chicago.knock_limit(total)


def test_the_js_unit_tests_read_what_the_server_serves(body: dict[str, Any]) -> None:
    """tests/js/variants.json feeds the Node unit tests: it must be today's answer."""
    assert json.loads(FIXTURE.read_text()) == body, (
        "refresh it: .venv/bin/python -c 'import json; from scorekeeper.web.variants import "
        "variants; print(json.dumps(variants().model_dump(mode=\"json\"), indent=1))' "
        "> tests/js/variants.json"
    )
    assert variants().model_dump(mode="json") == body


NO_ENDER = {  # a hand in which nobody is marked as ending it
    "chicago": [{"name": "A", "hand": ["KC", "QD", "JS", "9H", "8H", "7C", "6D"]},
                {"name": "B", "hand": ["AH", "2H", "3H", "4C", "4D", "4S", "5C"]}],
    "rummy": [{"name": "A", "hand": ["5H"]}, {"name": "B", "hand": ["KC"]}],
    "rummy10": [{"name": "A", "hand": ["5H"]}, {"name": "B", "hand": ["KC"]}],
    "rummy500": [{"name": "A", "melds": [["5H", "6H", "7H"]], "hand": ["2C"]},
                 {"name": "B", "hand": ["KC"]}],
}


@pytest.mark.parametrize("name", sorted(NO_ENDER))
def test_the_served_hand_end_is_what_the_rules_do(body: dict[str, Any], name: str) -> None:
    """`end.required` is served because the rules refuse a hand that names nobody ending it;
    every served mark is a flag a player's hand carries."""
    served = next(v for v in body["variants"] if v["id"] == name)["end"]
    game = Game(name, ["A", "B"])
    if served["required"]:
        with pytest.raises(RulesError):
            game.preview(NO_ENDER[name])
    else:
        game.preview(NO_ENDER[name])
    assert set(served["marks"]) <= {"knocked", "went_out", "rummy"}
    assert set(served["typed"]) <= {"melded", "held"} and served["typed"]
