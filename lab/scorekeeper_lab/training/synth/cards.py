"""Card codes and the element ids under which each art source names them.

Codes follow `scorekeeper.vision.classes` (`AS`, `10H`, `JK`) so the detector's 53-class
variant and the lead's reader agree on one order. A deck has two joker faces; the second is
stored as `JK2` but is labelled `JK`, because a player cannot tell them apart in rummy.
"""

from __future__ import annotations

from scorekeeper.vision.classes import CARD_CODES

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
FACE_KEYS: tuple[str, ...] = (*CARD_CODES, "JK2")
BACK = "back"

_SUIT_WORD = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANK_WORD = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}


def card_of(face_key: str) -> str:
    """The label a face carries: both joker faces are `JK`."""
    return "JK" if face_key.startswith("JK") else face_key


def class_index(card: str) -> int:
    """Position of a card code in the 53-class order (suits C D H S, ranks A..K, then JK)."""
    return CARD_CODES.index(card)


def _split(code: str) -> tuple[str, str]:
    return code[:-1], code[-1]


def aisleriot_ids(code: str) -> list[str]:
    """Candidate ids in aisleriot's sheets: `club_1`, `heart_queen`, `joker_red`."""
    if code == "JK":
        return ["joker_red"]
    if code == "JK2":
        return ["joker_black"]
    rank, suit = _split(code)
    return [f"{_SUIT_WORD[suit]}_{_RANK_WORD.get(rank, rank)}"]


def kde_ids(code: str) -> list[str]:
    """Candidate ids in KDE's carddecks: `1_club`, `queen_heart`, various joker spellings."""
    if code == "JK":
        return ["red_joker", "red_jocker", "joker"]
    if code == "JK2":
        return ["black_joker", "black_jocker"]
    rank, suit = _split(code)
    return [f"{_RANK_WORD.get(rank, rank)}_{_SUIT_WORD[suit]}"]


def kennard_file(code: str) -> str | None:
    """File stem in the react-playing-cards package (`TS`, `QH`). Its joker (`2J`) has no
    corner index at all, so it is not used."""
    if code.startswith("JK"):
        return None
    rank, suit = _split(code)
    return ("T" if rank == "10" else rank) + suit
