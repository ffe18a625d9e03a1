"""Chicago Rummy: penalty scoring with wild twos, the knock limit and elimination (§1)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from scorekeeper.rules.cards import Card, pip_value
from scorekeeper.rules.deck import DeckSpec
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.hand import PlayerHand
from scorekeeper.rules.melds import MeldRules, is_meld
from scorekeeper.rules.result import hand_result, player_result
from scorekeeper.rules.settings import ChicagoSettings
from scorekeeper.rules.solver import Solution, solve

LABEL = "Chicago Rummy"
DECK = DeckSpec(decks=2, jokers=0)
MIN_PLAYERS = 2
MAX_PLAYERS = 8
KNOCK_CEILING = 9
KNOCK_BASE = 100  # the limit is BASE minus the total, where that is under the ceiling
SEVEN = 7
MAX_DEADWOOD = SEVEN * 10  # seven unmelded tens and faces


def meld_rules(s: ChicagoSettings) -> MeldRules:
    return MeldRules(wild_twos=True, jokers_wild=False, duplicates_in_set=s.duplicates_in_set,
                     min_naturals=s.min_naturals)


def knock_limit(total: int) -> int:
    """Most deadwood a player may knock with; 0 or less means no knock at all."""
    return min(KNOCK_CEILING, KNOCK_BASE - total)


class KnockHandSize(RulesError):
    """A knock check asked of a partial or oversized hand: a verdict on it would be wrong
    (one card "knocks" with its own value); `cards` are what it was asked about."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards = [str(c) for c in cards]
        n = len(cards)
        listed = ", ".join(self.cards[:12]) + (", …" if n > 12 else "")
        super().__init__(f"a knock check takes the whole hand: {SEVEN} cards, or {SEVEN + 1} "
                         f"with the card just drawn; it got {n} card{'' if n == 1 else 's'}"
                         + (f" ({listed})" if n else ""))
        self.code = "knock_hand_size"
        self.params = {"count": n, "cards": self.cards[:12]}


def check_knock_size(cards: list[Card]) -> None:
    if len(cards) not in (SEVEN, SEVEN + 1):
        raise KnockHandSize(cards)


def knock_check(cards: list[Card], total: int, s: ChicagoSettings) -> dict[str, Any]:
    """The knock check for a hand before it is shown: limit, deadwood, legality and melds.

    Only a whole hand is judged (KnockHandSize otherwise); with the card just drawn (8) the
    best discard is dropped. Cards the two decks cannot hold (a joker, a third 7H) are
    refused, as when scoring: counted, a misread joker would look like a card worth nothing.
    `rummy`: no deadwood at all, so the player may go rummy instead of knocking."""
    check_knock_size(cards)
    DECK.check(cards)
    sol, dropped = best_hand(cards, s, knocker=True)
    limit = knock_limit(total)
    return {"limit": limit, "deadwood": sol.deadwood, "legal": limit > 0 and sol.deadwood <= limit,
            "melds": [[str(c) for c in m] for m in sol.melds],
            "unmelded": [str(c) for c in sol.unmelded],
            "dropped": None if dropped is None else str(dropped),
            "rummy": not sol.unmelded}


def best_hand(cards: list[Card], s: ChicagoSettings, *,
              knocker: bool) -> tuple[Solution, Card | None]:
    """Solve a hand; a knocker's eighth card is dropped where it costs the most (best seven)."""
    rules = meld_rules(s)
    if not (knocker and len(cards) == SEVEN + 1 and s.knocker_shows == "best_seven"):
        return solve(cards, rules, pip_value), None
    options = []
    for card in dict.fromkeys(cards):  # two identical cards: dropping either is the same
        rest = list(cards)
        rest.remove(card)
        options.append((solve(rest, rules, pip_value), card))
    return min(options, key=lambda option: option[0].deadwood)


def instant_win(cards: list[Card], s: ChicagoSettings) -> bool:
    if s.instant_win == "off" or len(cards) < SEVEN:
        return False
    rules = meld_rules(s)
    for seven in combinations(cards, SEVEN):
        if s.instant_win == "seven_of_a_kind":
            if len({c.rank for c in seven if c.rank != 2}) <= 1:
                return True
        elif is_meld(seven, rules):
            return True
    return False


