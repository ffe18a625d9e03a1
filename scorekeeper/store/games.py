"""Games as append-only event logs: a game's state is always the replay of its events.

Undo and corrections are events too, so history is never rewritten and a crash can only
lose a write whose transaction had not committed, i.e. one that was never answered. The
events live in a `Database`: an SQLite file (one process, its lock file) or PostgreSQL
(any number of processes, so the cache is checked against the database's seq).

The store keeps the log. Beside it, and composed by it: the health probe (`health.py`,
`store.health`), which each write tells how it went, and the backups' schedule
(`backup_schedule.py`, `store.backups`), which each write tells whether a game ended.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from scorekeeper.rules import Game, RulesError
from scorekeeper.rules.names import safe_json
from scorekeeper.store.backup import KEEP, backup_dir
from scorekeeper.store.backup_schedule import BackupSchedule
from scorekeeper.store.database import Database, Tx, is_url
from scorekeeper.store.faults import StoreError, explain
from scorekeeper.store.health import StoreHealth
from scorekeeper.store.opener import open_database
from scorekeeper.store.requests import (
    MAX_CHANGES,
    NEW_GAME,
    Answer,
    GameMoved,
    RequestKey,
    Written,
    changes_since,
    remember,
    seen,
    view_answer,
)
from scorekeeper.store.schema import migrate_games
from scorekeeper.store.sqlite import SqliteDatabase

log = logging.getLogger("scorekeeper.store")
MAX_ID = 2**63 - 1         # the largest id SQLite (and PostgreSQL's BIGINT) can hold
_SHOWN = "(ended IS NULL OR ended <> 'deleted')"  # a deleted game is kept, not listed


class GameNotFound(LookupError):
    """No game with that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class GameOver(ValueError):
    """A hand was posted to a game that has already ended."""


@dataclass(frozen=True)
class _Entry:
    """A game as of `seq` events, with its public view computed once."""

    game: Game
    seq: int
    view: dict[str, Any]


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
    keys = ("game_over", "winner", "leader", "state")
    return json.dumps({"players": players, **{k: view.get(k) for k in keys}})


