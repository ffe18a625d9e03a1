"""Games as append-only event logs: a game's state is always the replay of its events.

Undo and corrections are events too, so history is never rewritten and a crash can only
lose a write whose transaction had not committed, i.e. one that was never answered.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.rules import Game, RulesError
from scorekeeper.rules.names import safe_json
from scorekeeper.store.backup import KEEP, backup_dir, list_backups, make_backup, open_checked
from scorekeeper.store.db import integrity
from scorekeeper.store.faults import HINTS, REASONS, Fault, classify, explain
from scorekeeper.store.lock import DbLock

log = logging.getLogger("scorekeeper.store")
PROBE_TTL_S = 2.0          # health asks often; the write probe answers from this cache
MIN_FREE_BYTES = 1 << 20   # below this the next write will likely fail: call the disk full
LOW_FREE_BYTES = 50 << 20  # below this, health warns
DAILY_S = 24 * 3600
MAX_ID = 2**63 - 1         # the largest id SQLite can hold


class GameNotFound(LookupError):
    """No game with that id."""


class GameOver(ValueError):
    """A hand was posted to a game that has already ended."""


@dataclass(frozen=True)
class _Entry:
    """A game as of `seq` events, with its public view computed once."""

    game: Game
    seq: int
    view: dict[str, Any]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _view(game_id: int, game: Game, seq: int, created_at: str,
          deck: str | None = None) -> dict[str, Any]:
    return {"id": game_id, **game.snapshot(), "deck": deck, "created_at": created_at,
            "seq": seq}


def _summary(view: dict[str, Any]) -> str:
    """The part of a view that the game list shows, stored so listing needs no replay."""
    players = [
        {"name": p["name"], "total": p["total"], "eliminated": p.get("eliminated", False)}
        for p in view["players"]
    ]
    keys = ("game_over", "winner", "leader")
    return json.dumps({"players": players, **{k: view.get(k) for k in keys}})


def _space_fault(folder: Path) -> tuple[Fault | None, int]:
    """("readonly" | "full" | None, bytes free) for the file system holding `folder`."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    if st.f_flag & os.ST_RDONLY:
        return "readonly", free
    return ("full" if free < MIN_FREE_BYTES else None), free