def score(players: list[PlayerHand], s: ChicagoSettings, *,
          complete: bool = True) -> dict[str, Any]:
    _check(players, s, complete)
    ender = next(p for p in players if ends_hand(p))
    solved = {p.name: best_hand(list(p.hand), s, knocker=p is ender) for p in players}
    dw = {p.name: solved[p.name][0].deadwood if p.held is None else p.held for p in players}
    if ender.rummy and dw[ender.name]:
        where = f" in {' '.join(map(str, ender.hand))}" if ender.hand else ""
        raise RulesError(f"{ender.name} went rummy, but {dw[ender.name]} points do not meld"
                         + where, "rummy_not_melded", player=ender.name,
                         points=dw[ender.name], cards=[str(c) for c in ender.hand])
    knock = None
    penalty = 0
    if ender.knocked:
        limit = knock_limit(ender.total)
        knock = {"player": ender.name, "limit": limit, "deadwood": dw[ender.name],
                 "legal": limit > 0 and dw[ender.name] <= limit}
        lowest_other = min(d for name, d in dw.items() if name != ender.name)
        tie_pays = s.knocker_tie == "penalised"
        if dw[ender.name] > lowest_other or (tie_pays and dw[ender.name] == lowest_other):
            penalty = s.knock_penalty
        knock["penalty"] = penalty
    rows = []
    for p in players:
        sol, dropped = solved[p.name]
        points = dw[p.name] + (penalty if p is ender else 0)
        total = p.total + points
        extra: dict[str, Any] = {"penalty": penalty if p is ender else 0}
        if dropped is not None:
            extra["dropped"] = str(dropped)
        if p.typed:
            extra["typed"] = True
        rows.append(player_result(p.name, points, total, deadwood=dw[p.name], melds=sol.melds,
                                  unmelded=sol.unmelded,
                                  eliminated=total >= s.elimination_total, **extra))
    return hand_result(rows, knock=knock, **_outcome(players, rows, ender, s))


def _check(players: list[PlayerHand], s: ChicagoSettings, complete: bool) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RulesError(f"{LABEL} needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"got {len(players)}", "players_count", variant="chicago",
                         min=MIN_PLAYERS, max=MAX_PLAYERS, count=len(players))
    for p in players:
        if p.total >= s.elimination_total:
            raise RulesError(f"{p.name} is already out (total {p.total} ≥ {s.elimination_total})",
                             "player_out", player=p.name, total=p.total,
                             limit=s.elimination_total)
        if p.melds:
            raise RulesError(f"{p.name}: Chicago melds stay in the hand; send them in 'hand'",
                             "melds_not_scored", player=p.name, variant="chicago")
        if p.went_out:
            raise RulesError(f"{p.name}: Chicago hands end by 'knocked' or 'rummy', not 'went_out'",
                             "went_out_in_chicago", player=p.name)
        if p.knocked and p.rummy:
            raise RulesError(f"{p.name} cannot both knock and go rummy", "knock_and_rummy",
                             player=p.name)
        if p.melded is not None:
            raise RulesError(f"{p.name}: Chicago melds stay in the hand; type the deadwood only",
                             "melded_points_unused", player=p.name, variant="chicago")
        if p.held is not None and p.held > MAX_DEADWOOD:
            raise RulesError(f"{p.name}: {p.held} points of deadwood is not possible; "
                             f"seven cards are worth at most {MAX_DEADWOOD}", "deadwood_too_high",
                             player=p.name, points=p.held, max=MAX_DEADWOOD)
    enders = [p.name for p in players if ends_hand(p)]
    if len(enders) != 1:
        raise RulesError("exactly one player must have knocked or gone rummy, got "
                         + (", ".join(enders) if enders else "none"),
                         "knock_several" if enders else "knock_missing",
                         **({"players": enders} if enders else {}))
    DECK.check(c for p in players for c in p.hand)
    for p in players:
        if p.typed:
            continue
        if complete:
            _check_complete(p)
        elif len(p.hand) > SEVEN and not (ends_hand(p) and len(p.hand) == SEVEN + 1):
            raise RulesError(f"{p.name} shows {len(p.hand)} cards: only the player who knocked "
                             "or went rummy may show 8", "eight_cards_ender_only", player=p.name,
                             count=len(p.hand))


def _check_complete(p: PlayerHand) -> None:
    """Every card is scored, so a hand with cards missing would score too low: refuse it."""
    n = len(p.hand)
    if n == SEVEN or (ends_hand(p) and n == SEVEN + 1):
        return
    if n == SEVEN + 1:
        raise RulesError(f"{p.name} holds 8 cards, but only the player who knocked or went "
                         "rummy may show 8; a Chicago hand is 7", "eight_cards_ender_only",
                         player=p.name, count=n)
    raise RulesError(f"{p.name} holds {n} card{'' if n == 1 else 's'}; "
                     "a Chicago hand is 7 (8 for the player who knocked or went rummy)",
                     "chicago_hand_size", player=p.name, n=n)


def ends_hand(p: PlayerHand) -> bool:
    """The player who ends the hand (knocks or goes rummy) has drawn an eighth card and may
    show it; the rules sheet names the same player."""
    return p.knocked or p.rummy


def _outcome(players: list[PlayerHand], rows: list[dict[str, Any]], ender: PlayerHand,
             s: ChicagoSettings) -> dict[str, Any]:
    order = [ender] + [p for p in players if p is not ender]
    for p in order:
        if instant_win(list(p.hand), s):
            return {"game_over": True, "winner": p.name, "instant_win": p.name}
    standing = [r for r in rows if not r["eliminated"]]
    if len(standing) > 1:
        return {"game_over": False, "winner": None}
    if len(standing) == 1:
        return {"game_over": True, "winner": standing[0]["name"]}
    low = min(r["total"] for r in rows)
    lowest = [r["name"] for r in rows if r["total"] == low]
    return {"game_over": True, "winner": lowest[0] if len(lowest) == 1 else None}
