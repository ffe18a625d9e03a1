"""A whole match: hands scored in order, with undo and corrections by replaying the inputs.

The game keeps only what the players entered; every total is recomputed from those inputs,
so a corrected hand can never leave a stale total behind.
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.rules.cards import card_codes, parse_cards
from scorekeeper.rules.errors import RulesError, malformed, shown
from scorekeeper.rules.hand import PlayerHand, parse_players
from scorekeeper.rules.names import clean_name, json_kind
from scorekeeper.rules.scoring import score_hand
from scorekeeper.rules.settings import VariantSettings
from scorekeeper.rules.variants import VARIANTS, Knock, Variant

MOST_STORED = 8  # the most players any game could be created with
# how the admin may end a game before (or after) the rules do; "deleted" hides it
ENDINGS = ("finished", "abandoned", "deleted")


class GameDeleted(RulesError):
    """An event other than `reopen` sent to a deleted game (409 in the API).

    A deleted game is hidden, not gone: a correction, a rename or new settings there would
    change a game nobody sees, and be sent to whoever still watches it. So nothing changes
    it until it is reopened, and every write says so with this one refusal."""

    code = "game_deleted"

    def __init__(self) -> None:
        super().__init__("the game was deleted: reopen it first; nothing was saved")


@dataclass
class _Replay:
    results: list[dict[str, Any]]
    totals: dict[str, int]
    eliminated: set[str]
    game_over: bool
    winner: str | None
    # (totals, eliminated) after each hand, so a change replays only from where it starts
    after: list[tuple[dict[str, int], frozenset[str]]]


def _input_json(p: PlayerHand) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "hand": card_codes(list(p.hand))}
    if p.melds:
        out["melds"] = [card_codes(list(m.cards)) if not m.on else
                        {"cards": card_codes(list(m.cards)), "on": card_codes(list(m.on))}
                        for m in p.melds]
    for flag in ("knocked", "went_out", "rummy"):
        if getattr(p, flag):
            out[flag] = True
    for typed in ("held", "melded"):
        if getattr(p, typed) is not None:
            out[typed] = getattr(p, typed)
    return out


class Game:
    def __init__(self, variant: str, players: list[str],
                 settings: dict[str, Any] | None = None, *, stored: bool = False) -> None:
        """A new game; `stored`: one read back from the store (see `apply`), whose player
        count and settings are taken as they were accepted when it was created."""
        self.variant = variant
        self.settings: VariantSettings = self.rules.parse(settings, lenient=stored)
        self._check_count(players, self.rules, stored)
        self.names = self._check_names(players)
        self.hands: list[list[dict[str, Any]]] = []
        # per hand: read back from the store, so scored as it was accepted when stored
        self._stored: list[bool] = []
        self._state = _Replay([], dict.fromkeys(self.names, 0), set(), False, None, [])
        # the admin's ends, newest last: "reopen" takes the newest back, so each is undone
        self._ends: list[str] = []
        # (hand number, seat): that seat dealt, or deals, that hand; the rest follows
        self._dealer = (1, 0)

    @property
    def rules(self) -> Variant[Any]:
        """The variant's record: everything that differs between variants is asked of it."""
        return VARIANTS.get(self.variant)

    @staticmethod
    def _check_count(players: object, rules: Variant[Any], stored: bool) -> None:
        fewest, most = rules.players
        if stored:  # before the variant's own limit was checked here, every game took 2 to 8
            most = max(most, MOST_STORED)
        if not isinstance(players, list) or not fewest <= len(players) <= most:
            got = len(players) if isinstance(players, list) else json_kind(players)
            raise RulesError(f"{rules.label} needs a list of {fewest} to {most} "
                             f"player names, got {got}", "players_count", variant=rules.name,
                             min=fewest, max=most,
                             count=len(players) if isinstance(players, list) else None)

    @staticmethod
    def _check_names(players: Sequence[object]) -> list[str]:
        names: list[str] = []
        for raw in players:
            name = clean_name(raw)
            if name.casefold() in (n.casefold() for n in names):
                raise RulesError(f"player {name!r} is named twice", "name_twice", name=name)
            names.append(name)
        return names

    def copy(self) -> Game:
        return copy.deepcopy(self)

    def fork(self) -> Game:
        """A copy to apply an event to, leaving this game as it was: the store's write.

        `copy` copies every hand, which made each write cost the length of the game. An
        event never changes the game's parts in place (it replaces its hands, state, names
        and settings with new ones), except the list of ends, which is copied here."""
        twin = copy.copy(self)
        twin._ends = list(self._ends)
        return twin

    # -- replay ---------------------------------------------------------------------------
    def _canonical(self, raw: object) -> list[PlayerHand]:
        players = parse_players(raw, with_total=False)
        by_fold = {n.casefold(): n for n in self.names}
        out = []
        for p in players:
            if p.name.casefold() not in by_fold:
                raise RulesError(f"{p.name!r} is not a player in this game "
                                 f"({', '.join(self.names)})", "not_a_player", name=p.name,
                                 players=list(self.names))
            out.append(replace(p, name=by_fold[p.name.casefold()]))
        return out

    def _replay(self, hands: list[list[dict[str, Any]]], stored: list[bool],
                keep: int = 0) -> _Replay:
        """Score `hands` in order, reusing the current state for the first `keep` hands."""
        prior = self._state if keep else None
        results = prior.results[:keep] if prior else []
        after = prior.after[:keep] if prior else []
        totals = dict(after[-1][0]) if after else dict.fromkeys(self.names, 0)
        eliminated = set(after[-1][1]) if after else set()
        over = bool(results) and results[-1]["game_over"]
        winner = results[-1]["winner"] if results else None
        for n, raw in enumerate(hands[keep:], start=keep + 1):
            try:
                if over:
                    raise RulesError("the game is already over"
                                     + (f": {winner} won" if winner else ""),
                                     "game_over", winner=winner)
                players = self._canonical(raw)
                active = [name for name in self.names if name not in eliminated]
                got = {p.name for p in players}
                if got != set(active):
                    missing = [a for a in active if a not in got]
                    extra = sorted(got - set(active))
                    what = (f"missing {', '.join(missing)}" if missing
                            else f"{', '.join(extra)} already out")
                    raise RulesError(f"every player still in must be in the hand: {what}",
                                     "hand_players_missing" if missing else "hand_players_out",
                                     players=missing or extra)
                order = {name: i for i, name in enumerate(self.names)}
                players.sort(key=lambda p: order[p.name])
                players = [replace(p, total=totals[p.name]) for p in players]
                result = score_hand(self.settings, players, hand_number=n,
                                    complete=not stored[n - 1])
            except RulesError as exc:
                raise exc.within(f"hand {n}", hand=n) from None
            for row in result["players"]:
                totals[row["name"]] = row["total"]
                if row["eliminated"]:
                    eliminated.add(row["name"])
            over, winner = result["game_over"], result["winner"]
            results.append({"n": n, **result})
            after.append((dict(totals), frozenset(eliminated)))
        return _Replay(results, totals, eliminated, over, winner, after)

    def _commit(self, hands: list[list[dict[str, Any]]], stored: list[bool] | None = None,
                *, reuse: bool = True) -> None:
        """Make `hands` the game's hands, or raise RulesError and change nothing.

        `stored` says, per hand, whether it was read back from the store (default: as now).
        """
        stored = self._stored if stored is None else stored
        # a hand the game already holds (the same list: an append, undo or correction keeps
        # the others) is canonical already; reading every hand again made each event cost
        # the length of the game, and a replay its square
        held = {id(h) for h in self.hands}
        canonical = [h if id(h) in held else [_input_json(p) for p in self._canonical(h)]
                     for h in hands]
        keep = 0
        if reuse:
            while (keep < min(len(canonical), len(self.hands))
                   and canonical[keep] == self.hands[keep]
                   and stored[keep] == self._stored[keep]):
                keep += 1
        self._state = self._replay(canonical, stored, keep)
        self.hands = canonical
        self._stored = list(stored)

    # -- events ---------------------------------------------------------------------------
    def apply(self, event: dict[str, Any], *, stored: bool = False) -> dict[str, Any] | None:
        """Apply one event; on RulesError the game is left exactly as it was.

        `stored`: the event is read back from the store, where an older scorekeeper may
        have written it. Its hand is scored as it was accepted then: the complete-hand
        check, added since, is not applied to it (nor when it is replayed later), so a game
        that holds such a hand is still served. The same goes for its settings.
        """
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise malformed("an event needs a 'type'", "type", "missing")
        kind = event["type"]
        if self.ended == "deleted" and kind != "reopen" and not stored:
            raise GameDeleted
        if kind in ("hand", "undo", "dealer") and self._ends:
            raise RulesError(f"the game was {self._ends[-1]}; reopen it first", "game_ended",
                             how=self._ends[-1])
        if kind == "hand":
            self._commit([*self.hands, event.get("players")],  # type: ignore[list-item]
                         [*self._stored, stored])
            return self._state.results[-1]
        if kind == "correct":
            n = self._hand_number(event.get("n"))
            self._commit([*self.hands[:n - 1], event.get("players"), *self.hands[n:]],  # type: ignore[list-item]
                         [*self._stored[:n - 1], stored, *self._stored[n:]])
            return self._state.results[n - 1]
        if kind == "undo":
            if not self.hands:
                raise RulesError("there is no hand to undo", "undo_nothing")
            self._commit(self.hands[:-1], self._stored[:-1])
            return None
        if kind == "rename":
            self._rename(event.get("old"), event.get("new"))
            return None
        if kind == "settings":
            before = self.settings
            self.settings = self.rules.parse(event.get("settings"), lenient=stored)
            try:
                self._commit(self.hands, reuse=False)
            except RulesError:
                self.settings = before
                raise
            return None
        if kind in ("end", "reopen", "dealer"):
            self._table_event(kind, event)
            return None
        raise malformed(f"unknown event type {shown(kind)}", "type", "invalid")

    def _table_event(self, kind: str, event: dict[str, Any]) -> None:
        """What the admin says of the table, not of a hand: the game ended (finished,
        abandoned, deleted) or reopened, and who deals the next hand."""
        if kind == "reopen":
            if not self._ends:
                raise RulesError("the game was not ended, so there is nothing to reopen",
                                "game_not_ended")
            self._ends.pop()
        elif kind == "end":
            how = event.get("how")
            if how not in ENDINGS:
                raise malformed(f"a game ends {', '.join(ENDINGS)}, not {shown(how)}", "how",
                                "invalid")
            if how != "deleted" and (self._ends or self._state.game_over):
                raise RulesError("the game is already over", "game_already_over")
            self._ends.append(how)
        else:
            player = event.get("player")
            if not isinstance(player, str):
                raise malformed(f"the dealer is a player's name, not {shown(player)}", "player",
                                "text")
            name = self.player_name(player)
            if name in self._state.eliminated:
                raise RulesError(f"{name} is out of the game and deals no more", "dealer_out",
                                player=name)
            self._dealer = (len(self.hands) + 1, self.names.index(name))

    def _hand_number(self, n: object) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(self.hands):
            raise RulesError(f"there is no hand {shown(n)}; hands are 1 to {len(self.hands)}",
                             "hand_unknown", n=shown(n), count=len(self.hands))
        return n

    def _rename(self, old: object, new: object) -> None:
        if isinstance(old, str):
            old = unicodedata.normalize("NFC", old)
        if old not in self.names:
            raise RulesError(f"{shown(old)} is not a player in this game", "not_a_player",
                             name=shown(old).strip("'"), players=list(self.names))
        fresh = self._check_names([new if n == old else n for n in self.names])
        new_name = fresh[self.names.index(old)]
        hands = [[{**p, "name": new_name} if p["name"] == old else p for p in h]
                 for h in self.hands]
        before = self.names
        self.names = fresh
        try:
            self._commit(hands, reuse=False)
        except RulesError:
            self.names = before
            raise

    # -- reading --------------------------------------------------------------------------
    def player_name(self, name: str) -> str:
        """The game's spelling of a player's name; RulesError if nobody is called that."""
        return self._canonical([{"name": name}])[0].name

    def preview(self, players: object) -> dict[str, Any]:
        """Score a hand as if it were played next, without keeping it."""
        trial = self.copy()
        return trial.apply({"type": "hand", "players": players})  # type: ignore[return-value]

    def knock(self) -> Knock:
        """The variant's knock; RulesError naming the variants that have one, if it has none."""
        knock = self.rules.knock
        if knock is None:
            knocking = " and ".join(v.label for v in VARIANTS.entries() if v.knock)
            raise RulesError(f"the knock check is for {knocking}", "knock_not_in_game",
                             variants=[v.name for v in VARIANTS.entries() if v.knock])
        return knock

    def knock_check(self, player: str, cards: list[str]) -> dict[str, Any]:
        """Chicago: would this player's knock with these cards be legal right now?"""
        knock = self.knock()
        name = self.player_name(player)
        return {"player": name, **knock.check(parse_cards(cards), self._state.totals[name],
                                              self.settings)}

    def snapshot(self) -> dict[str, Any]:
        st = self._state
        players = [{"name": name, "total": st.totals[name], "eliminated": name in st.eliminated,
                    **self._standing(st.totals[name], name in st.eliminated)}
                   for name in self.names]
        return {"variant": self.variant, "settings": self.settings.model_dump(),
                "players": players,
                "hands": [{"n": r["n"], "players": h, "result": r}
                          for h, r in zip(self.hands, st.results, strict=True)],
                "game_over": st.game_over or bool(self._ends), "winner": self._winner(),
                "leader": self._leader(), "ended": self.ended, "state": self.state,
                "dealer": None if st.game_over or self._ends else self.dealer(len(self.hands) + 1)}

    @property
    def ended(self) -> str | None:
        """How the admin ended the game ("finished", "abandoned", "deleted"), or None."""
        return self._ends[-1] if self._ends else None

    @property
    def state(self) -> str:
        """"in_play", "finished" (by the rules or the admin), "abandoned" or "deleted"."""
        if self._ends:
            return self._ends[-1]
        return "finished" if self._state.game_over else "in_play"

    def _winner(self) -> str | None:
        """The rules' winner; a game the admin finished early is won by its leader."""
        if self._state.game_over or self._ends != ["finished"]:
            return self._state.winner
        return self._leader()

    def dealer(self, n: int) -> str:
        """Who deals hand `n`: the deal moves left (to the next seat) each hand, past the
        players out of the game, from the last dealer the admin named (else the first seat).
        Computed from the hands, so an undo or a correction moves it too."""
        anchor, seat = self._dealer
        count = len(self.names)
        step = 1 if n >= anchor else -1
        for h in range(anchor + step, n + step, step):
            out = self._out_before(h)
            for _ in range(count):
                seat = (seat + step) % count
                if self.names[seat] not in out:
                    break
        return self.names[seat]

    def _out_before(self, n: int) -> frozenset[str]:
        """The players out of the game when hand `n` is dealt."""
        after = self._state.after
        if n <= 1 or not after:
            return frozenset()
        return after[min(n - 2, len(after) - 1)][1]

    def _standing(self, total: int, eliminated: bool) -> dict[str, int | None]:
        """How far a player is from the end: the knock limit, hands left, or points to go."""
        rules, s = self.rules, self.settings
        if rules.knock is not None:
            return {"knock_limit": None if eliminated else rules.knock.limit(total)}
        hands = rules.hand_limit(s) if rules.hand_limit is not None else None
        if hands is not None:
            return {"hands_left": max(0, hands - len(self.hands))}
        if rules.target is not None:
            return {"to_target": max(0, rules.target(s) - total)}
        return {}

    def _leader(self) -> str | None:
        if self._state.winner is not None or not self.hands:
            return self._state.winner
        standing = [n for n in self.names if n not in self._state.eliminated]
        if not standing:
            return None
        totals = self._state.totals
        best = (min if self.rules.low_wins else max)(totals[n] for n in standing)
        leaders = [n for n in standing if totals[n] == best]
        return leaders[0] if len(leaders) == 1 else None


def game_from_events(created: dict[str, Any], events: list[dict[str, Any]]) -> Game:
    """Rebuild a game from its creation record and its stored events, in order."""
    game = Game(created["variant"], created["players"], created.get("settings"), stored=True)
    for event in events:
        game.apply(event, stored=True)
    return game


__all__ = ["Game", "GameDeleted", "game_from_events"]
