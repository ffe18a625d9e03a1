"""Build `score` input lines compactly: the tables read like the hands at the table."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import score_line


def p(name: str, hand: str = "", total: int = 0, melds: list[str] | None = None,
      **flags: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "hand": hand.split(), "total": total, **flags}
    if melds is not None:
        out["melds"] = [m.split() for m in melds]
    return out


def score(variant: str, *players: dict[str, Any], **settings: Any) -> dict[str, Any]:
    return score_line({"variant": variant, "settings": settings, "players": list(players)})


def row(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in result["players"] if r["name"] == name)
