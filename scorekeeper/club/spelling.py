"""One person, one spelling: a name typed for a new game becomes the club's spelling of it.

A club player typed in another case, without an accent or with extra spaces ("carla dias",
"Ines" for "Inês") is still that player. Applied where a game is created (the table's and
the club's `POST /api/games`, which the phone's new-game sheet calls too), the game then
carries the club's spelling from its first event, so its table card and the standings agree
and nothing needs renaming later. A name is matched case-insensitively first (the
standings' own `name_key`), then accent-insensitively only when that names one club
player (with both "José" and "Jose" on the list, "jose" is "Jose"; "JOSÉ" is "José"). Two
seats that would become the same player keep what was typed.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from scorekeeper.club.standings import name_key

Spelling = Callable[[Sequence[str]], list[str]]  # names typed → names the game keeps


def fold(name: str) -> str:
    """A name with case, accents and runs of spaces aside: "  Inês  Sá" → "ines sa"."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


def club_spelling(names: Sequence[str], players: Iterable[str]) -> list[str]:
    """Each typed name as the club spells it when it is a club player, else as typed."""
    exact: dict[str, str] = {}
    folded: dict[str, set[str]] = {}
    for player in players:
        exact.setdefault(name_key(player), player)
        folded.setdefault(fold(player), set()).add(player)
    out = []
    for name in names:
        found = exact.get(name_key(name))
        if found is None:
            near = folded.get(fold(name), set())
            found = next(iter(near)) if len(near) == 1 else None
        out.append(found if found is not None else name)
    seats = Counter(name_key(n) for n in out)
    return [spelled if seats[name_key(spelled)] == 1 else typed
            for spelled, typed in zip(out, names, strict=True)]


def speller(players: Callable[[], Iterable[str]]) -> Spelling:
    """`club_spelling` against the club's list as `players` reads it at each new game."""
    return lambda names: club_spelling(names, players())


def as_typed(names: Sequence[str]) -> list[str]:
    """A table outside club mode keeps every name as typed."""
    return list(names)
