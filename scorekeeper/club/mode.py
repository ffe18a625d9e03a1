"""Which club role a server plays, in one line for its start-up banner.

A table in club mode looks exactly like a home table to its phones; the line says where its
games go, so whoever starts it (or reads its log) sees at once that it is a club's table.
"""

from __future__ import annotations

from scorekeeper.club.forwarder import SYNC_PATH, shown_url
from scorekeeper.settings import Settings


def mode_line(settings: Settings, url: str) -> str | None:
    """The banner's club line: a club server, a table in club mode, or None at home."""
    base = url.rstrip("/")
    if settings.club_server:
        return (f"club server: the tables send their games to {base}{SYNC_PATH}; "
                f"the big screen is {base}/club")
    if settings.club_url:
        return (f"club mode: this table sends its games to {shown_url(settings.club_url)} "
                f"(how it goes: {base}/api/health, \"club\")")
    return None
