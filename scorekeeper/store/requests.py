"""Writes that know what they change: a game's version (If-Match) and repeated requests
(Idempotency-Key), judged inside the write's own transaction.

A phone that lost the answer to a save sends it again; a second admin phone saves the hand
the first one already saved. Both would double a hand. So a write may name the version of
the game it was made against (`expect_seq`: refused with `GameMoved` when the game has moved
on, naming what changed), and a key for the request: its first answer is kept with the event,
in the same transaction, and a repeat with the same key gets that answer back instead of a
second event (the same key with another body is `KeyReused`). Keys live KEY_TTL_S per game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from scorekeeper.rules import RulesError
from scorekeeper.rules.names import safe_json
from scorekeeper.store.database import Tx

KEY_TTL_S = 24 * 3600  # a phone's retries take seconds; a phone asleep overnight starts afresh
MAX_KEY = 255          # characters of an Idempotency-Key
NEW_GAME = 0           # the scope of the keys of requests that create a game
MAX_CHANGES = 12       # changes a 412 names, the newest: read from the log, never replayed

Answer = Callable[[dict[str, Any], dict[str, Any] | None], dict[str, Any]]


@dataclass(frozen=True)
class RequestKey:
    """A request's Idempotency-Key and the fingerprint of what it asked (method, path, body)."""

    key: str
    fingerprint: str


def view_answer(view: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
    """The answer of a write that answers with the game as it now stands."""
    return view


@dataclass(frozen=True)
class Written:
    """What a write did: the game as it stands, the engine's result, and the answer to send.

    `replayed`: the key was seen before, nothing was written (no result), `answer` is the
    first one."""

    view: dict[str, Any]
    answer: dict[str, Any]
    replayed: bool = False
    result: dict[str, Any] | None = None


class GameMoved(Exception):
    """The game is no longer at the version the write was made against; nothing changed.

    `changes` (in words) and `moves` (as data) are the newest MAX_CHANGES changes since;
    `earlier` counts those before them."""

    def __init__(self, game_id: int, expected: int, seq: int,
                 changes: list[tuple[str, dict[str, Any]]], *, earlier: int = 0) -> None:
        self.game_id, self.expected, self.seq = game_id, expected, seq
        self.changes = [words for words, _ in changes]
        self.moves = [what for _, what in changes]  # each change as data: {change, hand…}
        self.earlier = earlier
        if expected > seq:
            message = (f"this phone's copy of the game (version {expected}) is not the "
                       f"server's (version {seq}): nothing was saved; reload the game")
        else:
            said = "; ".join(self.changes) or "the game has changed"
            if earlier:
                said += f" (and {earlier} earlier change{'' if earlier == 1 else 's'})"
            message = (f"{said} since this phone loaded the game: nothing was saved; "
                       "look at the game as it is now")
        super().__init__(message[:1].upper() + message[1:])


class KeyReused(RulesError):
    """An Idempotency-Key sent again with a different request (422 in the API)."""

    code = "idempotency_key_reused"


def _cutoff(now: datetime) -> str:
    return (now - timedelta(seconds=KEY_TTL_S)).isoformat(timespec="seconds")


def seen(tx: Tx, scope: int, request: RequestKey, now: datetime) -> dict[str, Any] | None:
    """The first answer to this key in `scope` (a game id, or NEW_GAME), or None if the key
    is new or expired; KeyReused if it came with another request."""
    row = tx.fetchone("SELECT fingerprint, answer, created_at FROM request_keys"
                      " WHERE game_id = ? AND key = ?", (scope, request.key))
    if row is None or str(row[2]) < _cutoff(now):
        return None
    if row[0] != request.fingerprint:
        raise KeyReused("this Idempotency-Key was already used for another request "
                        "(another hand, or another game); send a new key for a new request")
    answer: dict[str, Any] = safe_json(json.loads(row[1]))
    return answer


def remember(tx: Tx, scope: int, request: RequestKey, answer: dict[str, Any],
             now: datetime) -> None:
    """Keep `answer` for the key, in the write's own transaction, and forget this scope's
    expired keys (the key table stays a day of requests long)."""
    created = now.isoformat(timespec="seconds")
    tx.execute("DELETE FROM request_keys WHERE game_id = ? AND (key = ? OR created_at < ?)",
               (scope, request.key, _cutoff(now)))
    tx.execute("INSERT INTO request_keys (game_id, key, fingerprint, answer, created_at)"
               " VALUES (?, ?, ?, ?, ?)",
               (scope, request.key, request.fingerprint, json.dumps(answer), created))


def _change(hands_before: int, event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A change in words, and as data for the page to say in its language."""
    kind = event.get("type")
    if kind == "hand":
        return (f"hand {hands_before + 1} was saved from another phone",
                {"change": "hand", "hand": hands_before + 1})
    if kind == "correct":
        n = event.get("n")
        return f"hand {n} was corrected from another phone", {"change": "correct", "hand": n}
    if kind == "undo":
        return (f"hand {hands_before} was undone from another phone",
                {"change": "undo", "hand": hands_before})
    if kind == "rename":
        old, new = event.get("old"), event.get("new")
        return (f"{old} was renamed {new} from another phone",
                {"change": "rename", "old": old, "new": new})
    if kind == "settings":
        return "the house rules were changed from another phone", {"change": "settings"}
    if kind == "end":
        how = event.get("how")
        return f"the game was {how} from another phone", {"change": f"end.{how}"}
    if kind == "reopen":
        return "the game was reopened from another phone", {"change": "reopen"}
    if kind == "dealer":
        player = event.get("player")
        return (f"{player} was named the dealer from another phone",
                {"change": "dealer", "player": player})
    return "the game was changed from another phone", {"change": "game"}


def changes_since(hands: int, events: Sequence[dict[str, Any]]
                  ) -> list[tuple[str, dict[str, Any]]]:
    """What `events` did, in players' words, oldest first; `hands` is how many hands the
    game held before the first of them. Every stored event was valid when written, so a
    hand adds one and an undo takes one away: each change names the hand as it was numbered
    then, counted, not replayed."""
    out: list[tuple[str, dict[str, Any]]] = []
    for event in events:
        out.append(_change(hands, event))
        kind = event.get("type")
        hands += 1 if kind == "hand" else -1 if kind == "undo" else 0
    return out