class GameStore:
    """Thread-safe access to the games in one SQLite file, with replayed games cached.

    Opening it takes the database's lock file (a second store or server on the same file
    is refused with StoreLocked) and checks the file (StoreDamaged, in words, with the
    restore command). Backups are taken when a game ends and at least daily.
    """

    def __init__(self, path: Path, *, backups: Path | None = None,
                 keep_backups: int = KEEP) -> None:
        self.path = path
        self.backups = backups or backup_dir(path)
        self.keep_backups = keep_backups
        self._db_lock = DbLock(path)
        try:
            self._conn = open_checked(path, self.backups)
        except BaseException:
            self._db_lock.release()
            raise
        self._lock = threading.RLock()
        self._cache: dict[int, _Entry] = {}
        self._write_error: tuple[str, BaseException] | None = None
        self._probe: tuple[float, dict[str, Any]] | None = None
        self.backup_error: str | None = None
        newest = list_backups(path, self.backups)
        self.last_backup: Path | None = newest[-1] if newest else None
        self._last_backup_at = newest[-1].stat().st_mtime if newest else 0.0
        self._backup_due("daily")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            self._db_lock.release()

    def ping(self) -> bool:
        """Whether the database answers a query (for the health check)."""
        with self._lock:
            row: tuple[int] | None = self._conn.execute("SELECT 1").fetchone()
            return row == (1,)

    def write_health(self) -> dict[str, Any]:
        """Whether a write would succeed now, and if not why, in words (cached PROBE_TTL_S).

        A real write would wear the SD card on every health call, so the probe is: the file
        system (mounted read-only? space left?) and a write statement that changes nothing,
        rolled back (SQLite refuses it on a read-only or locked file). After a write failed
        as damaged, the file is checked again too.
        """
        with self._lock:
            now = time.monotonic()
            if self._probe is None or now - self._probe[0] >= PROBE_TTL_S:
                self._probe = (now, self._check_writable())
            return self._probe[1]

    def _check_writable(self) -> dict[str, Any]:
        fault, free = _space_fault(self.path.parent)
        problem = f"the scorekeeper cannot save: {REASONS[fault]} ({HINTS[fault]})" \
            if fault else self._probe_write()
        health: dict[str, Any] = {"writable": problem is None, "problem": problem,
                                  "free_mib": round(free / 2**20, 1)}
        if problem is None and free < LOW_FREE_BYTES:
            health["warning"] = f"the disk is nearly full: {free / 2**20:.0f} MiB left"
        if self._write_error is not None:
            when, exc = self._write_error
            health["last_write_error"] = {"at": when, "detail": explain(exc)}
        health["backup"] = {"last": self.last_backup.name if self.last_backup else None,
                            "error": self.backup_error}
        return health

    def _probe_write(self) -> str | None:
        damaged = self._write_error is not None and classify(self._write_error[1]) == "damaged"
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("UPDATE games SET seq = seq WHERE 0")
                if damaged and integrity(self._conn):
                    return explain(self._write_error[1])  # type: ignore[index]
            finally:
                self._rollback()
        except sqlite3.Error as exc:
            return explain(exc)
        return None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT; a failed write is remembered for health."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        except sqlite3.Error as exc:
            self._write_error, self._probe = (_now(), exc), None
            log.error("write failed: %s", explain(exc))
            raise
        if self._write_error is not None:
            self._write_error, self._probe = None, None

    def _rollback(self) -> None:
        """Roll back if still open; a failing ROLLBACK must not hide the error that caused it."""
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            log.error("rollback failed: %s", exc)

    def backup(self, kind: str = "manual") -> Path:
        """A consistent copy into the backups folder now (the newest `keep_backups` kept)."""
        with self._lock:
            target = make_backup(self._conn, self.path, kind, self.backups, self.keep_backups)
            self.last_backup, self.backup_error = target, None
            self._last_backup_at = time.time()
            return target

    def _backup_due(self, kind: str) -> None:
        """Back up after a game ends ("game") or when the newest backup is a day old
        ("daily"); a failed backup is logged and shown by health, never fails the write."""
        if kind == "daily" and (time.time() - self._last_backup_at < DAILY_S
                                or not self._has_games()):
            return
        try:
            self.backup(kind)
        except (sqlite3.Error, OSError) as exc:
            self.backup_error = f"{_now()}: backup failed: {explain(exc, 'back up')}"
            log.error("%s", self.backup_error)

    def _has_games(self) -> bool:
        with self._lock:
            return self._conn.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None

    def create(
        self, variant: str, players: list[str], settings: dict[str, Any] | None = None,
        deck: str | None = None,
    ) -> dict[str, Any]:
        """Start a game; RulesError (nothing stored) if the engine refuses its set-up.

        `deck` names the deck profile its scans read with (kept with the game, not judged
        by the rules); None reads with the generic model."""
        game = Game(variant, list(players), settings)
        created = _now()
        with self._lock:
            with self._transaction() as conn:
                cur = conn.execute(
                    "INSERT INTO games (variant, players, settings, created_at, summary, deck)"
                    " VALUES (?, ?, ?, ?, '{}', ?)",
                    (variant, json.dumps(list(players)), json.dumps(settings or {}), created,
                     deck),
                )
                game_id = int(cur.lastrowid or 0)
                entry = _Entry(game, 0, _view(game_id, game, 0, created, deck))
                conn.execute(
                    "UPDATE games SET summary = ? WHERE id = ?", (_summary(entry.view), game_id)
                )
            self._cache[game_id] = entry
        return entry.view

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first, as a summary."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, variant, created_at, seq, summary FROM games ORDER BY id DESC"
            ).fetchall()
        # safe_json: a name stored before names were checked must not break the list
        return [
            {"id": gid, "variant": variant, "created_at": created, "seq": seq,
             **safe_json(json.loads(summ))}
            for gid, variant, created, seq, summ in rows
        ]

    def get(self, game_id: int) -> dict[str, Any]:
        """The game as `GET /api/games/{id}` shows it: snapshot plus id, created_at, seq."""
        return self._entry(game_id).view

    def game(self, game_id: int) -> Game:
        """A private copy of the game as it stands (for reading, never for writing)."""
        return self._entry(game_id).game.copy()

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The stored events of a game, oldest first (what a replay applies)."""
        self._entry(game_id)
        with self._lock:
            rows = self._conn.execute(
                "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [safe_json(json.loads(body)) for (body,) in rows]

    def preview(self, game_id: int, players: list[dict[str, Any]]) -> dict[str, Any]:
        """Score a hand against the game's current state without storing anything."""
        return self._entry(game_id).game.preview(players)

    def append(
        self, game_id: int, event: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Validate `event` on a copy, commit it, then publish the new state to the cache.

        Returns the new view and the engine's result. On RulesError or GameOver nothing
        is written and the cached game is unchanged.
        """
        body = json.dumps(event)
        with self._lock:
            entry = self._entry(game_id)
            if event.get("type") == "hand" and entry.view.get("game_over"):
                raise GameOver(f"game {game_id} is over; no more hands can be added")
            game = entry.game.copy()
            result = game.apply(json.loads(body))
            seq = entry.seq + 1
            new = _Entry(game, seq, _view(game_id, game, seq, entry.view["created_at"],
                                          entry.view.get("deck")))
            with self._transaction() as conn:
                conn.execute(
                    "INSERT INTO events (game_id, seq, type, body, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, str(event.get("type")), body, _now()),
                )
                conn.execute(
                    "UPDATE games SET seq = ?, summary = ? WHERE id = ?",
                    (seq, _summary(new.view), game_id),
                )
            self._cache[game_id] = new
            ended = bool(new.view.get("game_over")) and not entry.view.get("game_over")
            self._backup_due("game" if ended else "daily")
        return new.view, result

    def _entry(self, game_id: int) -> _Entry:
        if not 0 < game_id <= MAX_ID:  # SQLite's integers end at 2**63 - 1 (OverflowError)
            raise GameNotFound(f"no game with id {game_id}")
        entry = self._cache.get(game_id)
        if entry is not None:
            return entry
        with self._lock:
            entry = self._cache.get(game_id) or self._replay(game_id)
            self._cache[game_id] = entry
            return entry

    def _replay(self, game_id: int) -> _Entry:
        row = self._conn.execute(
            "SELECT variant, players, settings, created_at, deck FROM games WHERE id = ?",
            (game_id,)
        ).fetchone()
        if row is None:
            raise GameNotFound(f"no game with id {game_id}")
        variant, players, settings, created, deck = row
        # names stored before they were checked are read as they are shown (safe_json:
        # surrogates replaced, bidi and control characters dropped), the same in every event
        game = Game(variant, safe_json(json.loads(players)), json.loads(settings) or None,
                    stored=True)
        events = self._conn.execute(
            "SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        for seq, body in events:
            try:
                game.apply(safe_json(json.loads(body)), stored=True)
            except RulesError as exc:
                raise RuntimeError(f"game {game_id} event {seq} no longer replays: {exc}") from exc
        seq = events[-1][0] if events else 0
        return _Entry(game, seq, _view(game_id, game, seq, created, deck))
