"""Chicago Rummy (RULES.md §1) at its edges: the knock check, the eighth card, penalties,
instant wins and refusals that mutation testing found unpinned."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RulesError
from scorekeeper.rules.chicago import instant_win, knock_check, knock_limit
from scorekeeper.rules.chicago import score as chicago_score
from scorekeeper.rules.hand import MeldEntry, PlayerHand
from scorekeeper.rules.scoring import score_hand
from scorekeeper.rules.settings import ChicagoSettings
from tests.conftest import cards
from tests.helpers_score import p, row, score

CAT = "3H 3S 9D JD QD 5C 6C"  # 46 loose points
DAN = "3C 4D 6S 8C 10S JC QC"  # 51 loose points
TWO_LEFT = "5H 6H 7H 8H 9H AS AD"  # one run, two aces: 2 deadwood


@pytest.mark.parametrize(("total", "limit"), [
    (0, 9), (91, 9), (92, 8), (99, 1), (100, 0), (101, -1),
])
def test_knock_limit(total: int, limit: int) -> None:
    assert knock_limit(total) == limit


@pytest.mark.parametrize(("hand", "total", "legal"), [
    (TWO_LEFT, 98, True),      # limit 2, deadwood 2: exactly at the limit may knock
    (TWO_LEFT, 99, False),     # limit 1
    (TWO_LEFT, 0, True),
    ("5H 6H 7H 8H 9H 10H JH", 100, False),  # limit 0: no knock even with nothing left
    ("5H 6H 7H 8H 9H 10H JH", 99, True),
])
def test_knock_check_at_the_limit(hand: str, total: int, legal: bool) -> None:
    s = ChicagoSettings(elimination_total=101)
    check = knock_check(cards(hand), total, s)
    assert check["legal"] is legal
    assert check["limit"] == min(9, 100 - total)


def test_knock_check_shows_the_melds_it_found() -> None:
    check = knock_check(cards(TWO_LEFT), 0, ChicagoSettings())
    assert check == {"limit": 9, "deadwood": 2, "legal": True,
                     "melds": [["5H", "6H", "7H", "8H", "9H"]], "unmelded": ["AS", "AD"],
                     "dropped": None, "rummy": False}


@pytest.mark.parametrize(("hand", "message"), [
    ("5H 6H 7H JK AS AD 9C", "JK cannot exist"),
    ("5H 5H 5H 8H 9H AS AD", "5H appears 3 times"),
])
def test_knock_check_refuses_cards_the_decks_cannot_hold(hand: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        knock_check(cards(hand), 0, ChicagoSettings())


def test_scoring_directly_checks_complete_hands_by_default() -> None:
    players = [_hand("Ann", "5H 6H 7H", knocked=True), _hand("Cat", CAT)]
    with pytest.raises(RulesError, match="Ann holds 3 cards"):
        chicago_score(players, ChicagoSettings())


@pytest.mark.parametrize(("shows", "deadwood", "dropped", "legal"), [
    ("best_seven", 0, "KD", True),
    ("as_shown", 10, None, False),   # the K counts: 10 is over the limit of 9
])
def test_knock_check_with_an_eighth_card(shows: str, deadwood: int, dropped: str | None,
                                         legal: bool) -> None:
    s = ChicagoSettings(knocker_shows=shows)
    check = knock_check(cards("3H 4H 5H 6H 9C 9S 9D KD"), 0, s)
    assert (check["deadwood"], check["dropped"], check["legal"]) == (deadwood, dropped, legal)


@pytest.mark.parametrize(("hand", "deadwood", "dropped"), [
    ("5H 5H 5S 6C 7C 8C KD AD", 1, "KD"),   # the duplicate 5H is not the card to drop
    ("5H 5H 6C 7C 8C KD QD JD", 5, "5H"),   # here it is: one 5H leaves, the other stays
    ("KD 3H 4H 5H 6H 9C 9S 9D", 0, "KD"),   # the card to drop comes first
])
def test_eight_card_knocker_drops_the_costliest_card(hand: str, deadwood: int,
                                                     dropped: str) -> None:
    r = score("chicago", p("Ann", hand, knocked=True), p("Cat", CAT))
    ann = row(r, "Ann")
    assert (ann["deadwood"], ann["dropped"]) == (deadwood, dropped)
    assert "dropped" not in row(r, "Cat")


@pytest.mark.parametrize(("ann", "penalty"), [
    ("5H 6H 7H 8H 9H AS AD", 0),     # 2 < 46: lowest, no penalty
    ("7C 7D 7S 9H 3S 3D AH", 15),    # 16 > 4: Bob is lower
])
def test_each_players_penalty_field(ann: str, penalty: int) -> None:
    r = score("chicago", p("Ann", ann, knocked=True), p("Bob", "7H 7S 7D KC KS 2C 4H"))
    assert row(r, "Ann")["penalty"] == penalty
    assert row(r, "Bob")["penalty"] == 0
    assert row(r, "Ann")["points"] == row(r, "Ann")["deadwood"] + penalty
    assert row(r, "Bob")["points"] == 4


def test_rummy_gives_nobody_a_penalty_field() -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH", rummy=True), p("Cat", CAT))
    assert [x["penalty"] for x in r["players"]] == [0, 0]
    assert r["knock"] is None


def test_a_knocker_who_is_not_first_in_the_list() -> None:
    r = score("chicago", p("Cat", CAT), p("Ann", "7C 7D 7S 9H 3S 3D AH", knocked=True),
              p("Dan", DAN))
    # Ann's 16 is lower than 46 and 51: no penalty; the knock names Ann
    assert r["knock"]["player"] == "Ann" and r["knock"]["penalty"] == 0
    assert [x["points"] for x in r["players"]] == [46, 16, 51]


@pytest.mark.parametrize(("mode", "hand", "wins"), [
    ("seven_of_a_kind", "7H 7S 7D 7C 2S 2D 2H", True),   # four 7s and three wild twos
    ("seven_of_a_kind", "7H 7S 7D 7C 8H 2S 2D", False),  # an 8 is not a 7
    ("seven_of_a_kind", "7H 7S 7D 7C 7H 7S 7D", True),   # two decks: seven natural 7s
    ("seven_of_a_kind", "7H 7S 7D 7C 8H 8S 8D 2C", False),
    ("seven_of_a_kind", "7H 7S 7D 7C 7H 7S 2D KC", True),  # seven of the eight shown
    ("any_seven_card_meld", "3H 4H 5H 6H 7H 8H 9H KD", True),
    ("any_seven_card_meld", "3H 4H 5H 6H 7H 8H", False),  # six cards
    ("seven_of_a_kind", "7H 7S 7D 7C 7H 7S", False),
    ("off", "3H 4H 5H 6H 7H 8H 9H", False),
])
def test_instant_win_table(mode: str, hand: str, wins: bool) -> None:
    assert instant_win(cards(hand), ChicagoSettings(instant_win=mode)) is wins


def test_an_instant_win_by_a_player_who_did_not_end_the_hand() -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H AS AD", knocked=True),
              p("Bob", "7H 7S 7D 7C 2S 2D 2H"))
    assert (r["game_over"], r["winner"], r["instant_win"]) == (True, "Bob", "Bob")


def test_two_instant_wins_the_player_who_ended_the_hand_wins() -> None:
    r = score("chicago", p("Bob", "8H 8S 8D 8C 2S 2D 2H"),
              p("Ann", "7H 7S 7D 7C 2S 2D 2H", rummy=True))
    assert r["winner"] == "Ann" and r["instant_win"] == "Ann"


def test_no_instant_win_key_without_one() -> None:
    r = score("chicago", p("Ann", TWO_LEFT, knocked=True), p("Cat", CAT))
    assert "instant_win" not in r and r["game_over"] is False and r["winner"] is None


def test_the_last_player_standing_wins() -> None:
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H JH", total=99, rummy=True),
              p("Bob", "KH QS 10D 8C 7S 6D 4H", total=45), instant_win="off")
    # Ann 99 + 0; Bob 45 + 55 = 100: only Bob out, Ann standing wins
    assert r["winner"] == "Ann"
    r = score("chicago", p("Ann", "5H 6H 7H 8H 9H 10H AS", total=98, knocked=True),
              p("Bob", "KH QS 10D 8C 7S 6D 4H", total=45))
    # Ann 98 + 1 (the lowest: no penalty) = 99 stands; Bob 45 + 55 = 100 is out
    assert row(r, "Ann")["total"] == 99 and r["winner"] == "Ann"


def test_all_out_tied_for_lowest_total_has_no_winner() -> None:
    r = score("chicago", p("Ann", "KH QS 10D 8C 7S 6D 4H", total=50, knocked=True),
              p("Bob", "KD QH 10S 8D 7C 6S 4D", total=65))
    # Ann 50 + 55 (ties Bob's 55: safe, no penalty) = 105; Bob 65 + 55 = 120: both out
    assert row(r, "Ann")["total"] == 105 and row(r, "Bob")["total"] == 120
    assert r["game_over"] and r["winner"] == "Ann"
    r = score("chicago", p("Ann", "KH QS 10D 8C 7S 6D 4H", total=60, knocked=True),
              p("Bob", "KD QH 10S 8D 7C 6S 4D", total=60))
    assert [x["total"] for x in r["players"]] == [115, 115]
    assert r["game_over"] is True and r["winner"] is None


@pytest.mark.parametrize(("players", "message"), [
    ([p("Ann", TWO_LEFT, knocked=True, melds=["7C 8C 9C"]), p("Cat", CAT)],
     "Chicago melds stay in the hand"),
    ([p("Ann", TWO_LEFT, went_out=True), p("Cat", CAT)], "not 'went_out'"),
    ([p("Ann", TWO_LEFT, knocked=True, rummy=True), p("Cat", CAT)],
     "cannot both knock and go rummy"),
    ([p("Ann", TWO_LEFT, knocked=True)] + [p(f"P{i}", "") for i in range(8)], "2 to 8 players"),
    ([p("Ann", TWO_LEFT, knocked=True), p("Cat", CAT, total=100)], "Cat is already out"),
])
def test_refusals(players: list, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        score("chicago", *players)


def test_eight_players_are_scored() -> None:
    deck = [f"{r}{s}" for r in ("3", "4", "5", "6", "8", "9", "10", "J", "Q", "K")
            for s in "CDHS"] * 2
    hands = [" ".join(deck[i * 7:i * 7 + 7]) for i in range(8)]
    players = [p(f"P{i}", hand, knocked=i == 0) for i, hand in enumerate(hands)]
    r = score("chicago", *players, instant_win="off")
    assert len(r["players"]) == 8


def test_a_player_one_below_elimination_may_play() -> None:
    r = score("chicago", p("Ann", TWO_LEFT, knocked=True), p("Cat", CAT, total=99),
              elimination_total=100)
    assert row(r, "Cat")["total"] == 145 and row(r, "Cat")["eliminated"]


def _hand(name: str, text: str, **flags: bool) -> PlayerHand:
    return PlayerHand(name, 0, tuple(cards(text)), **flags)


def test_a_hand_stored_before_the_complete_check_is_still_scored() -> None:
    players = [_hand("Ann", "5H 6H 7H", knocked=True), _hand("Cat", "KD QS")]
    r = score_hand(ChicagoSettings(), players, complete=False)
    assert [x["points"] for x in r["players"]] == [0, 20]
    with pytest.raises(RulesError, match="Ann holds 3 cards"):
        score_hand(ChicagoSettings(), players)


def test_eight_cards_stay_refused_for_a_stored_hand_of_someone_else() -> None:
    players = [_hand("Ann", "5H 6H 7H", knocked=True), _hand("Cat", CAT + " KD")]
    with pytest.raises(RulesError, match="Cat shows 8 cards"):
        score_hand(ChicagoSettings(), players, complete=False)
    players = [_hand("Ann", "5H 6H 7H 8H 9H 10H JH QH", knocked=True), _hand("Cat", "KD")]
    assert score_hand(ChicagoSettings(), players, complete=False)["knock"]["deadwood"] == 0


def test_melds_on_a_stored_player_are_refused() -> None:
    ann = PlayerHand("Ann", 0, tuple(cards(TWO_LEFT)), (MeldEntry(tuple(cards("7C 8C 9C"))),),
                     knocked=True)
    with pytest.raises(RulesError, match="melds stay in the hand"):
        score_hand(ChicagoSettings(), [ann, _hand("Cat", CAT)])
