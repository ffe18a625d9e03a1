"""The shape of a scored hand, shared by every variant (the `score` contract's output)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper.rules.cards import Card, card_codes


def player_result(name: str, points: int, total: int, *, deadwood: int,
                  melds: Iterable[Sequence[Card]], unmelded: Sequence[Card],
                  eliminated: bool = False, **extra: Any) -> dict[str, Any]:
    return {"name": name, "points": points, "total": total, "deadwood": deadwood,
            "melds": [card_codes(list(m)) for m in melds], "unmelded": card_codes(list(unmelded)),
            "eliminated": eliminated, **extra}


def hand_result(players: list[dict[str, Any]], *, knock: dict[str, Any] | None = None,
                game_over: bool = False, winner: str | None = None,
                **extra: Any) -> dict[str, Any]:
    return {"players": players, "knock": knock, "game_over": game_over, "winner": winner, **extra}
