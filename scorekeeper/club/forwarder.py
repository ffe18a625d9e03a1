"""A table in club mode: a background thread that sends the outbox to the club server.

The table scores as it always does; this thread only reads its store and writes the
outbox's marks, so a club that is down or slow never holds up a hand or a phone. It sends
what the club has not acknowledged, oldest first, in batches; when the club cannot be
reached or fails (5xx) it waits 0.5 s, doubling to `retry_max_s`, with jitter so that
forty tables coming back with the Wi-Fi do not all knock at once.

HTTP is the standard library's (urllib): httpx is only a development dependency.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from pydantic import ValidationError

from scorekeeper.club.outbox import Due, Outbox
from scorekeeper.club.protocol import BATCH_EVENTS, SyncAnswer
from scorekeeper.club.tables import now
from scorekeeper.config import ConfigError
from scorekeeper.settings import Settings
from scorekeeper.store import GameStore

log = logging.getLogger("scorekeeper.club")
SYNC_PATH = "/api/club/sync"
PENDING_HEADER = "Scorekeeper-Pending"  # the events still at the table after this batch
RETRY_MIN_S = 0.5
RETRY_MAX_S = 30.0
POLL_S = 1.0
HEARTBEAT_S = 15.0
KEEP_S = 60.0  # `last_success` is written to the table's database at most this often
TIMEOUT_S = 10.0


class Unreachable(Exception):
    """The club did not answer, or answered with a failure worth retrying; in words."""


def shown_url(url: str) -> str:
    """The club's address without any user:password in it (health is public)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def backoff(failures: int, low: float = RETRY_MIN_S, high: float = RETRY_MAX_S) -> float:
    """The wait after `failures` failures in a row: doubling from `low` up to `high`, the
    second half of it random ("equal jitter")."""
    base = min(high, low * 2.0 ** min(failures - 1, 32))
    return base / 2 + random.uniform(0, base / 2)


def post_json(url: str, token: str, body: dict[str, Any], timeout: float,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """(status, parsed answer) of a POST; Unreachable when no HTTP answer came."""
    return _call(urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST",
        headers={**(headers or {}), "Authorization": f"Bearer {token}",
                 "Content-Type": "application/json"}),
        timeout)


def get_json(url: str, token: str, timeout: float) -> tuple[int, Any]:
    """(status, parsed answer) of a GET with the table's token; Unreachable as above."""
    return _call(urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"}),
                 timeout)


def _call(request: urllib.request.Request, timeout: float) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, raw = int(answer.status), answer.read()
    except urllib.error.HTTPError as exc:
        status, raw = int(exc.code), exc.read()
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise Unreachable(f"the club server cannot be reached: {reason}") from exc
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, {"detail": raw[:200].decode(errors="replace")}


