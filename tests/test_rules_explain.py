"""The rules sheet: a hand taken apart adds up to the points the game kept, for every
variant and setting; its example hands score under every setting; its statements are words
the page has."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Game
from scorekeeper.rules.cards import RANKS, SUITS
from scorekeeper.rules.chicago import knock_limit
from scorekeeper.rules.hand import parse_players
from scorekeeper.rules.rulesheet import card_values, example, explain_hand, rules_sheet, sections
from scorekeeper.rules.variants import VARIANTS, Variant

LOCALES = Path(__file__).parent.parent / "scorekeeper" / "web" / "static" / "locales"


def every_settings(rules: Variant[Any]) -> list[dict[str, Any]]:
    """Every combination of the variant's choice settings (numbers at their defaults)."""
    choices = [s for s in rules.schema if s.options is not None]
    return [dict(zip([s.key for s in choices], values, strict=True))
            for values in itertools.product(*(s.options or () for s in choices))]


COMBOS = [pytest.param(rules, raw, id=f"{rules.name}-{i}")
          for rules in VARIANTS.entries() for i, raw in enumerate(every_settings(rules))]


def adds_up(sheet_hand: Any) -> None:
    for player in sheet_hand.players:
        assert sum(p.points for p in player.parts) == player.points, player
        for part in player.parts:
            if part.cards:
                assert part.value == sum(c.points for c in part.cards), part


def played(variant: str, hands: list[list[dict[str, Any]]], names: list[str],
           **raw: Any) -> dict[str, Any]:
    game = Game(variant, names, raw)
    for h in hands:
        game.apply({"type": "hand", "players": h})
    return game.snapshot()


def cards(text: str) -> list[str]:
    return text.split()


# Hands as the page sends them, with what the game kept for each player: table-driven.
HANDS = [
    ("chicago", {}, [{"name": "Ann", "knocked": True, "hand": cards("7H 7S 7D 9C KC KS 2C")},
                     {"name": "Bob", "hand": cards("4H 5H 6H 8S 8D 8C AD")}],
     {"Ann": 24, "Bob": 1}),
    ("chicago", {"knocker_tie": "penalised", "knock_penalty": 20},
     [{"name": "Ann", "knocked": True, "hand": cards("AH 2H 3H 4C 4D 4S 5C")},
      {"name": "Bob", "hand": cards("5D 6D 7D 8C 8D 8S 5S")}], {"Ann": 25, "Bob": 5}),
    ("chicago", {}, [{"name": "Ann", "rummy": True, "hand": cards("AH 2H 3H 4H 5H 4C 4D 4S")},
                     {"name": "Bob", "held": 33}], {"Ann": 0, "Bob": 33}),
    ("chicago", {"knocker_shows": "best_seven"},
     [{"name": "Ann", "knocked": True, "hand": cards("7H 7S 7D KC KS KD 3C QH")},
      {"name": "Bob", "hand": cards("4H 5H 6H 8S 8D 8C AD")}], {"Ann": 3 + 15, "Bob": 1}),
    ("rummy", {}, [{"name": "Ann", "went_out": True}, {"name": "Bob", "hand": ["7C", "AH"]},
                   {"name": "Cy", "held": 12}], {"Ann": 20, "Bob": 0, "Cy": 0}),
    ("rummy", {"ace": "high_or_low"},
     [{"name": "Ann", "hand": ["AH", "KD"]}, {"name": "Bob", "went_out": True, "rummy": True}],
     {"Ann": 0, "Bob": 50}),
    ("rummy10", {"exhausted_hand": "lowest_hand_collects"},
     [{"name": "Ann", "hand": ["2C"]}, {"name": "Bob", "hand": ["9C", "QH"]}],
     {"Ann": 19, "Bob": 0}),
    ("rummy10", {}, [{"name": "Ann", "hand": ["2C"]}, {"name": "Bob", "hand": ["9C"]}],
     {"Ann": 0, "Bob": 0}),
    ("rummy500", {}, [{"name": "Ann", "melds": [["AC", "2C", "3C"], ["JK", "QD", "KD"]],
                       "hand": ["AS"]},
                      {"name": "Bob", "held": 30, "melded": 20},
                      {"name": "Cy", "melds": [{"cards": ["4C"], "on": ["AC", "2C", "3C"]}]}],
     {"Ann": 6 + 35 - 15, "Bob": 20 - 30, "Cy": 4}),
    ("rummy500", {"scoring": "5-10-15", "jokers": 0},
     [{"name": "Ann", "melds": [["AC", "2C", "3C"]], "hand": ["9D"]},
      {"name": "Bob", "hand": ["AH", "KS"]}], {"Ann": 15 - 5, "Bob": -25}),
]