def _state(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary with its state: one stored before games had a state has none, and its
    game was either over by the rules or in play (the admin could not end games then)."""
    if "state" not in summary:
        summary["state"] = "finished" if summary.get("game_over") else "in_play"
    return summary


def _copied(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary's own copy: its lists (the players) and their dicts copied, which is all of
    it (`_summary`: the rest is strings, numbers, booleans and None)."""
    return {key: [dict(v) if isinstance(v, dict) else v for v in value]
            if isinstance(value, list) else value for key, value in summary.items()}


class GameStore:
    """Thread-safe access to the games in one database, with replayed games cached.

    `target` is an SQLite file, a PostgreSQL URL, or a `Database` already open (which the
    caller closes). On SQLite, opening takes the file's lock (a second store or server on
    it is refused with StoreLocked) and checks the file (StoreDamaged, in words, with the
    restore command); backups are taken when a game ends and at least daily. On PostgreSQL
    several stores may share the database; backups are pg_dump's (`backups.take`). `with
    GameStore(target) as store:` closes it at the end.

    `backups` is the backups folder (default: beside an SQLite file), kept as
    `self.backups.folder`; `self.health` answers the health check.
    """

    def __init__(self, target: Path | str | Database, *, backups: Path | None = None,
                 keep_backups: int = KEEP) -> None:
        sqlite_path = None if isinstance(target, Database) or is_url(target) else Path(target)
        folder = backups or (backup_dir(sqlite_path) if sqlite_path else None)
        self._owned = not isinstance(target, Database)
        self.database = target if isinstance(target, Database) else \
            open_database(target, backups=folder)
        self._sqlite = self.database if isinstance(self.database, SqliteDatabase) else None
        self.path: Path | None = self._sqlite.path if self._sqlite else None
        # another process may append to a shared database: check the cache against it
        self._shared = self._sqlite is None
        self._lock = threading.RLock()
        self._cache: dict[int, _Entry] = {}
        # game id → (its stored summary, that summary parsed and cleaned): see `games`
        self._summaries: dict[int, tuple[str, dict[str, Any]]] = {}
        self.backups = BackupSchedule(self.database, folder, keep_backups, lock=self._lock)
        self.health = StoreHealth(self.database, self.backups, lock=self._lock)
        try:
            migrate_games(self.database)
        except BaseException:
            self.close()
            raise
        self.backups.resume()

    @property
    def _conn(self) -> sqlite3.Connection:
        """The SQLite connection (tests put a failing stand-in in its place)."""
        if self._sqlite is None:
            raise AttributeError("a PostgreSQL store has no SQLite connection")
        return self._sqlite._conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection) -> None:
        if self._sqlite is None:
            raise AttributeError("a PostgreSQL store has no SQLite connection")
        self._sqlite._conn = conn

    def close(self) -> None:
        with self._lock:
            if self._owned:
                self.database.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[Tx]:
        """The database's write transaction; a failed write is remembered for health."""
        try:
            with self.database.transaction() as tx:
                yield tx
        except (sqlite3.Error, StoreError) as exc:
            self.health.write_failed(exc)
            log.error("write failed: %s", explain(exc))
            raise
        self.health.write_succeeded()

    def create(
        self, variant: str, players: list[str], settings: dict[str, Any] | None = None,
        deck: str | None = None, dealer: str | None = None,
    ) -> dict[str, Any]:
        """Start a game; RulesError (nothing stored) if the engine refuses its set-up.

        `deck` names the deck profile its scans read with (kept with the game, not judged
        by the rules); None reads with the generic model. `dealer`: who deals the first
        hand (None: the first seat), stored as the game's first event."""
        return self.create_once(variant, players, settings, deck, dealer=dealer).view

    def create_once(
        self, variant: str, players: list[str], settings: dict[str, Any] | None = None,
        deck: str | None = None, request: RequestKey | None = None, *,
        dealer: str | None = None,
    ) -> Written:
        """`create`, once per `request` key: a repeat answers the game the key made first."""
        game = Game(variant, list(players), settings)
        first_event = {"type": "dealer", "player": dealer} if dealer is not None else None
        if first_event is not None:
            game.apply(first_event)
        seq = 1 if first_event is not None else 0
        now = datetime.now(UTC)
        created = now.isoformat(timespec="seconds")
        with self._lock:
            with self._transaction() as tx:
                if request:  # another server may be creating under this key right now
                    self.database.claim(tx, f"request {NEW_GAME} {request.key}")
                first = seen(tx, NEW_GAME, request, now) if request else None
                if first is not None:
                    return Written(first, first, replayed=True)
                game_id = tx.insert(
                    "INSERT INTO games (variant, players, settings, created_at, summary, deck)"
                    " VALUES (?, ?, ?, ?, '{}', ?)",
                    (variant, json.dumps(list(players)), json.dumps(settings or {}), created,
                     deck),
                )
                entry = _Entry(game, seq, _view(game_id, game, seq, created, deck))
                if first_event is not None:
                    tx.execute("INSERT INTO events (game_id, seq, type, body, created_at)"
                               " VALUES (?, 1, 'dealer', ?, ?)",
                               (game_id, json.dumps(first_event), created))
                tx.execute("UPDATE games SET summary = ?, seq = ? WHERE id = ?",
                           (_summary(entry.view), seq, game_id))
                if request:
                    remember(tx, NEW_GAME, request, entry.view, now)
            self._cache[game_id] = entry
        return Written(entry.view, entry.view)

    def games(self, ids: Collection[int] | None = None) -> list[dict[str, Any]]:
        """Every game, newest first, as a summary; or only the games of `ids` (those a
        caller found changed with `versions`). A deleted game is kept (its log, for an undo
        or a look with `get`) but listed by neither.

        A club's big screen reads every game's summary twice a second while hands arrive,
        and cleaning a summary's names (safe_json, character by character) and parsing it
        cost more than the query; so each stored summary is parsed and cleaned once and
        kept, and a read hands out a copy of it (its own, for each caller)."""
        query = f"SELECT id, variant, created_at, seq, summary FROM games WHERE {_SHOWN}"
        params: tuple[int, ...] = ()
        if ids is not None:
            params = tuple(sorted({int(i) for i in ids}))
            if not params:
                return []
            query += f" AND id IN ({', '.join('?' * len(params))})"
        with self.database.read() as tx:
            rows = tx.fetchall(query + " ORDER BY id DESC", params)
        known = self._summaries
        kept = {} if ids is None else known  # only a full read forgets the games gone
        out = []
        for gid, variant, created, seq, summ in rows:
            hit = known.get(gid)
            if hit is None or hit[0] != summ:
                # safe_json: a name stored before names were checked must not break the list
                hit = (summ, safe_json(json.loads(summ)))
            kept[gid] = hit
            out.append({"id": gid, "variant": variant, "created_at": created, "seq": seq,
                        **_state(_copied(hit[1]))})
        if ids is None:
            self._summaries = kept  # a racing read keeps either, both right
        return out

    def versions(self) -> dict[int, int]:
        """Each game's id → its seq (a game's summary changes only with its seq): what a
        caller keeping the games it read must read again, without reading them all."""
        with self.database.read() as tx:
            return {int(gid): int(seq)
                    for gid, seq in tx.fetchall(f"SELECT id, seq FROM games WHERE {_SHOWN}")}

    def get(self, game_id: int) -> dict[str, Any]:
        """The game as `GET /api/games/{id}` shows it: snapshot plus id, created_at, seq."""
        return self._entry(game_id).view

    def game(self, game_id: int) -> Game:
        """A private copy of the game as it stands (for reading, never for writing)."""
        return self._entry(game_id).game.copy()

    def setup(self, game_id: int) -> dict[str, Any]:
        """The game as it was created, before any event: id, variant, players (their names
        then, whatever renames followed), settings (None: the variant's defaults), deck and
        created_at. What a copy elsewhere (the club) starts from before replaying the events.
        """
        if not 0 < game_id <= MAX_ID:
            raise GameNotFound(game_id)
        with self.database.read() as tx:
            row = tx.fetchone("SELECT variant, players, settings, deck, created_at FROM games"
                              " WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        variant, players, settings, deck, created = row
        return {"id": game_id, "variant": str(variant),
                "players": safe_json(json.loads(players)),
                "settings": json.loads(settings) or None, "deck": deck,
                "created_at": str(created)}

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The stored events of a game, oldest first (what a replay applies)."""
        self._entry(game_id)
        with self.database.read() as tx:
            rows = tx.fetchall(
                "SELECT body FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        return [safe_json(json.loads(body)) for (body,) in rows]

    def preview(self, game_id: int, players: list[dict[str, Any]]) -> dict[str, Any]:
        """Score a hand against the game's current state without storing anything."""
        return self._entry(game_id).game.preview(players)

    def append(
        self, game_id: int, event: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Validate `event` on a copy, commit it, then publish the new state to the cache.

        Returns the new view and the engine's result. On RulesError or GameOver nothing
        is written and the cached game is unchanged."""
        written = self.write(game_id, event)
        return written.view, written.result

    def write(
        self, game_id: int, event: dict[str, Any], answer: Answer = view_answer, *,
        expect_seq: int | None = None, request: RequestKey | None = None,
    ) -> Written:
        """`append`, judged first against the request's key and the game's version.

        A `request` key seen before answers its first answer and writes nothing (another
        request under it: KeyReused). `expect_seq`: the version the write was made against;
        if the game has moved on since, GameMoved names what changed and nothing is
        written. `answer(view, result)` is what the caller sends, kept with the key. The
        game's row is locked first (on PostgreSQL, against another process appending to it:
        the event is judged against every event before it, whoever wrote them).

        The game is brought up to date (a replay, if it is not cached) before the store's
        lock is taken, and a stale write is refused from the stored seq alone: neither
        costs the length of the game while the other games' writes wait.
        """
        body = json.dumps(event)
        now = datetime.now(UTC)
        entry = self._entry(game_id)
        with self._lock:
            with self._transaction() as tx:
                row = self._row(tx, game_id, lock=self._shared)
                first = seen(tx, game_id, request, now) if request else None
                if first is not None:
                    entry = self._load(game_id, entry, row, tx)
                    return Written(entry.view, first, replayed=True)
                if expect_seq is not None and expect_seq != row[-1]:
                    raise self._moved(tx, game_id, expect_seq, row[-1])
                entry = self._load(game_id, entry, row, tx)
                if (event.get("type") == "hand" and entry.view.get("game_over")
                        and entry.view.get("state") != "deleted"):  # that one: GameDeleted
                    raise GameOver(f"game {game_id} is over; no more hands can be added")
                game = entry.game.fork()
                result = game.apply(json.loads(body))
                seq = entry.seq + 1
                new = _Entry(game, seq, _view(game_id, game, seq, entry.view["created_at"],
                                              entry.view.get("deck")))
                tx.execute(
                    "INSERT INTO events (game_id, seq, type, body, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, str(event.get("type")), body,
                     now.isoformat(timespec="seconds")),
                )
                tx.execute(
                    "UPDATE games SET seq = ?, summary = ?, ended = ? WHERE id = ?",
                    (seq, _summary(new.view), new.view["ended"], game_id),
                )
                said = answer(new.view, result)
                if request:
                    remember(tx, game_id, request, said, now)
            self._cache[game_id] = new
            ended = bool(new.view.get("game_over")) and not entry.view.get("game_over")
            self.backups.take_if_due("game" if ended else "daily")
        return Written(new.view, said, result=result)

    def _moved(self, tx: Tx, game_id: int, expected: int, seq: int) -> GameMoved:
        """The refusal of a write made against version `expected` of a game now at `seq`:
        the last few changes since, read from the log without replaying the game."""
        if expected > seq:
            return GameMoved(game_id, expected, seq, [])
        rows = tx.fetchall("SELECT seq, body FROM events WHERE game_id = ? AND seq > ?"
                           " ORDER BY seq DESC LIMIT ?", (game_id, expected, MAX_CHANGES))
        rows.reverse()
        first = int(rows[0][0]) if rows else seq + 1
        counted = tx.fetchone(
            "SELECT COALESCE(SUM(CASE type WHEN 'hand' THEN 1 WHEN 'undo' THEN -1 ELSE 0 END),"
            " 0) FROM events WHERE game_id = ? AND seq < ?", (game_id, first))
        hands = int(counted[0]) if counted else 0
        events = [safe_json(json.loads(body)) for _, body in rows]
        return GameMoved(game_id, expected, seq, changes_since(hands, events),
                         earlier=seq - expected - len(events))

    def _entry(self, game_id: int) -> _Entry:
        """The game as it stands: the cache, checked against the database when shared.

        What is new is read in one read transaction and replayed after it, so that a long
        game's replay never holds the database (on SQLite: every other game's write)."""
        if not 0 < game_id <= MAX_ID:  # SQLite's integers end at 2**63 - 1 (OverflowError)
            raise GameNotFound(game_id)
        cached = self._cache.get(game_id)
        if cached is not None and not self._shared:
            return cached
        with self.database.read() as tx:
            row = self._row(tx, game_id)
            events = self._new_events(tx, game_id, cached, row)
        entry = self._load(game_id, cached, row, events=events)
        with self._lock:
            now = self._cache.get(game_id)
            if now is not None and now.seq >= entry.seq:
                return now
            self._cache[game_id] = entry
            return entry

    @staticmethod
    def _row(tx: Tx, game_id: int, *, lock: bool = False) -> tuple[Any, ...]:
        """The game's row: variant, players, settings, created_at, deck, seq (last); `lock`
        holds it until the transaction ends (PostgreSQL: FOR UPDATE)."""
        row = tx.fetchone("SELECT variant, players, settings, created_at, deck, seq FROM games"
                          " WHERE id = ?" + (" FOR UPDATE" if lock else ""), (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return row

    @staticmethod
    def _new_events(tx: Tx, game_id: int, entry: _Entry | None,
                    row: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The events (seq, body) that `entry` lacks of the game as `row` stands."""
        stored_seq = row[-1]
        if entry is not None and entry.seq == stored_seq:
            return []
        after = entry.seq if entry is not None and entry.seq < stored_seq else 0
        return tx.fetchall("SELECT seq, body FROM events WHERE game_id = ? AND seq > ?"
                           " ORDER BY seq", (game_id, after))

    def _load(self, game_id: int, entry: _Entry | None, row: tuple[Any, ...],
              tx: Tx | None = None, *, events: list[tuple[Any, ...]] | None = None) -> _Entry:
        """`entry` brought up to the stored seq of `row` (a full replay when None): the
        events it lacks are `events`, or read in `tx`."""
        variant, players, settings, created, deck, stored_seq = row
        if entry is not None and entry.seq == stored_seq:
            return entry
        if events is None:
            assert tx is not None
            events = self._new_events(tx, game_id, entry, row)
        if entry is None or entry.seq > stored_seq:
            # names stored before they were checked are read as they are shown (safe_json:
            # surrogates replaced, bidi and control characters dropped), the same in every
            # event
            game = Game(variant, safe_json(json.loads(players)), json.loads(settings) or None,
                        stored=True)
            seq = 0
        else:
            game, seq = entry.game.fork(), entry.seq
        for number, body in events:
            try:
                game.apply(safe_json(json.loads(body)), stored=True)
            except RulesError as exc:
                raise RuntimeError(
                    f"game {game_id} event {number} no longer replays: {exc}") from exc
        seq = events[-1][0] if events else seq
        return _Entry(game, seq, _view(game_id, game, seq, created, deck))
