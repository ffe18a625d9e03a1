"""Contract tests for `scorekeeper score`: one JSON hand per line in, one JSON result per line out.

Every expected number below was worked out by hand from shared/RULES.md and
docs/rules-decisions.md (the comment on each case shows the arithmetic); none was taken from
running the program. The good lines are sent in one subprocess call; if that call fails, each
good line is re-run on its own so that every case reports its own failure.

Card points (Chicago, Rummy, Rummy 10-card): A = 1, 2..10 = pips, J/Q/K = 10.
Rummy 500: A = 15 (1 in an A-2-3 run), J/Q/K = 10, joker 15.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CMD = [sys.executable, "-m", "scorekeeper", "score"]
CANONICAL = re.compile(r"^(?:A|[2-9]|10|J|Q|K)[CDHS]$|^JK$")


def run_score(text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        CMD, input=text, capture_output=True, text=True, cwd=ROOT, timeout=120, check=False
    )


# --------------------------------------------------------------------------- input builders


def cards(spec: str | list[str]) -> list[str]:
    return spec.split() if isinstance(spec, str) else list(spec)


def pl(name: str, total: int, hand: str | list[str], *, knocked=False, rummy=False) -> dict:
    """A Chicago player."""
    return {"name": name, "total": total, "hand": cards(hand), "knocked": knocked, "rummy": rummy}


def kn(name: str, total: int, hand: str | list[str]) -> dict:
    """A Chicago knocker."""
    return pl(name, total, hand, knocked=True)


def chi(players: list[dict], **settings) -> dict:
    return {"variant": "chicago", "settings": settings, "players": players}


def rp(name: str, total: int, hand: str | list[str], *, out=False, rummy=False) -> dict:
    """A Rummy / Rummy 10-card player."""
    return {"name": name, "total": total, "hand": cards(hand), "went_out": out, "rummy": rummy}


def rum(players: list[dict], variant: str = "rummy", **settings) -> dict:
    return {"variant": variant, "settings": settings, "players": players}


def fp(name: str, total: int, melds: list, hand: str | list[str] = "") -> dict:
    """A Rummy 500 player: melds in front of them, cards left in the hand."""
    ms = [m if isinstance(m, dict) else cards(m) for m in melds]
    return {"name": name, "total": total, "melds": ms, "hand": cards(hand)}


def r500(players: list[dict], **settings) -> dict:
    return {"variant": "rummy500", "settings": settings, "players": players}


# Chicago building blocks (deadwood worked out once, here):
#   K(x) = 3C-4C-5C run + 9D 9S 9H set + x  -> deadwood = value of x (x in AD 5H 6D 8D KH)
#   L(y) = 6H-7H-8H run + KD KC KS set + y  -> deadwood = value of y (y in 3S 5S 9C)
#   B55  = KS QD JH 8S 7C 6D 4H: no two of a rank, no two of a suit within 2 -> 10+10+10+8+7+6+4
#   F0   = 3C-4C-5C run + 9D 9S 9H 9C set -> 0
def K(x: str) -> str:
    return f"3C 4C 5C 9D 9S 9H {x}"


def L(y: str) -> str:
    return f"6H 7H 8H KD KC KS {y}"


B55 = "KS QD JH 8S 7C 6D 4H"
F0 = "3C 4C 5C 9D 9S 9H 9C"


def exp(players: dict, *, knock=None, over=False, winner=None) -> dict:
    """players: name -> (points, total) or (points, total, deadwood, eliminated) for Chicago.
    knock: (player, limit, deadwood, legal) or None."""
    return {"players": players, "knock": knock, "over": over, "winner": winner}


# --------------------------------------------------------------------------- Chicago cases

CHICAGO = [
    # --- the deadwood solver: wild twos, identical cards, house rules, aces
    pytest.param(
        chi([kn("Ann", 40, "5H 2C 7H KS KD KH 3D"), pl("Bob", 10, B55)]),
        exp({"Ann": (3, 43, 3, False), "Bob": (55, 65, 55, False)}, knock=("Ann", 9, 3, True)),
        id="chi-two-fills-run-gap",
    ),  # Ann: 5H-2C(6H)-7H + KS KD KH, 3D alone = 3 <= 9; Bob 55; Ann lowest: 40+3, 10+55
    pytest.param(
        chi([kn("Ann", 95, "KH 2C 2S 5D 5S 5C AH"), pl("Bob", 30, L("3S"))]),
        exp({"Ann": (1, 96, 1, False), "Bob": (3, 33, 3, False)}, knock=("Ann", 5, 1, True)),
        id="chi-two-wilds-one-natural",
    ),  # Ann: KH+2C+2S meld (saves 14 > A-2-3 saves 5), 555, AH = 1; limit 100-95 = 5; 95+1, 30+3
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 20, "2C KH 9S 6D 4C JC 8H")]),
        exp({"Ann": (1, 1, 1, False), "Bob": (49, 69, 49, False)}, knock=("Ann", 9, 1, True)),
        id="chi-unmelded-two-costs-2",
    ),  # Bob: no pair of naturals can meld even with the 2: 2+10+9+6+4+10+8 = 49; 20+49 = 69
    pytest.param(
        chi([pl("Ann", 20, "7H 7H 7S 3D 4D 5D KC"), kn("Bob", 30, F0)]),
        exp({"Ann": (10, 30, 10, False), "Bob": (0, 30, 0, False)}, knock=("Bob", 9, 0, True)),
        id="chi-identical-cards-in-set",
    ),  # Ann: 7H 7H 7S set + 3-4-5D + KC = 10; 20+10 = 30; Bob 0
    pytest.param(
        chi([pl("Ann", 20, "7H 7H 7S 3D 4D 5D KC"), kn("Bob", 30, F0)], duplicates_in_set=False),
        exp({"Ann": (31, 51, 31, False), "Bob": (0, 30, 0, False)}, knock=("Bob", 9, 0, True)),
        id="chi-duplicates-in-set-false",
    ),  # Ann: 7H 7H 7S no longer a set: 7+7+7+10 = 31; 20+31 = 51
    pytest.param(
        chi([pl("Ann", 0, "9C 9D 9H 9S 2C KD QS"), kn("Bob", 0, K("AD"))]),
        exp({"Ann": (20, 20, 20, False), "Bob": (1, 1, 1, False)}, knock=("Bob", 9, 1, True)),
        id="chi-five-card-set-with-wild",
    ),  # Ann: 9999+2C set of 5 (any size by default), KD+QS = 20; Bob K(AD) = 1
    pytest.param(
        chi([pl("Ann", 0, "9C 9D 9H 9S 2C KD QS"), kn("Bob", 0, K("AD"))], duplicates_in_set=False),
        exp({"Ann": (22, 22, 22, False), "Bob": (1, 1, 1, False)}, knock=("Bob", 9, 1, True)),
        id="chi-duplicates-false-caps-set-at-4",
    ),  # Ann: set capped at 4, the 2C fits no run (no 8/10/J of a 9's suit): 2+10+10 = 22
    pytest.param(
        chi([pl("Ann", 10, "2C 2C 2D 2D 2H 2H 2S"), kn("Bob", 10, F0)], instant_win="off"),
        exp({"Ann": (0, 10, 0, False), "Bob": (0, 10, 0, False)}, knock=("Bob", 9, 0, True)),
        id="chi-min-naturals-0-all-twos-meld",
    ),  # Ann: seven 2s are one meld -> 0; Bob 0 ties Ann, knocker_tie safe -> no penalty
    pytest.param(
        chi(
            [pl("Ann", 10, "2C 2C 2D 2D 2H 2H 2S"), kn("Bob", 10, F0)],
            instant_win="off",
            min_naturals=1,
        ),
        exp({"Ann": (14, 24, 14, False), "Bob": (0, 10, 0, False)}, knock=("Bob", 9, 0, True)),
        id="chi-min-naturals-1-twos-alone",
    ),  # no natural card -> no meld: 7 x 2 = 14; 10+14 = 24
    pytest.param(
        chi([kn("Ann", 50, "AD 2C 3D 6S 6H 6C 9C"), pl("Bob", 0, B55)]),
        exp({"Ann": (9, 59, 9, False), "Bob": (55, 55, 55, False)}, knock=("Ann", 9, 9, True)),
        id="chi-ace-low-run-with-wild",
    ),  # Ann: AD-2C(2D)-3D run + 666, 9C = 9 (without A-2-3: 1+3+9 = 13); 9 <= 9 legal
    pytest.param(
        chi([pl("Ann", 0, "QH KH AH 5C 5D 5S 9C"), kn("Bob", 0, K("AD"))]),
        exp({"Ann": (30, 30, 30, False), "Bob": (1, 1, 1, False)}, knock=("Bob", 9, 1, True)),
        id="chi-q-k-a-not-a-run",
    ),  # Ann: Q-K-A is no run (ace low only): 10+10+1+9 = 30
    pytest.param(
        chi([pl("Ann", 0, "KH AH 2C 5S 6S 7S 8S"), kn("Bob", 0, L("3S"))]),
        exp({"Ann": (11, 11, 11, False), "Bob": (3, 3, 3, False)}, knock=("Bob", 9, 3, True)),
        id="chi-runs-never-wrap",
    ),  # Ann: K-A-2 no run, 2C extends 5-8S: KH+AH = 11; Bob L(3S) = 3
    pytest.param(
        chi([kn("Ann", 0, "3♣ 4c 5C 9d 9S 9h a♦"), pl("Bob", 0, "TS js QS KD KC KH 4C")]),
        exp({"Ann": (1, 1, 1, False), "Bob": (4, 4, 4, False)}, knock=("Ann", 9, 1, True)),
        id="chi-card-codes-suits-case-T",
    ),  # Ann = K(AD) = 1; Bob: 10S-JS-QS + KKK, 4C = 4; Ann lowest
    # --- knock limit: min(9, 100 - total at the start of the hand)
    pytest.param(
        chi([kn("Ann", 91, L("9C")), pl("Bob", 0, B55)], elimination_total=101),
        exp({"Ann": (9, 100, 9, False), "Bob": (55, 55, 55, False)}, knock=("Ann", 9, 9, True)),
        id="chi-limit-91-is-9",
    ),  # limit 9, deadwood 9 legal; 91+9 = 100 < 101 not eliminated
    pytest.param(
        chi([kn("Ann", 92, K("8D")), pl("Bob", 0, B55), pl("Cat", 0, L("9C"))]),
        exp(
            {"Ann": (8, 100, 8, True), "Bob": (55, 55, 55, False), "Cat": (9, 9, 9, False)},
            knock=("Ann", 8, 8, True),
        ),
        id="chi-limit-92-is-8-legal",
    ),  # limit 8, deadwood 8; 8 < 9 < 55; 92+8 = 100 reaches 100 -> out; Bob, Cat remain
    pytest.param(
        chi([kn("Ann", 92, L("9C")), pl("Bob", 0, B55)]),
        exp(
            {"Ann": (9, 101, 9, True), "Bob": (55, 55, 55, False)},
            knock=("Ann", 8, 9, False),
            over=True,
            winner="Bob",
        ),
        id="chi-limit-92-illegal-9",
    ),  # 9 > 8 illegal, scored as it lies; Ann lowest; 101 out -> Bob last player
    pytest.param(
        chi([kn("Ann", 95, K("5H")), pl("Bob", 40, L("9C"))], elimination_total=101),
        exp({"Ann": (5, 100, 5, False), "Bob": (9, 49, 9, False)}, knock=("Ann", 5, 5, True)),
        id="chi-limit-95-is-5-legal",
    ),  # limit 5, deadwood 5 legal; 95+5 = 100 < 101
    pytest.param(
        chi([kn("Ann", 95, K("6D")), pl("Bob", 40, L("9C"))], elimination_total=101),
        exp(
            {"Ann": (6, 101, 6, True), "Bob": (9, 49, 9, False)},
            knock=("Ann", 5, 6, False),
            over=True,
            winner="Bob",
        ),
        id="chi-limit-95-illegal-6",
    ),  # 6 > 5 illegal; 6 < 9 no penalty; 101 >= 101 out -> Bob wins
    pytest.param(
        chi([kn("Ann", 99, K("AD")), pl("Bob", 95, L("3S"))]),
        exp(
            {"Ann": (1, 100, 1, True), "Bob": (3, 98, 3, False)},
            knock=("Ann", 1, 1, True),
            over=True,
            winner="Bob",
        ),
        id="chi-limit-99-is-1-then-out-at-100",
    ),  # limit 1, deadwood 1 legal; 99+1 = 100 reaches 100 -> out; 95+3 = 98 -> Bob wins
    pytest.param(
        chi([kn("Ann", 99, K("AD")), pl("Bob", 95, L("3S"))], elimination_total=101),
        exp({"Ann": (1, 100, 1, False), "Bob": (3, 98, 3, False)}, knock=("Ann", 1, 1, True)),
        id="chi-elimination-101-keeps-100",
    ),  # same hand, 100 < 101: nobody out, game goes on
    pytest.param(
        chi([kn("Ann", 100, F0), pl("Bob", 50, L("3S"))], elimination_total=101),
        exp({"Ann": (0, 100, 0, False), "Bob": (3, 53, 3, False)}, knock=("Ann", 0, 0, False)),
        id="chi-limit-100-may-not-knock",
    ),  # limit min(9, 0) = 0: may not knock even with 0 deadwood; 0 < 3 no penalty
    # --- knock penalty
    pytest.param(
        chi([kn("Ann", 10, K("5H")), pl("Bob", 20, L("3S"))]),
        exp({"Ann": (20, 30, 5, False), "Bob": (3, 23, 3, False)}, knock=("Ann", 9, 5, True)),
        id="chi-knocker-not-lowest-plus-15",
    ),  # 5 > 3: Ann 5+15 = 20, 10+20 = 30; Bob 20+3
    pytest.param(
        chi([kn("Ann", 10, K("5H")), pl("Bob", 20, L("5S"))]),
        exp({"Ann": (5, 15, 5, False), "Bob": (5, 25, 5, False)}, knock=("Ann", 9, 5, True)),
        id="chi-tie-safe-no-penalty",
    ),  # 5 = 5, knocker_tie safe (default): no penalty
    pytest.param(
        chi([kn("Ann", 10, K("5H")), pl("Bob", 20, L("5S"))], knocker_tie="penalised"),
        exp({"Ann": (20, 30, 5, False), "Bob": (5, 25, 5, False)}, knock=("Ann", 9, 5, True)),
        id="chi-tie-penalised",
    ),  # 5 = 5, penalised: 5+15 = 20
    pytest.param(
        chi([kn("Ann", 10, K("AD")), pl("Bob", 20, L("3S"))], knocker_tie="penalised"),
        exp({"Ann": (1, 11, 1, False), "Bob": (3, 23, 3, False)}, knock=("Ann", 9, 1, True)),
        id="chi-penalised-strictly-lowest-pays-nothing",
    ),  # 1 < 3: no penalty even with penalised
    pytest.param(
        chi([kn("Ann", 10, K("5H")), pl("Bob", 20, L("3S"))], knock_penalty=20),
        exp({"Ann": (25, 35, 5, False), "Bob": (3, 23, 3, False)}, knock=("Ann", 9, 5, True)),
        id="chi-knock-penalty-20",
    ),  # 5 > 3: 5+20 = 25, 10+25 = 35
    pytest.param(
        chi([kn("Ann", 0, K("5H")), pl("Bob", 0, B55), pl("Cat", 0, L("3S"))]),
        exp(
            {"Ann": (20, 20, 5, False), "Bob": (55, 55, 55, False), "Cat": (3, 3, 3, False)},
            knock=("Ann", 9, 5, True),
        ),
        id="chi-penalty-three-players",
    ),  # Cat's 3 < Ann's 5: Ann 5+15 = 20 although Bob has 55
    pytest.param(
        chi([kn("Ann", 0, "QH KH AH 5C 5D 5S 9C"), pl("Bob", 0, L("3S"))]),
        exp({"Ann": (45, 45, 30, False), "Bob": (3, 3, 3, False)}, knock=("Ann", 9, 30, False)),
        id="chi-illegal-knock-not-lowest",
    ),  # Ann 10+10+1+9 = 30 > 9 illegal, scored as it lies: 30 > 3 -> 30+15 = 45
    # --- going rummy
    pytest.param(
        chi([pl("Ann", 50, F0, rummy=True), pl("Bob", 20, L("3S")), pl("Cat", 10, B55)]),
        exp({"Ann": (0, 50, 0, False), "Bob": (3, 23, 3, False), "Cat": (55, 65, 55, False)}),
        id="chi-rummy-everyone-adds-deadwood",
    ),  # no knock; Ann 0, Bob 20+3, Cat 10+55, no penalty
    pytest.param(
        chi(
            [pl("Ann", 0, F0, rummy=True), pl("Bob", 0, "6H 7H 8H KD KC KS KH")],
            knocker_tie="penalised",
        ),
        exp({"Ann": (0, 0, 0, False), "Bob": (0, 0, 0, False)}),
        id="chi-rummy-tie-no-penalty",
    ),  # Bob also 0 (6-7-8H + KKKK); rummy -> no penalty even with penalised
    # --- knocker showing 8 cards
    pytest.param(
        chi([kn("Ann", 0, K("KH") + " AD"), pl("Bob", 0, B55)]),
        exp({"Ann": (1, 1, 1, False), "Bob": (55, 55, 55, False)}, knock=("Ann", 9, 1, True)),
        id="chi-eight-cards-best-seven",
    ),  # drop KH (leaves AD = 1; dropping AD leaves 10): deadwood 1
    pytest.param(
        chi([kn("Ann", 0, K("KH") + " AD"), pl("Bob", 0, B55)], knocker_shows="as_shown"),
        exp({"Ann": (11, 11, 11, False), "Bob": (55, 55, 55, False)}, knock=("Ann", 9, 11, False)),
        id="chi-eight-cards-as-shown",
    ),  # all 8 count: KH+AD = 11 > 9 illegal; 11 < 55 no penalty
    # --- elimination and the last player standing
    pytest.param(
        chi([kn("Ann", 10, K("AD")), pl("Bob", 90, B55), pl("Cat", 97, L("3S"))]),
        exp(
            {"Ann": (1, 11, 1, False), "Bob": (55, 145, 55, True), "Cat": (3, 100, 3, True)},
            knock=("Ann", 9, 1, True),
            over=True,
            winner="Ann",
        ),
        id="chi-last-player-standing",
    ),  # Bob 90+55 = 145, Cat 97+3 = 100 both out -> Ann is the last one left
    pytest.param(
        chi([kn("Ann", 10, K("AD")), pl("Bob", 90, B55), pl("Cat", 20, L("3S"))]),
        exp(
            {"Ann": (1, 11, 1, False), "Bob": (55, 145, 55, True), "Cat": (3, 23, 3, False)},
            knock=("Ann", 9, 1, True),
        ),
        id="chi-one-of-three-out",
    ),  # only Bob out; Ann and Cat remain -> game goes on
    pytest.param(
        chi([kn("Ann", 99, K("AD")), pl("Bob", 98, L("3S"))]),
        exp(
            {"Ann": (1, 100, 1, True), "Bob": (3, 101, 3, True)},
            knock=("Ann", 1, 1, True),
            over=True,
            winner="Ann",
        ),
        id="chi-all-out-lowest-wins",
    ),  # both out in one hand: 100 < 101 -> Ann
    pytest.param(
        chi([kn("Ann", 99, K("AD")), pl("Bob", 97, L("3S"))]),
        exp(
            {"Ann": (1, 100, 1, True), "Bob": (3, 100, 3, True)},
            knock=("Ann", 1, 1, True),
            over=True,
            winner=None,
        ),
        id="chi-all-out-tie-is-draw",
    ),  # 99+1 = 100 = 97+3: draw, winner null
    # --- instant win
    pytest.param(
        chi([kn("Ann", 0, K("5H")), pl("Bob", 0, "7H 7H 7S 7D 7C 2C 2D")]),
        exp(
            {"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)},
            knock=("Ann", 9, 5, True),
            over=True,
            winner="Bob",
        ),
        id="chi-instant-seven-of-a-kind-with-twos",
    ),  # Bob five 7s + two 2s: instant win; hand still scored: Ann 5 > 0 -> 20
    pytest.param(
        chi([kn("Ann", 0, K("5H")), pl("Bob", 0, "2C 2C 2D 2D 2H 2H 2S")]),
        exp(
            {"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)},
            knock=("Ann", 9, 5, True),
            over=True,
            winner="Bob",
        ),
        id="chi-instant-seven-twos",
    ),  # seven 2s count as seven of a kind; Ann 5 > 0 -> 20
    pytest.param(
        chi([kn("Ann", 0, K("5H")), pl("Bob", 0, "7H 7H 7S 7D 7C 2C 2D")], instant_win="off"),
        exp({"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)}, knock=("Ann", 9, 5, True)),
        id="chi-instant-win-off",
    ),  # same hands, no instant win: game goes on
    pytest.param(
        chi(
            [kn("Ann", 0, K("5H")), pl("Bob", 0, "3S 4S 5S 6S 7S 8S 9S")],
            instant_win="any_seven_card_meld",
        ),
        exp(
            {"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)},
            knock=("Ann", 9, 5, True),
            over=True,
            winner="Bob",
        ),
        id="chi-instant-seven-card-run",
    ),  # 3S..9S is one 7-card meld -> Bob wins; Ann 5+15
    pytest.param(
        chi([kn("Ann", 0, K("5H")), pl("Bob", 0, "3S 4S 5S 6S 7S 8S 9S")]),
        exp({"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)}, knock=("Ann", 9, 5, True)),
        id="chi-seven-card-run-not-instant-by-default",
    ),  # default seven_of_a_kind: a run is not seven of a kind
    pytest.param(
        chi(
            [kn("Ann", 0, K("5H")), pl("Bob", 0, "6H 7H 8H KD KC KS KH")],
            instant_win="any_seven_card_meld",
        ),
        exp({"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)}, knock=("Ann", 9, 5, True)),
        id="chi-two-melds-not-one-seven-card-meld",
    ),  # 3-card run + 4-card set is not ONE meld: no instant win
    pytest.param(
        chi([pl("Ann", 30, "7H 7S 7D 7C 2H 2S 7H", rummy=True), pl("Bob", 40, K("AD"))]),
        exp({"Ann": (0, 30, 0, False), "Bob": (1, 41, 1, False)}, over=True, winner="Ann"),
        id="chi-instant-win-by-rummy-player",
    ),  # Ann goes rummy with five 7s + two 2s: wins; Bob 40+1
    # --- harder solver and instant-win cases
    pytest.param(
        chi([pl("Ann", 0, "5H 6H 7H 7H 8H KS QD"), kn("Bob", 0, K("AD"))]),
        exp({"Ann": (27, 27, 27, False), "Bob": (1, 1, 1, False)}, knock=("Bob", 9, 1, True)),
        id="chi-run-cannot-use-identical-card-twice",
    ),  # Ann: 5-6-7-8H takes one 7H; the other 7H + KS + QD = 7+10+10 = 27
    pytest.param(
        chi([kn("Ann", 0, "QH KH 2C 5S 5D 5C 9D"), pl("Bob", 0, B55)]),
        exp({"Ann": (9, 9, 9, False), "Bob": (55, 55, 55, False)}, knock=("Ann", 9, 9, True)),
        id="chi-two-as-jack-below-q-k",
    ),  # 2C as JH: J-Q-K run + 555, 9D = 9 <= 9
    pytest.param(
        chi([kn("Ann", 0, "5H 6H 7H 7S 7D KC KD KS"), pl("Bob", 0, B55)]),
        exp({"Ann": (5, 5, 5, False), "Bob": (55, 55, 55, False)}, knock=("Ann", 9, 5, True)),
        id="chi-eight-cards-drop-card-from-run",
    ),  # 8 cards: 777+KKK leaves 5H+6H = 11; drop 6H -> 5H = 5 (drop 5H -> 6, drop 7S -> 7)
    pytest.param(
        chi([kn("Ann", 93, K("8D")), pl("Bob", 0, B55)]),
        exp(
            {"Ann": (8, 101, 8, True), "Bob": (55, 55, 55, False)},
            knock=("Ann", 7, 8, False),
            over=True,
            winner="Bob",
        ),
        id="chi-limit-93-is-7",
    ),  # limit 100-93 = 7 < 8 illegal; 8 < 55 no penalty; 93+8 = 101 out -> Bob wins
    pytest.param(
        chi([kn("Ann", 0, "7H 7H 7S 7D 7C 2C 2D KH"), pl("Bob", 0, K("AD"))]),
        exp(
            {"Ann": (0, 0, 0, False), "Bob": (1, 1, 1, False)},
            knock=("Ann", 9, 0, True),
            over=True,
            winner="Ann",
        ),
        id="chi-instant-win-in-knockers-eight-cards",
    ),  # drop KH: seven of a kind among the 8 -> Ann wins; deadwood 0 < 1
    pytest.param(
        chi([pl("Bob", 0, "8H 8H 8S 8D 8C 2H 2S"), kn("Ann", 0, "7H 7H 7S 7D 7C 2C 2D")]),
        exp(
            {"Bob": (0, 0, 0, False), "Ann": (0, 0, 0, False)},
            knock=("Ann", 9, 0, True),
            over=True,
            winner="Ann",
        ),
        id="chi-instant-win-ender-checked-first",
    ),  # both hold seven of a kind; Ann ended the hand -> Ann, though Bob sits first; tie safe
    pytest.param(
        chi(
            [kn("Ann", 0, K("5H")), pl("Bob", 0, "7H 7H 7S 7D 7C 2C 2D")],
            instant_win="any_seven_card_meld",
        ),
        exp(
            {"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)},
            knock=("Ann", 9, 5, True),
            over=True,
            winner="Bob",
        ),
        id="chi-any-meld-includes-set-of-seven",
    ),  # a 7-card set is one meld (sets any size by default); Ann 5 > 0 -> 20
    pytest.param(
        chi(
            [kn("Ann", 0, K("5H")), pl("Bob", 0, "7H 7H 7S 7D 7C 2C 2D")],
            instant_win="any_seven_card_meld",
            duplicates_in_set=False,
        ),
        exp({"Ann": (20, 20, 5, False), "Bob": (0, 0, 0, False)}, knock=("Ann", 9, 5, True)),
        id="chi-any-meld-respects-duplicates-false",
    ),  # sets capped at 4: no single meld; Bob 7H7S7D7C + 7H-2C-2D = 0; Ann 5 > 0 -> 20
]

# --------------------------------------------------------------------------- Rummy (basic)

RUMMY = [
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, "KH 5C AD"), rp("Cat", 0, "9S 9D")]),
        exp({"Ann": (34, 34), "Bob": (0, 0), "Cat": (0, 0)}),
        id="rum-winner-collects",
    ),  # (10+5+1) + (9+9) = 34
    pytest.param(
        rum(
            [
                rp("Ann", 0, [], out=True, rummy=True),
                rp("Bob", 0, "KH 5C AD"),
                rp("Cat", 0, "9S 9D"),
            ]
        ),
        exp({"Ann": (68, 68), "Bob": (0, 0), "Cat": (0, 0)}),
        id="rum-rummy-doubles",
    ),  # 34 x 2 = 68
    pytest.param(
        rum([rp("Ann", 10, [], out=True), rp("Bob", 20, "AH AC 3D")]),
        exp({"Ann": (5, 15), "Bob": (0, 20)}),
        id="rum-ace-low-counts-1",
    ),  # 1+1+3 = 5
    pytest.param(
        rum([rp("Ann", 10, [], out=True), rp("Bob", 20, "AH AC 3D")], ace="high_or_low"),
        exp({"Ann": (33, 43), "Bob": (0, 20)}),
        id="rum-ace-high-or-low-counts-15",
    ),  # 15+15+3 = 33
    pytest.param(
        rum([rp("Ann", 140, [], out=True), rp("Bob", 100, "KH 5C AD")]),
        exp({"Ann": (16, 156), "Bob": (0, 100)}, over=True, winner="Ann"),
        id="rum-target-150-passed",
    ),  # 140+16 = 156 >= 150
    pytest.param(
        rum([rp("Ann", 134, [], out=True), rp("Bob", 100, "KH 5C AD")]),
        exp({"Ann": (16, 150), "Bob": (0, 100)}, over=True, winner="Ann"),
        id="rum-target-150-exact",
    ),  # 134+16 = 150 reaches 150
    pytest.param(
        rum([rp("Ann", 120, [], out=True), rp("Bob", 149, "KH 5C AD")]),
        exp({"Ann": (16, 136), "Bob": (0, 149)}),
        id="rum-target-not-reached",
    ),  # 120+16 = 136 < 150; Bob stays 149
    pytest.param(
        rum([rp("Ann", 140, [], out=True), rp("Bob", 100, "KH 5C AD")], target=200),
        exp({"Ann": (16, 156), "Bob": (0, 100)}),
        id="rum-target-200",
    ),  # 156 < 200
    pytest.param(
        rum([rp("Ann", 5, "7C 7D 7S QH"), rp("Bob", 6, "10H"), rp("Cat", 7, [], out=True)]),
        exp({"Ann": (0, 5), "Bob": (0, 6), "Cat": (41, 48)}),
        id="rum-held-meld-still-counts",
    ),  # Ann's unmelded 777 counts: 21+10 = 31, Bob 10 -> Cat 41, 7+41 = 48
    pytest.param(
        rum(
            [rp("Ann", 0, [], out=True), rp("Bob", 0, "KH 5C AD"), rp("Cat", 0, "9S 9D")],
            final_discard_required=True,
        ),
        exp({"Ann": (34, 34), "Bob": (0, 0), "Cat": (0, 0)}),
        id="rum-final-discard-no-effect",
    ),  # play rule only: still 34
]

# --------------------------------------------------------------------------- Rummy 10-card

RUMMY10 = [
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, "KH QH JH AS")], "rummy10"),
        exp({"Ann": (31, 31), "Bob": (0, 0)}),
        id="r10-winner-collects-ace-1",
    ),  # held run still counts: 10+10+10+1 = 31
    pytest.param(
        rum([rp("Ann", 0, [], out=True, rummy=True), rp("Bob", 0, "KH QH JH AS")], "rummy10"),
        exp({"Ann": (62, 62), "Bob": (0, 0)}),
        id="r10-rummy-doubles",
    ),  # 31 x 2
    pytest.param(
        rum([rp("Ann", 80, [], out=True), rp("Bob", 90, "KH QH JH AS")], "rummy10"),
        exp({"Ann": (31, 111), "Bob": (0, 90)}, over=True, winner="Ann"),
        id="r10-target-100",
    ),  # 80+31 = 111 >= 100
    pytest.param(
        rum([rp("Ann", 80, [], out=True), rp("Bob", 90, "KH QH JH AS")], "rummy10", target=300),
        exp({"Ann": (31, 111), "Bob": (0, 90)}),
        id="r10-target-300-not-reached",
    ),  # 111 < 300
    pytest.param(
        rum([rp("Ann", 280, [], out=True), rp("Bob", 90, "KH QH JH AS")], "rummy10", target=300),
        exp({"Ann": (31, 311), "Bob": (0, 90)}, over=True, winner="Ann"),
        id="r10-target-300-reached",
    ),  # 280+31 = 311 >= 300
    pytest.param(
        rum([rp("Ann", 10, "5C"), rp("Bob", 20, "KH QD"), rp("Cat", 30, "9S 8S 7S 6S")], "rummy10"),
        exp({"Ann": (0, 10), "Bob": (0, 20), "Cat": (0, 30)}),
        id="r10-exhausted-void",
    ),  # nobody out, void: nobody scores
    pytest.param(
        rum(
            [rp("Ann", 10, "5C"), rp("Bob", 20, "KH QD"), rp("Cat", 30, "9S 8S 7S 6S")],
            "rummy10",
            exhausted_hand="lowest_hand_collects",
        ),
        exp({"Ann": (50, 60), "Bob": (0, 20), "Cat": (0, 30)}),
        id="r10-exhausted-lowest-collects",
    ),  # Ann 5 lowest; collects 20 + 30 = 50
    pytest.param(
        rum(
            [rp("Ann", 60, "5C"), rp("Bob", 20, "KH QD"), rp("Cat", 30, "9S 8S 7S 6S")],
            "rummy10",
            exhausted_hand="lowest_hand_collects",
        ),
        exp({"Ann": (50, 110), "Bob": (0, 20), "Cat": (0, 30)}, over=True, winner="Ann"),
        id="r10-exhausted-collects-reaches-target",
    ),  # 60+50 = 110 >= 100
    pytest.param(
        rum(
            [rp("Ann", 10, "5C"), rp("Bob", 20, "4D AH"), rp("Cat", 30, "KH")],
            "rummy10",
            exhausted_hand="lowest_hand_collects",
        ),
        exp({"Ann": (0, 10), "Bob": (0, 20), "Cat": (0, 30)}),
        id="r10-exhausted-tie-for-lowest",
    ),  # Ann 5 = Bob 4+1 = 5: tie for lowest -> nobody scores
]

# --------------------------------------------------------------------------- Rummy 500

RUMMY500 = [
    pytest.param(
        r500(
            [
                fp("Ann", 100, ["AH 2H 3H"], "KC"),
                fp("Bob", 0, ["QS KS AS"]),
                fp("Cat", 10, [], "AD JK"),
            ]
        ),
        exp({"Ann": (-4, 96), "Bob": (35, 35), "Cat": (-30, -20)}),
        id="r500-basic-low-ace-high-ace-negative",
    ),  # Ann (1+2+3) - 10 = -4; Bob 10+10+15 = 35; Cat -(15+15) = -30, 10-30 = -20
    pytest.param(
        r500([fp("Ann", 0, ["AC AD AS"]), fp("Bob", 0, ["5H 6H 7H"], "2C")]),
        exp({"Ann": (45, 45), "Bob": (16, 16)}),
        id="r500-set-of-aces",
    ),  # 3 x 15 = 45; Bob 18 - 2 = 16
    pytest.param(
        r500([fp("Ann", 0, ["AC JK 3C"]), fp("Bob", 0, ["8D 9D 10D"], "AH")]),
        exp({"Ann": (19, 19), "Bob": (12, 12)}),
        id="r500-joker-as-2-low-ace",
    ),  # A-JK(2)-3: 1+15+3 = 19; Bob 27 - 15 = 12
    pytest.param(
        r500([fp("Ann", 0, ["AC JK JK"]), fp("Bob", 0, ["4D 5D 6D"])]),
        exp({"Ann": (45, 45), "Bob": (15, 15)}),
        id="r500-ace-with-two-jokers-reads-as-set",
    ),  # can be read as a set of aces -> ace 15: 15+15+15 = 45
    pytest.param(
        r500(
            [
                fp("Ann", 0, [{"cards": ["AD"], "on": ["2D", "3D", "4D"]}], "5S"),
                fp("Bob", 0, ["2D 3D 4D"], "KC"),
                fp("Cat", 0, ["AC"]),
            ]
        ),
        exp({"Ann": (-4, -4), "Bob": (-1, -1), "Cat": (15, 15)}),
        id="r500-layoff-on-run",
    ),  # AD on 2-3-4D = 1, -5 -> -4; Bob 9 - 10 = -1; lone AC read on its own = 15
    pytest.param(
        r500([fp("Ann", 0, ["AH 2H 3H 4H"]), fp("Bob", 0, ["9C 9D 9S"], "3S")]),
        exp({"Ann": (10, 10), "Bob": (24, 24)}),
        id="r500-a234-run",
    ),  # 1+2+3+4 = 10; Bob 27 - 3 = 24
    pytest.param(
        r500([fp("Ann", 0, ["5C 6C 7C"], "AH 2H 3H"), fp("Bob", 0, ["KD KS KH"])]),
        exp({"Ann": (-2, -2), "Bob": (30, 30)}),
        id="r500-held-ace-is-15",
    ),  # held cards are not melded: 18 - (15+2+3) = -2
    pytest.param(
        r500(
            [
                fp("Ann", 0, ["AH 2H 3H", "10S JS QS"], "9D AC"),
                fp("Bob", 0, ["JK KH KC"], "4S"),
                fp("Cat", 0, ["QD KD AD"], "10C"),
            ],
            scoring="5-10-15",
        ),
        exp({"Ann": (25, 25), "Bob": (30, 30), "Cat": (25, 25)}),
        id="r500-5-10-15",
    ),  # Ann 5+5+5 + 30 - (5+15) = 25; Bob 15+10+10-5 = 30; Cat 10+10+15-10 = 25
    pytest.param(
        r500([fp("Ann", 480, ["10H JH QH"]), fp("Bob", 470, ["8C 8D 8S"], "4H")]),
        exp({"Ann": (30, 510), "Bob": (20, 490)}, over=True, winner="Ann"),
        id="r500-reaches-500",
    ),  # 480+30 = 510; 470+24-4 = 490
    pytest.param(
        r500([fp("Ann", 480, ["10H JH QH"]), fp("Bob", 490, ["8C 8D 8S"], "4H")]),
        exp({"Ann": (30, 510), "Bob": (20, 510)}),
        id="r500-tie-at-top-plays-on",
    ),  # 510 = 510: another hand, no winner
    pytest.param(
        r500([fp("Ann", 480, ["10H JH QH"]), fp("Bob", 500, ["8C 8D 8S"], "4H")]),
        exp({"Ann": (30, 510), "Bob": (20, 520)}, over=True, winner="Bob"),
        id="r500-highest-wins",
    ),  # both over 500, 520 > 510 -> Bob
    pytest.param(
        r500([fp("Ann", 280, ["10H JH QH"]), fp("Bob", 100, ["8C 8D 8S"], "4H")], target=300),
        exp({"Ann": (30, 310), "Bob": (20, 120)}, over=True, winner="Ann"),
        id="r500-target-300",
    ),  # 310 >= 300
    pytest.param(
        r500([fp("Ann", 0, ["7H 7S 7D"]), fp("Bob", 0, ["7H 8H 9H"], "JK")], decks=2),
        exp({"Ann": (21, 21), "Bob": (9, 9)}),
        id="r500-two-decks-two-7h",
    ),  # Ann 21; Bob 24 - 15 = 9
    pytest.param(
        r500([fp("Ann", 0, ["4C 5C 6C"], "JK JK JK"), fp("Bob", 0, [], "JK")], decks=2),
        exp({"Ann": (-30, -30), "Bob": (-15, -15)}),
        id="r500-two-decks-four-jokers",
    ),  # jokers per deck: 4 allowed; Ann 15 - 45 = -30; Bob -15
    pytest.param(
        r500([fp("Ann", 0, ["AH 2H 3H"]), fp("Bob", 0, ["QS KS AS"], "4D")], jokers=0),
        exp({"Ann": (6, 6), "Bob": (31, 31)}),
        id="r500-no-jokers",
    ),  # 1+2+3 = 6; 35 - 4 = 31
    pytest.param(
        r500([fp("Ann", 0, ["3H AH 2H"]), fp("Bob", 0, ["KC QC JC"], "5D")]),
        exp({"Ann": (6, 6), "Bob": (25, 25)}),
        id="r500-run-listed-out-of-order",
    ),  # 3-A-2 read as the run A-2-3: 1+2+3 = 6; Bob 30 - 5 = 25
    pytest.param(
        r500([fp("Ann", 0, ["AH 2H JK"], "jk"), fp("Bob", 0, ["AS AD AC"])]),
        exp({"Ann": (3, 3), "Bob": (45, 45)}),
        id="r500-a-2-joker-and-lowercase-jk",
    ),  # A-2-JK(3): 1+2+15 = 18, held joker -15 -> 3; set of aces 45
    pytest.param(
        r500([fp("Ann", 470, ["10H JH QH"]), fp("Bob", 400, ["8C 8D 8S"], "4H")]),
        exp({"Ann": (30, 500), "Bob": (20, 420)}, over=True, winner="Ann"),
        id="r500-exactly-500",
    ),  # 470+30 = 500 reaches 500
]

GOOD = CHICAGO + RUMMY + RUMMY10 + RUMMY500
GOOD_BY_ID = {p.id: p.values for p in GOOD}

# --------------------------------------------------------------------------- running the good lines


_results: dict[str, dict] = {}


def _batch() -> None:
    if _results:
        return
    text = "".join(json.dumps(p.values[0], ensure_ascii=False) + "\n" for p in GOOD)
    proc = run_score(text)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if proc.returncode == 0 and len(lines) == len(GOOD):
        for p, ln in zip(GOOD, lines, strict=True):
            _results[p.id] = {"out": json.loads(ln), "err": ""}
        return
    for p in GOOD:  # something failed: run each line alone so every case reports its own result
        one = run_score(json.dumps(p.values[0], ensure_ascii=False) + "\n")
        outs = [ln for ln in one.stdout.splitlines() if ln.strip()]
        ok = one.returncode == 0 and len(outs) == 1
        _results[p.id] = {
            "out": json.loads(outs[0]) if ok else None,
            "err": f"rc={one.returncode} stdout={one.stdout!r} stderr={one.stderr!r}",
        }


def card_points(code: str) -> int:
    rank = code[:-1]
    if rank == "A":
        return 1
    if rank in ("J", "Q", "K"):
        return 10
    return int(rank)


@pytest.mark.parametrize(("line", "want"), GOOD)
def test_score(request, line, want):
    _batch()
    got = _results[request.node.callspec.id]
    assert got["out"] is not None, got["err"]
    out = got["out"]
    chicago = line["variant"] == "chicago"

    names = [p["name"] for p in line["players"]]
    assert [p["name"] for p in out["players"]] == names
    for player in out["players"]:
        w = want["players"][player["name"]]
        assert (player["points"], player["total"]) == w[:2], player
        if chicago:
            assert player["deadwood"] == w[2], player
            assert bool(player["eliminated"]) is w[3], player
            unmelded = player["unmelded"]
            assert all(CANONICAL.match(c) for c in unmelded), unmelded
            assert sum(card_points(c) for c in unmelded) == player["deadwood"], player
            for meld in player.get("melds") or []:
                assert all(CANONICAL.match(c) for c in meld), meld

    knock = out.get("knock")
    if want["knock"] is None:
        assert knock is None
    else:
        assert knock is not None
        got_knock = (knock["player"], knock["limit"], knock["deadwood"], knock["legal"])
        assert got_knock == want["knock"]
    assert out["game_over"] is want["over"]
    assert out["winner"] == want["winner"]


def test_card_codes_printed_canonically():
    _batch()
    out = _results["chi-card-codes-suits-case-T"]["out"]
    assert out is not None
    ann, bob = out["players"]
    assert ann["unmelded"] == ["AD"]
    assert bob["unmelded"] == ["4C"]
    assert any("10S" in meld for meld in bob["melds"]), bob["melds"]


def test_empty_input_prints_nothing():
    proc = run_score("")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_reads_file_argument(tmp_path):
    line = GOOD_BY_ID["rum-winner-collects"][0]
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    proc = subprocess.run(
        [*CMD, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    outs = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.strip()]
    assert [o["players"][0]["points"] for o in outs] == [34, 34]


# --------------------------------------------------------------------------- errors

# Two good lines come first; the bad line is line 3.
PREFIX = [
    chi([kn("Ann", 0, K("AD")), pl("Bob", 0, L("3S"))]),
    rum([rp("Ann", 0, [], out=True), rp("Bob", 0, "KH")]),
]

ERRORS = [
    # (bad line, a value stderr must name or None)
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 0, "ZZ 7H KS KD KC QH 3D")]),
        "ZZ",
        id="err-unknown-card",
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 0, "7X 7H KS KD KC QH 3D")]),
        "7X",
        id="err-unknown-suit",
    ),
    pytest.param(
        chi([kn("Ann", 0, "7H 7H 3C 4C 5C 9D 9S"), pl("Bob", 0, "7H KS KD KC QH 3D 4D")]),
        "7H",
        id="err-chicago-third-7h",
    ),  # two decks: at most two 7H
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 0, "JK KS KD KC QH 3D 4D")]),
        "JK",
        id="err-chicago-joker",
    ),
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, "7H 8C"), rp("Cat", 0, "7H")]),
        "7H",
        id="err-rummy-second-7h",
    ),
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, "JK 8C")]), "JK", id="err-rummy-joker"
    ),
    pytest.param(
        r500([fp("Ann", 0, ["7H 8H 9H"]), fp("Bob", 0, [], "7H")]),
        "7H",
        id="err-r500-second-7h-one-deck",
    ),
    pytest.param(
        r500([fp("Ann", 0, ["AH 2H 3H"]), fp("Bob", 0, [], "JK")], jokers=0),
        "JK",
        id="err-r500-joker-with-jokers-0",
    ),
    pytest.param(
        r500([fp("Ann", 0, ["JK JK 5C"]), fp("Bob", 0, [], "JK")]), "JK", id="err-r500-third-joker"
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Ann", 0, L("3S"))]), "Ann", id="err-chicago-player-twice"
    ),
    pytest.param(
        r500([fp("Bob", 0, ["AH 2H 3H"]), fp("Bob", 0, [], "KC")]),
        "Bob",
        id="err-r500-player-twice",
    ),
    pytest.param(rum([rp("Ann", 0, "5C"), rp("Bob", 0, "KH")]), None, id="err-rummy-no-winner"),
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, [], out=True)]),
        None,
        id="err-rummy-two-went-out",
    ),
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, "KH", rummy=True)]),
        None,
        id="err-rummy-claim-by-loser",
    ),
    pytest.param(
        rum([rp("Ann", 0, "3C", out=True), rp("Bob", 0, "KH")]),
        None,
        id="err-rummy-winner-holds-cards",
    ),
    pytest.param(
        rum([rp("Ann", 0, [], out=True), rp("Bob", 0, [], out=True)], "rummy10"),
        None,
        id="err-rummy10-two-went-out",
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 100, L("3S"))]),
        None,
        id="err-chicago-player-already-eliminated",
    ),  # 100 >= elimination_total 100
    pytest.param(
        chi([pl("Ann", 0, K("AD")), pl("Bob", 0, L("3S"))]), None, id="err-chicago-nobody-ended"
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), kn("Bob", 0, L("3S"))]), None, id="err-chicago-two-knockers"
    ),
    pytest.param(
        chi([pl("Ann", 0, K("KH"), rummy=True), pl("Bob", 0, L("3S"))]),
        None,
        id="err-chicago-false-rummy-claim",
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 0, L("3S") + " 4D")]),
        None,
        id="err-chicago-eight-cards-non-knocker",
    ),
    pytest.param(
        {"variant": "poker", "players": [rp("Ann", 0, [], out=True)]},
        "poker",
        id="err-unknown-variant",
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 0, L("3S"))], wild_jacks=True),
        "wild_jacks",
        id="err-unknown-setting",
    ),
    pytest.param(
        chi([kn("Ann", 0, K("AD")), pl("Bob", 0, L("3S"))], knocker_tie="sometimes"),
        "sometimes",
        id="err-bad-setting-value",
    ),
    pytest.param(
        r500([fp("Ann", 0, ["AH 2H 3H"]), fp("Bob", 0, [], "KC")], scoring="1-2-3"),
        "1-2-3",
        id="err-bad-scoring-value",
    ),
    pytest.param("{not json", None, id="err-not-json"),
    pytest.param("[1, 2, 3]", None, id="err-json-not-an-object"),
]


def _mentions_line(err: str, n: int) -> bool:
    return bool(re.search(rf"(?i)\bline\W{{0,3}}{n}\b", err) or re.search(rf":{n}(?::|\b)", err))


@pytest.mark.parametrize(("bad", "value"), ERRORS)
def test_bad_input(bad, value):
    bad_text = bad if isinstance(bad, str) else json.dumps(bad)
    text = "".join(json.dumps(p) + "\n" for p in PREFIX) + bad_text + "\n"
    proc = run_score(text)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert _mentions_line(proc.stderr, 3), proc.stderr
    if value is not None:
        assert value.lower() in proc.stderr.lower(), proc.stderr
    outs = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    assert len(outs) <= 2, proc.stdout  # earlier good lines may print; never the bad one
    for ln in outs:
        json.loads(ln)