@pytest.mark.parametrize(("variant", "raw", "entered", "kept"), HANDS)
def test_a_hand_taken_apart_adds_up_to_what_the_game_kept(
        variant: str, raw: dict[str, Any], entered: list[dict[str, Any]],
        kept: dict[str, int]) -> None:
    view = played(variant, [entered], [p["name"] for p in entered], **raw)
    sheet = rules_sheet(view)
    assert sheet.example.n == 1
    assert {p.name: p.points for p in sheet.example.players} == kept
    stored = {row["name"]: row["points"] for row in view["hands"][-1]["result"]["players"]}
    assert {p.name: p.points for p in sheet.example.players} == stored
    adds_up(sheet.example)


def test_a_chicago_breakdown_shows_what_the_solver_left_out_of_melds() -> None:
    entered = HANDS[0][2]
    view = played("chicago", [entered], ["Ann", "Bob"])
    ann, bob = rules_sheet(view).example.players
    assert [c.card for c in ann.parts[0].cards] == ["9C"]
    assert (ann.parts[1].kind, ann.parts[1].points) == ("penalty", 15)
    assert ann.melds == [["7H", "7S", "7D"], ["KC", "KS", "2C"]]
    assert [(c.card, c.points) for c in bob.parts[0].cards] == [("AD", 1)]
    assert rules_sheet(view).example.ending == "knocked"


def test_a_knockers_eighth_card_is_named_as_set_aside() -> None:
    view = played("chicago", [HANDS[3][2]], ["Ann", "Bob"])
    ann = rules_sheet(view).example.players[0]
    assert ann.dropped == "QH"
    assert [c.card for c in ann.parts[0].cards] == ["3C"]


def test_rummy_doubles_what_the_winner_collects() -> None:
    view = played("rummy", [HANDS[5][2]], ["Ann", "Bob"], ace="high_or_low")
    bob = rules_sheet(view).example.players[1]
    assert [(p.kind, p.points) for p in bob.parts] == [("collected", 25), ("rummy_bonus", 25)]
    assert rules_sheet(view).example.ending == "rummy"


def test_the_sheet_explains_the_last_hand_not_an_earlier_one() -> None:
    first = [{"name": "Ann", "went_out": True}, {"name": "Bob", "hand": ["7C"]}]
    second = [{"name": "Ann", "hand": ["KC"]}, {"name": "Bob", "went_out": True}]
    sheet = rules_sheet(played("rummy", [first, second], ["Ann", "Bob"]))
    assert sheet.example.n == 2
    assert [p.points for p in sheet.example.players] == [0, 10]


@pytest.mark.parametrize(("rules", "raw"), COMBOS)
def test_the_example_hand_scores_under_every_setting(rules: Variant[Any],
                                                     raw: dict[str, Any]) -> None:
    s = rules.parse(raw)
    shown = example(rules, s, ["Ana", "Ben", "Cy"])
    assert shown.n is None
    assert [p.name for p in shown.players] == ["Ana", "Ben"]
    adds_up(shown)
    assert any(p.points for p in shown.players)
    assert sections(rules, s, 2)


def test_the_sheet_follows_the_settings() -> None:
    def keys(variant: str, **raw: Any) -> list[str]:
        rules = VARIANTS.get(variant)
        return [line.key for sec in sections(rules, rules.parse(raw), 3) for line in sec.lines]

    assert "chicago.tie.safe" in keys("chicago")
    assert "chicago.tie.penalised" in keys("chicago", knocker_tie="penalised")
    assert "chicago.noPenalty" in keys("chicago", knock_penalty=0)
    assert "chicago.noKnock" in keys("chicago", elimination_total=101)
    assert "chicago.noKnock" not in keys("chicago")
    assert not any(k.startswith("chicago.instant") for k in keys("chicago", instant_win="off"))
    assert "ace.both" in keys("rummy", ace="high_or_low")
    assert "end.hands" in keys("rummy", hands=5) and "end.target" not in keys("rummy", hands=5)
    assert "wild.none" in keys("rummy500", jokers=0)
    assert "duplicates.no" in keys("rummy500", decks=2)
    assert "duplicates.no" not in keys("rummy500", decks=1)
    assert "r500.floating" in keys("rummy500", floating=True)
    assert "layoff.after_melding" in keys("rummy10")


