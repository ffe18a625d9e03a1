"""A table's copy of its club's player list, which the phone's new-game sheet offers.

The table asks the club (`GET /api/club/players`, with its table token) when a phone opens
the sheet, at most once every FRESH_S, and keeps the answer in its data folder: when the
club is away the table answers from that copy and says how old it is, so a table cut off
all evening still offers the club's names. A phone never waits long for it: the club gets
TIMEOUT_S, and after a failure it is not asked again for RETRY_S.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.club.forwarder import Unreachable, club_token, get_json, shown_url
from scorekeeper.club.tables import now
from scorekeeper.files import write_atomic
from scorekeeper.rules import RulesError
from scorekeeper.rules.names import clean_name
from scorekeeper.settings import Settings

log = logging.getLogger("scorekeeper.club")
CACHE_NAME = "club_players.json"
PLAYERS_PATH = "/api/club/players"
FRESH_S = 60.0
RETRY_S = 15.0
TIMEOUT_S = 3.0
Fetch = Callable[[str, str, float], tuple[int, Any]]  # (url, token, timeout) → (status, body)
OFF = {"club": False, "players": [], "fetched_at": None, "age_s": None, "fresh": False,
       "problem": "club mode is off: this table keeps its games to itself and has no club "
                  "list (scorekeeper serve --club URL --club-token TOKEN)"}


def cache_path(data_dir: Path) -> Path:
    return data_dir / CACHE_NAME


def _players(body: Any) -> list[str] | None:
    """The names of a club's answer, each as a table may use it; None if it is no list."""
    names = body.get("players") if isinstance(body, dict) else None
    if not isinstance(names, list):
        return None
    out = []
    for name in names:
        try:
            out.append(clean_name(name))
        except RulesError:
            continue  # a name this table's rules refuse cannot be picked here
    return out


class Roster:
    """The club's players as this table last heard them; `view` is the route's answer."""

    def __init__(self, url: str, token: str, cache: Path, *, fetch: Fetch = get_json,
                 timeout_s: float = TIMEOUT_S, fresh_s: float = FRESH_S,
                 retry_s: float = RETRY_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url.rstrip("/")
        self._token = token
        self.cache = cache
        self.fetch = fetch
        self.timeout_s, self.fresh_s, self.retry_s = timeout_s, fresh_s, retry_s
        self.clock = clock
        self._lock = threading.Lock()
        self._asked = -float("inf")  # when the club was last asked (clock)
        self._answered = False       # whether that ask got the list
        self._problem: str | None = None
        self._memory: dict[str, Any] | None = None  # the list, when the disk refused it

    def view(self) -> dict[str, Any]:
        """{club, players, fetched_at, age_s, fresh, problem}: the list, from the club when
        it answered within FRESH_S (else it is asked now, unless it failed within RETRY_S),
        or the copy on disk with its age and why the club was not heard."""
        with self._lock:
            if self.clock() - self._asked >= (self.fresh_s if self._answered else self.retry_s):
                self._ask()
            stored = self._load()
            fresh, problem = self._answered, self._problem
        fetched = stored.get("fetched_at") if stored else None
        return {"club": True, "players": stored["players"] if stored else [],
                "fetched_at": fetched, "age_s": _age(fetched), "fresh": fresh,
                "problem": problem}

    def kept(self) -> list[str]:
        """The list as this table last heard it, without asking the club: a new game's
        names are spelled as the club's (spelling.py) and must never wait for the club."""
        with self._lock:
            stored = self._load()
        return list(stored["players"]) if stored else []

    def _ask(self) -> None:
        self._asked = self.clock()
        try:
            status, body = self.fetch(self.url + PLAYERS_PATH, self._token, self.timeout_s)
        except Unreachable as exc:
            self._failed(str(exc))
            return
        players = _players(body) if status == 200 else None
        if players is None:
            self._failed("the club refused this table's token" if status in (401, 403) else
                         f"the club server answered {status}, not its player list")
            return
        record = {"club": shown_url(self.url), "fetched_at": now(), "players": players}
        self._memory = None
        try:
            write_atomic(self.cache, json.dumps(record, ensure_ascii=False) + "\n")
        except OSError as exc:  # the list is still good for this answer
            log.warning("club: cannot keep the club's player list in %s: %s", self.cache, exc)
            self._memory = record
        self._answered, self._problem = True, None

    def _failed(self, why: str) -> None:
        if self._problem != why:
            log.warning("club: the club's player list: %s", why)
        self._answered, self._problem = False, why

    def _load(self) -> dict[str, Any] | None:
        """The kept list, if it is this club's (a table moved to another club forgets it)."""
        if self._memory is not None:
            return self._memory
        try:
            record = json.loads(self.cache.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("club: the kept player list %s is unreadable: %s", self.cache, exc)
            return None
        if not isinstance(record, dict) or record.get("club") != shown_url(self.url):
            return None
        players = _players(record)
        return None if players is None else {**record, "players": players}


def _age(fetched_at: Any) -> int | None:
    """Whole seconds since `fetched_at` (ISO 8601), or None."""
    if not isinstance(fetched_at, str):
        return None
    try:
        then = datetime.fromisoformat(fetched_at)
    except ValueError:
        return None
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return max(0, int((datetime.now(UTC) - then).total_seconds()))


def forget(data_dir: Path) -> bool:
    """Delete the kept list (the table leaves its club); whether there was one."""
    try:
        cache_path(data_dir).unlink()
    except FileNotFoundError:
        return False
    return True


def roster_for(settings: Settings) -> Roster | None:
    """The club list of a table in club mode (`club_url` set), else None."""
    if not settings.club_url:
        return None
    return Roster(settings.club_url, club_token(settings), cache_path(settings.data_dir),
                  timeout_s=min(settings.club_timeout_s, TIMEOUT_S))
