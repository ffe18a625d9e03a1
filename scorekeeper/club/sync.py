"""The club server's side of a sync: a table's batch replayed into the club's own store.

Each table game becomes a game of the club's `GameStore`, so the club validates every
event with the rules and its replay, views and live streams work as at a table. An event
is (table, table_game_id, seq); the club game's seq says which of them it already holds,
so a batch sent twice, or cut off by a crash, stores each event once. Every write is
committed before the answer, by the store itself.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from scorekeeper.club.protocol import Ack, Batch, EventIn, GameIn, Problem, SyncAnswer
from scorekeeper.club.tables import ClubTable, Tables
from scorekeeper.rules import RulesError
from scorekeeper.rules.names import safe_json
from scorekeeper.store import GameOver, GameStore

log = logging.getLogger("scorekeeper.club")
View = dict[str, Any]
_FORGET = "DELETE FROM club_creating WHERE table_id = ? AND table_game_id = ?"


class ClubSync:
    """Applies table batches to the club's store, one batch per table at a time."""

    def __init__(self, store: GameStore, tables: Tables) -> None:
        self.store = store
        self.db = store.database
        self.tables = tables
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, table_id: int) -> threading.Lock:
        """A table's own lock: its events' "next seq" check and append must not interleave
        with a second request of the same table (a retry while the first still runs)."""
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def apply(self, table: ClubTable, batch: Batch, pending: int | None = None
              ) -> tuple[SyncAnswer, list[View]]:
        """Store what is new in `batch`; the answer, and the views of the games changed.
        `pending`: the events the table says it still holds after this batch (presence.py)."""
        with self._lock(table.id):
            run = _Run(self, table, batch)
            run.games()
            run.events()
            self.tables.seen(table, pending)
            return run.answer(), list(run.changed.values())

    def mapped(self, table_id: int, ids: set[int]) -> dict[int, int]:
        """The club game of each of these table games that the club knows."""
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        with self.db.read() as tx:
            rows = tx.fetchall(f"SELECT table_game_id, game_id FROM club_games WHERE table_id = ?"
                               f" AND table_game_id IN ({marks})", (table_id, *sorted(ids)))
        return {int(t): int(g) for t, g in rows}

    def owner(self, game_id: int) -> tuple[str, int] | None:
        """(table name, the table's game id) of a club game a table forwarded, else None."""
        with self.db.read() as tx:
            row = tx.fetchone("SELECT t.name, g.table_game_id FROM club_games g"
                              " JOIN club_tables t ON t.id = g.table_id WHERE g.game_id = ?",
                              (game_id,))
        return None if row is None else (str(row[0]), int(row[1]))

    def create(self, table: ClubTable, game: GameIn) -> int:
        """The club's copy of a table's game, created and mapped.

        The store commits the game and this module its mapping, in two transactions; the
        intent row written first lets a retry after a crash between them adopt the game
        made then, instead of leaving it behind unmapped and making a second.
        """
        key = (table.id, game.table_game_id)
        with self.db.transaction() as tx:
            row = tx.fetchone("SELECT after_game_id FROM club_creating"
                              " WHERE table_id = ? AND table_game_id = ?", key)
            if row is None:  # the newest game's id, in the transaction that notes it
                top = tx.fetchone("SELECT COALESCE(MAX(id), 0) FROM games")
                after = int(top[0]) if top else 0
                tx.execute("INSERT INTO club_creating (table_id, table_game_id, after_game_id)"
                           " VALUES (?, ?, ?)", (*key, after))
        game_id = self._orphan(game, int(row[0])) if row is not None else None
        if game_id is None:
            try:
                game_id = int(self.store.create(game.variant, game.players, game.settings,
                                                game.deck)["id"])
            except RulesError:
                self._forget(key)
                raise
        with self.db.transaction() as tx:
            tx.execute("INSERT INTO club_games (table_id, table_game_id, game_id, created_at)"
                       " VALUES (?, ?, ?, ?)", (*key, game_id, game.created_at))
            tx.execute(_FORGET, key)
        return game_id

    def _forget(self, key: tuple[int, int]) -> None:
        with self.db.transaction() as tx:
            tx.execute(_FORGET, key)

    def _orphan(self, game: GameIn, after: int) -> int | None:
        """An unmapped, untouched club game with this set-up made since the intent (a rare
        read, after a crash: every game's summary, then the candidates' set-ups)."""
        with self.db.read() as tx:
            rows = tx.fetchall("SELECT game_id FROM club_games WHERE game_id > ?", (after,))
        mapped = {int(gid) for (gid,) in rows}
        candidates = sorted(int(g["id"]) for g in self.store.games()
                            if int(g["id"]) > after and g["variant"] == game.variant
                            and int(g["seq"]) == 0 and int(g["id"]) not in mapped)
        for game_id in candidates:
            if self.store.setup(game_id)["players"] == game.players:
                log.info("adopting club game %s, created before a crash", game_id)
                return game_id
        return None