def test_numbers_on_the_sheet_are_the_rules_own() -> None:
    chicago = VARIANTS.get("chicago")
    s = chicago.parse({"knock_penalty": 7, "elimination_total": 101})
    lines = {line.key: line.params for sec in sections(chicago, s, 2) for line in sec.lines}
    ceiling, base = lines["chicago.knockLimit"]["ceiling"], lines["chicago.knockLimit"]["base"]
    assert all(knock_limit(total) == min(ceiling, base - total) for total in range(0, 120))
    assert lines["chicago.penalty"] == {"n": 7}
    assert lines["end.elimination"] == {"n": 101}
    r500 = VARIANTS.get("rummy500")
    five = r500.parse({"scoring": "5-10-15"})
    lines = {line.key: line.params for sec in sections(r500, five, 2) for line in sec.lines}
    assert lines["r500.lowAce"] == {"n": 5}
    groups = card_values(r500, five)
    assert [(g.first, g.last, g.points) for g in groups] == [
        ("A", "A", 15), ("2", "9", 5), ("10", "K", 10), ("JK", "JK", 15)]
    rummy = VARIANTS.get("rummy")
    assert [(g.first, g.last, g.points) for g in card_values(rummy, rummy.parse({}))] == [
        ("A", "A", 1), ("2", "10", None), ("J", "K", 10)]


def locale_keys(lang: str) -> set[str]:
    return set(re.findall(r"^\s+'(rulesheet\.[^']+)':", (LOCALES / f"{lang}.js").read_text(),
                          re.M))


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_every_statement_the_rules_make_is_in_the_language(lang: str) -> None:
    have = locale_keys(lang)
    said = {f"rulesheet.{line.key}" for rules in VARIANTS.entries()
            for raw in every_settings(rules)
            for sec in sections(rules, rules.parse(raw), 2) for line in sec.lines}
    said |= {f"rulesheet.section.{sec.key}" for rules in VARIANTS.entries()
             for sec in sections(rules, rules.parse({}), 2)}
    missing = {k for k in said if k not in have and f"{k}.other" not in have}
    assert not missing


CARDS = [f"{r}{s}" for r in RANKS for s in SUITS]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=2, max_size=9, unique=True),
       st.integers(1, 5), st.sampled_from(["standard", "5-10-15"]),
       st.sampled_from(["high_or_low", "low"]))
def test_any_rummy500_hand_adds_up(cards: list[str], cut: int, scoring: str, ace: str) -> None:
    """Whatever lies in front of a player and in the hand, the parts make the points."""
    melded, held = cards[:cut], cards[cut:]
    entered = [{"name": "Ann", "melds": [melded], "hand": held},
               {"name": "Bob", "hand": [], "melds": []}]
    rules = VARIANTS.get("rummy500")
    s = rules.parse({"scoring": scoring, "ace": ace})
    result = rules.score(parse_players(entered), s, None, True)
    shown = explain_hand(rules, s, entered, result, 1)
    adds_up(shown)
    assert shown.players[0].points == result["players"][0]["points"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=10, unique=True),
       st.booleans(), st.sampled_from(["low", "high_or_low"]))
def test_any_rummy_hand_adds_up(left: list[str], rummy: bool, ace: str) -> None:
    entered = [{"name": "Ann", "went_out": True, "rummy": rummy},
               {"name": "Bob", "hand": left}]
    view = played("rummy", [entered], ["Ann", "Bob"], ace=ace)
    sheet = rules_sheet(view)
    adds_up(sheet.example)
    assert [p.points for p in sheet.example.players] == [
        r["points"] for r in view["hands"][-1]["result"]["players"]]