class Forwarder:
    """Sends a table's games to the club; `start` and `stop` from the app's lifespan."""

    def __init__(self, store: GameStore, url: str, token: str, *,
                 retry_max_s: float = RETRY_MAX_S, timeout_s: float = TIMEOUT_S,
                 poll_s: float = POLL_S) -> None:
        self.store = store
        self.url = url.rstrip("/")
        self._token = token
        self.retry_max_s = retry_max_s
        self.timeout_s = timeout_s
        self.poll_s = poll_s
        self.outbox: Outbox | None = None
        self.batch_events = BATCH_EVENTS
        self._solo = False  # after a refusal that names no game: one game a batch
        self._failures = 0
        self._contact = -HEARTBEAT_S  # when the club last answered (monotonic)
        self._kept = -KEEP_S  # when `last_success` was last written (monotonic)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = False
        self.last_success: str | None = None
        self.last_error: str | None = None

    def open(self) -> None:
        """Migrate the outbox (before any phone can start a game: the games already there
        stay home), give the games the club refused before one more try, and read when the
        club last answered (health shows it before the club is reached again)."""
        self.outbox = Outbox(self.store)
        self.outbox.retry_refused()
        self.last_success = self.outbox.last_success()

    def start(self) -> None:
        """`open`, and start sending in the background."""
        self.open()
        self._thread = threading.Thread(target=self._run, name="club-forwarder", daemon=True)
        self._thread.start()
        log.info("club mode: forwarding this table's games to %s", shown_url(self.url))

    def stop(self, wait_s: float = 2.0) -> None:
        """Stop sending, keeping when the club last answered. A request under way is
        abandoned: the club may have stored it, and the next start sends it again, which
        the club recognises."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(wait_s)
        if self.outbox is not None and self.last_success is not None:
            try:
                self.outbox.keep_last_success(self.last_success)
            except Exception:  # the server is stopping: say so, never fail the stop
                log.exception("club: could not keep the time of the last success")

    @property
    def health_url(self) -> str:
        return shown_url(self.url)

    def health(self) -> dict[str, Any]:
        """What `/api/health` shows of club mode (the token never)."""
        body: dict[str, Any] = {"mode": "table", "url": self.health_url,
                                "connected": self.connected,
                                "last_success": self.last_success,
                                "last_error": self.last_error}
        if self.outbox is not None:
            events, games = self.outbox.pending()
            body |= {"pending_events": events, "pending_games": games,
                     "refused": [{"game_id": g, "problem": p}
                                 for g, p in self.outbox.refused()]}
        return body

    def wake(self) -> None:
        """Something was committed: send now rather than at the next poll. A back-off after
        a failure is not cut short (forty tables' phones must not hammer a club that is
        away); the poll stays, for writes that reach the store without a wake."""
        self._wake.set()

    def _run(self) -> None:
        delay = 0.0
        while not self._stop.is_set():
            if delay > 0:
                (self._stop if self._failures else self._wake).wait(delay)
            self._wake.clear()  # before the send: a commit during it wakes the next one
            if self._stop.is_set():
                return
            delay = self.step()

    def step(self) -> float:
        """Send one batch if anything is due; the seconds to wait before the next."""
        try:
            more = self._send()
        except Unreachable as exc:
            return self._failed(str(exc))
        except Exception as exc:  # the thread must outlive any one failure (logged)
            if self._stop.is_set():
                return 0.0
            log.exception("club forwarding failed")
            return self._failed(f"forwarding failed: {exc}")
        self._failures = 0
        return 0.0 if more else self.poll_s

    def _failed(self, why: str) -> float:
        self._failures += 1
        if self.connected or self.last_error != why:
            log.warning("club: %s (retrying)", why)
        self.connected, self.last_error = False, why
        return backoff(self._failures, high=self.retry_max_s)

    def _send(self) -> bool:
        """One batch; whether more may be due at once."""
        assert self.outbox is not None
        due = self.outbox.due()
        if not due and time.monotonic() - self._contact < HEARTBEAT_S:
            return False
        # with nothing due, an empty batch now and then: health's `connected` stays true,
        # and the club's `last seen` shows the table is there
        batch = self.outbox.batch(due[:1] if self._solo else due, self.batch_events)
        # what will still wait here once this batch is in: the club shows the table behind
        left = max(0, self.outbox.pending()[0] - len(batch["events"]))
        status, answer = post_json(self.url + SYNC_PATH, self._token, batch, self.timeout_s,
                                   {PENDING_HEADER: str(left)})
        if self._stop.is_set():
            return False
        if status == 413 and self.batch_events > 1:
            self.batch_events = max(1, self.batch_events // 2)
            return True
        if status in (401, 403):
            raise Unreachable(f"the club refused this table's token ({status}): ask the club "
                              f"for a new one (scorekeeper club rotate-token)")
        parsed = _answer(answer) if status in (200, 409, 422) else None
        if parsed is not None:
            self.outbox.record(parsed)
            self._solo = False
            more = _progress(due, parsed)
        elif status in (400, 409, 413, 422) and due:
            self._refused_unexplained(due[0].game_id, status, answer)
            more = True
        else:  # 5xx, or not a club server's answer: worth retrying, not blaming a game
            raise Unreachable(f"the club server answered {status}: {_detail(answer)}")
        self.connected, self.last_success, self.last_error = True, now(), None
        self._contact = time.monotonic()
        if self._contact - self._kept >= KEEP_S:  # a write a minute, not one per batch
            self.outbox.keep_last_success(self.last_success)
            self._kept = self._contact
        return more

    def _refused_unexplained(self, game_id: int, status: int, answer: Any) -> None:
        """A 4xx that names no game: find the game by sending one at a time, then mark it,
        so one bad game never stops the others nor loops for ever."""
        assert self.outbox is not None
        why = f"the club refused it ({status}): {_detail(answer)}"
        if self._solo:
            log.warning("club: game %s refused: %s", game_id, why)
            self.outbox.refuse(game_id, why)
        self._solo = not self._solo


def _progress(due: list[Due], answer: SyncAnswer) -> bool:
    """Whether the answer moved anything on (else wait for the poll, never spin)."""
    before = {d.game_id: (d.sent, d.acked) for d in due}
    return bool(answer.unknown or answer.problems or any(
        before.get(a.table_game_id) != (True, a.seq) for a in answer.acked))


def _answer(body: Any) -> SyncAnswer | None:
    """The club's sync answer, or None when `body` is some other answer (`{"detail"}`)."""
    if not isinstance(body, dict) or "acked" not in body:
        return None
    try:
        return SyncAnswer.model_validate(body)
    except ValidationError:
        return None


def _detail(body: Any) -> str:
    detail = body.get("detail") if isinstance(body, dict) else None
    return str(detail)[:200] if detail else "no detail"


def club_token(settings: Settings) -> str:
    """The table's club token (settings name it one way or another); ConfigError if none."""
    try:
        token = settings.club_token_value()
    except OSError as exc:
        raise ConfigError(f"club_token_file: cannot read {settings.club_token_file}: "
                          f"{exc.strerror}") from None
    if not token:
        raise ConfigError("club mode needs the table's token: --club-token, "
                          "SCOREKEEPER_CLUB_TOKEN or a club_token_file that holds it")
    return token


def forwarder_for(settings: Settings, store: GameStore) -> Forwarder | None:
    """The forwarder of a table in club mode (`club_url` set), else None."""
    if not settings.club_url:
        return None
    return Forwarder(store, settings.club_url, club_token(settings),
                     retry_max_s=settings.club_retry_max_s, timeout_s=settings.club_timeout_s)