class _Run:
    """One batch being applied: what it found and did, for the answer."""

    def __init__(self, sync: ClubSync, table: ClubTable, batch: Batch) -> None:
        self.sync, self.table, self.batch = sync, table, batch
        ids = {g.table_game_id for g in batch.games} | {e.table_game_id for e in batch.events}
        self.ids = ids
        self.map = sync.mapped(table.id, ids)
        self.seqs: dict[int, int] = {}
        self.stopped: set[int] = set()
        self.unknown: list[int] = []
        self.expected: list[Ack] = []
        self.problems: list[Problem] = []
        self.changed: dict[int, View] = {}
        self._stored: dict[int, list[dict[str, Any]]] = {}

    def games(self) -> None:
        for game in self.batch.games:
            if game.table_game_id in self.map:
                continue  # already known: a resent set-up is skipped
            try:
                self.map[game.table_game_id] = self.sync.create(self.table, game)
            except RulesError as exc:
                self._refuse(game.table_game_id, 0, 422, f"the game's set-up is refused: {exc}")

    def events(self) -> None:
        for event in self.batch.events:
            tgid = event.table_game_id
            if tgid in self.stopped:
                continue
            game_id = self.map.get(tgid)
            if game_id is None:
                self.unknown.append(tgid)
                self.stopped.add(tgid)
                continue
            self._event(game_id, event)

    def _seq(self, tgid: int) -> int:
        if tgid not in self.seqs:
            self.seqs[tgid] = int(self.sync.store.get(self.map[tgid])["seq"])
        return self.seqs[tgid]

    def _event(self, game_id: int, event: EventIn) -> None:
        tgid, held = event.table_game_id, self._seq(event.table_game_id)
        if event.seq <= held:  # a duplicate: harmless if it is the same event
            stored = self._stored.get(tgid)
            if stored is None:
                stored = self._stored[tgid] = self.sync.store.events(game_id)
            if safe_json(event.body) != stored[event.seq - 1]:
                log.warning("table %s game %s event %s differs from the one the club holds: "
                            "refused", self.table.name, tgid, event.seq)
                self._refuse(tgid, event.seq, 409, "this event differs from the one the club "
                                                   "already holds under the same seq")
        elif event.seq == held + 1:
            try:
                view, _ = self.sync.store.append(game_id, event.body)
            except (RulesError, GameOver) as exc:
                log.warning("table %s game %s event %s refused by the rules: %s",
                            self.table.name, tgid, event.seq, exc)
                self._refuse(tgid, event.seq, 422, f"the rules refuse it: {exc}")
                return
            self.seqs[tgid] = int(view["seq"])
            self.changed[game_id] = view
        else:
            self.expected.append(Ack(table_game_id=tgid, seq=held + 1))
            self.stopped.add(tgid)

    def _refuse(self, tgid: int, seq: int, status: int, detail: str) -> None:
        self.problems.append(Problem(table_game_id=tgid, seq=seq, status=status,
                                     detail=f"event {seq} of game {tgid}: {detail}"
                                     if seq else detail))
        self.stopped.add(tgid)

    def answer(self) -> SyncAnswer:
        acked = [Ack(table_game_id=t, seq=self._seq(t)) for t in sorted(self.ids)
                 if t in self.map]
        return SyncAnswer(acked=acked, expected=self.expected, unknown=self.unknown,
                          problems=self.problems)
