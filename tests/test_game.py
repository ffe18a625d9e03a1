"""A whole match: totals, elimination, game over, undo and corrections by replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Game, RulesError, game_from_events
from scorekeeper.rules.cards import full_deck


def chicago_hand(ann: str, bob: str, cat: str | None = None, knocker: str = "Ann") -> dict:
    players = [{"name": "Ann", "hand": ann.split()}, {"name": "Bob", "hand": bob.split()}]
    if cat is not None:
        players.append({"name": "Cat", "hand": cat.split()})
    for pl in players:
        if pl["name"] == knocker:
            pl["knocked"] = True
    return {"type": "hand", "players": players}


MELDED = "5H 6H 7H 8H 9H 10H JH"   # 0 deadwood
LOOSE = "3C 4D 6S 8C 10S JC QC"    # 51
CAT_20 = "3S 4S 5S 6S 7S KD QS"    # the run melds: K + Q = 20
CAT_0 = "4C 4D 4S 5C 6C 7C 8C"     # 0


def test_totals_accumulate_and_players_are_eliminated() -> None:
    g = Game("chicago", ["Ann", "Bob", "Cat"])
    g.apply(chicago_hand(MELDED, LOOSE, CAT_20))           # Bob 51, Cat 20
    r = g.apply(chicago_hand(MELDED, LOOSE, CAT_20))       # Bob 102: out
    assert r is not None and r["n"] == 2
    snap = g.snapshot()
    assert [(x["name"], x["total"], x["eliminated"]) for x in snap["players"]] == [
        ("Ann", 0, False), ("Bob", 102, True), ("Cat", 40, False)]
    assert [x["knock_limit"] for x in snap["players"]] == [9, None, 9]
    assert snap["leader"] == "Ann" and not snap["game_over"]
    with pytest.raises(RulesError, match="Bob already out"):
        g.apply(chicago_hand(MELDED, LOOSE, CAT_20))
    cat = ["KD", "QS", "JC", "10C", "9S", "8D", "7S"]      # Cat 40 + 64 = 104: out
    g.apply({"type": "hand", "players": [{"name": "Ann", "hand": MELDED.split(), "knocked": True},
                                         {"name": "Cat", "hand": cat}]})
    snap = g.snapshot()
    assert snap["game_over"] and snap["winner"] == "Ann"
    with pytest.raises(RulesError, match="already over"):
        g.apply({"type": "hand", "players": [{"name": "Ann", "hand": [], "knocked": True},
                                             {"name": "Cat", "hand": []}]})


def test_a_correction_that_breaks_a_later_hand_changes_nothing() -> None:
    g = Game("chicago", ["Ann", "Bob", "Cat"])
    g.apply(chicago_hand(MELDED, LOOSE, CAT_20))
    g.apply(chicago_hand(MELDED, LOOSE, CAT_20))           # Bob out after hand 2
    g.apply({"type": "hand", "players": [{"name": "Ann", "hand": MELDED.split(), "knocked": True},
                                         {"name": "Cat", "hand": CAT_0.split()}]})
    before = g.snapshot()
    kept_in = chicago_hand(MELDED, "KD 3S 4S 5S 6S 7S 8S", "KS 3D 4D 5D 6D 7D 8D")  # Bob 61
    with pytest.raises(RulesError, match="hand 3: every player still in"):
        g.apply({"type": "correct", "n": 2, "players": kept_in["players"]})
    assert g.snapshot() == before


def test_undo_and_rename_and_settings() -> None:
    g = Game("rummy", ["Ann", "Bob"])
    g.apply({"type": "hand", "players": [{"name": "ann", "went_out": True},
                                         {"name": "Bob", "hand": ["KD", "AC"]}]})
    assert g.snapshot()["players"][0]["total"] == 11       # names match case-insensitively
    g.apply({"type": "rename", "old": "Ann", "new": "Anna"})
    assert g.snapshot()["hands"][0]["players"][0]["name"] == "Anna"
    g.apply({"type": "settings", "settings": {"ace": "high_or_low"}})
    assert g.snapshot()["players"][0]["total"] == 25       # the ace now counts 15
    assert g.snapshot()["players"][0]["to_target"] == 125
    g.apply({"type": "undo"})
    assert g.snapshot()["players"][0]["total"] == 0
    with pytest.raises(RulesError, match="no hand to undo"):
        g.apply({"type": "undo"})
    with pytest.raises(RulesError, match="named twice"):
        g.apply({"type": "rename", "old": "Anna", "new": "bob"})


@pytest.mark.parametrize(("variant", "players", "settings", "message"), [
    ("poker", ["A", "B"], {}, "unknown variant 'poker'"),
    ("chicago", ["A"], {}, "2 to 8 player names"),
    ("rummy10", ["A", "B", "C", "D", "E", "F"], {}, "Rummy 10-card needs .* 2 to 5 player"),
    ("rummy", ["A", "B", "C", "D", "E", "F", "G"], {}, "Rummy needs .* 2 to 6 player names"),
    ("chicago", ["A", "a"], {}, "named twice"),
    ("chicago", ["A", "B\ud800"], {}, "broken character"),
    ("chicago", ["A", "\u202eB"], {}, "text-direction control"),
    ("chicago", ["A", "B" * 41], {}, "at most 40 characters"),
    ("chicago", ["A", "B"], {"knock_limit": 5}, "unknown setting 'knock_limit'"),
    ("chicago", ["A", "B"], {"elimination_total": 150}, "elimination_total=150"),
    ("rummy10", ["A", "B"], {"target": 250}, "target=250"),
    ("rummy500", ["A", "B"], {"jokers": 1}, "jokers=1"),
])
def test_bad_games_are_refused(variant: str, players: list, settings: dict, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Game(variant, players, settings)


SHOE = [str(c) for c in full_deck()] * 2


def random_chicago_hand(rng: random.Random, names: list[str]) -> list[dict]:
    dealt = rng.sample(SHOE, 7 * len(names))
    players = [{"name": n, "hand": dealt[i * 7:(i + 1) * 7]} for i, n in enumerate(names)]
    players[rng.randrange(len(names))]["knocked"] = True
    return players


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n_hands=st.integers(1, 6), data=st.data())
def test_corrections_equal_a_fresh_replay(seed: int, n_hands: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cat", "Dan"]
    g = Game("chicago", names, {"elimination_total": 101})
    played: list[list[dict]] = []
    for _ in range(n_hands):
        if g.snapshot()["game_over"]:
            break
        standing = [x["name"] for x in g.snapshot()["players"] if not x["eliminated"]]
        hand = random_chicago_hand(rng, standing)
        g.apply({"type": "hand", "players": hand})
        played.append(hand)
    n = data.draw(st.integers(1, len(played)))
    new = [{**pl, "hand": rng.sample(SHOE, 7)} for pl in played[n - 1]]
    events = [{"type": "hand", "players": h} for h in played]
    try:
        g.apply({"type": "correct", "n": n, "players": new})
    except RulesError:
        return  # a correction may knock a later hand out of shape; then nothing changed
    fresh = game_from_events({"variant": "chicago", "players": names,
                              "settings": {"elimination_total": 101}},
                             [*events[:n - 1], {"type": "hand", "players": new}, *events[n:]])
    assert g.snapshot() == fresh.snapshot()
    g.apply({"type": "undo"})
    shorter = game_from_events({"variant": "chicago", "players": names,
                                "settings": {"elimination_total": 101}},
                               [*events[:n - 1], {"type": "hand", "players": new},
                                *events[n:]][:-1])
    assert g.snapshot() == shorter.snapshot()


def test_knock_check_uses_the_current_total() -> None:
    g = Game("chicago", ["Ann", "Bob"])
    g.apply(chicago_hand("AC 3C 4D 6S 8C 9S JC", MELDED, knocker="Bob"))   # Ann 41
    g.apply(chicago_hand("AC 3C 4D 6S 8C 9S JC", MELDED, knocker="Bob"))   # Ann 82
    g.apply(chicago_hand("10S 3H 4H 5H 6H 7H 8H", MELDED, knocker="Bob"))  # Ann 92 → limit 8
    # 4H-5H-(2)-7H and 7S AS AD left: 7 + 1 + 1 = 9 > 8
    check = g.knock_check("ann", ["7H", "7S", "2C", "4H", "5H", "AS", "AD"])
    assert check["player"] == "Ann"
    assert (check["limit"], check["deadwood"], check["legal"]) == (8, 9, False)


def test_a_hand_stored_before_the_complete_hand_check_still_replays() -> None:
    short = {"type": "hand", "players": [{"name": "Ann", "hand": MELDED.split(), "knocked": True},
                                         {"name": "Bob", "hand": ["KD", "QS"]}]}
    with pytest.raises(RulesError, match="Bob holds 2 cards"):
        Game("chicago", ["Ann", "Bob"]).apply(short)
    g = game_from_events({"variant": "chicago", "players": ["Ann", "Bob"]}, [short])
    assert [x["total"] for x in g.snapshot()["players"]] == [0, 20]
    g.apply({"type": "settings", "settings": {"knock_penalty": 10}})  # replays it as stored
    g.apply({"type": "rename", "old": "Bob", "new": "Rob"})
    assert [x["total"] for x in g.snapshot()["players"]] == [0, 20]
    with pytest.raises(RulesError, match="Rob holds 2 cards"):  # a correction is new input
        g.apply({"type": "correct", "n": 1, "players": g.snapshot()["hands"][0]["players"]})
