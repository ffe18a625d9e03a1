"""Games as append-only event logs: a game's state is always the replay of its events.

Undo and corrections are events too, so history is never rewritten and a crash can only
lose a write whose transaction had not committed, i.e. one that was never answered.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorekeeper.rules import Game, RulesError
from scorekeeper.store.db import connect


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


def _view(game_id: int, game: Game, seq: int, created_at: str) -> dict[str, Any]:
    return {"id": game_id, **game.snapshot(), "created_at": created_at, "seq": seq}


def _summary(view: dict[str, Any]) -> str:
    """The part of a view that the game list shows, stored so listing needs no replay."""
    players = [
        {"name": p["name"], "total": p["total"], "eliminated": p.get("eliminated", False)}
        for p in view["players"]
    ]
    keys = ("game_over", "winner", "leader")
    return json.dumps({"players": players, **{k: view.get(k) for k in keys}})


class GameStore:
    """Thread-safe access to the games in one SQLite file, with replayed games cached."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = connect(path)
        self._lock = threading.RLock()
        self._cache: dict[int, _Entry] = {}

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def ping(self) -> bool:
        """Whether the database answers a query (for the health check)."""
        with self._lock:
            return self._conn.execute("SELECT 1").fetchone() == (1,)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise

    def create(
        self, variant: str, players: list[str], settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Start a game; RulesError (nothing stored) if the engine refuses its set-up."""
        game = Game(variant, list(players), settings)
        created = _now()
        with self._lock:
            with self._transaction() as conn:
                cur = conn.execute(
                    "INSERT INTO games (variant, players, settings, created_at, summary)"
                    " VALUES (?, ?, ?, ?, '{}')",
                    (variant, json.dumps(list(players)), json.dumps(settings or {}), created),
                )
                game_id = int(cur.lastrowid or 0)
                entry = _Entry(game, 0, _view(game_id, game, 0, created))
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
        return [
            {"id": gid, "variant": variant, "created_at": created, "seq": seq, **json.loads(summ)}
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
        return [json.loads(body) for (body,) in rows]

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
            new = _Entry(game, seq, _view(game_id, game, seq, entry.view["created_at"]))
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
        return new.view, result

    def _entry(self, game_id: int) -> _Entry:
        entry = self._cache.get(game_id)
        if entry is not None:
            return entry
        with self._lock:
            entry = self._cache.get(game_id) or self._replay(game_id)
            self._cache[game_id] = entry
            return entry

    def _replay(self, game_id: int) -> _Entry:
        row = self._conn.execute(
            "SELECT variant, players, settings, created_at FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise GameNotFound(f"no game with id {game_id}")
        variant, players, settings, created = row
        game = Game(variant, json.loads(players), json.loads(settings) or None)
        events = self._conn.execute(
            "SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        for seq, body in events:
            try:
                game.apply(json.loads(body))
            except RulesError as exc:
                raise RuntimeError(f"game {game_id} event {seq} no longer replays: {exc}") from exc
        seq = events[-1][0] if events else 0
        return _Entry(game, seq, _view(game_id, game, seq, created))
