"""A table's outbox: its own event log, and how far each game has reached the club.

Nothing is copied to be sent: the events are read from the table's store when a batch is
made, and `club_outbox` keeps, per game, whether the club knows it and the highest seq it
acknowledged. An acknowledgement is recorded after the club answered, so a crash in
between only sends the same events again, which the club recognises by their seq.

A game's set-up and events come from the store's API (`setup`, `events`). Only which
games are due is asked of the database in SQL: a join of the store's game ids and seqs with
`club_outbox`, once a second, which through the API would read every game's summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.club.protocol import SyncAnswer
from scorekeeper.club.schema import migrate_outbox
from scorekeeper.store import GameNotFound, GameStore
from scorekeeper.store.database import Tx

# A game is due when the club lacks its set-up or some of its events, unless it was played
# before club mode (game_sent -1) or the club refused it (problem).
_DUE = """
SELECT g.id, g.seq, COALESCE(o.game_sent, 0), COALESCE(o.acked_seq, 0)
FROM games g LEFT JOIN club_outbox o ON o.game_id = g.id
WHERE o.game_id IS NULL
   OR (o.game_sent >= 0 AND o.problem IS NULL AND (o.game_sent = 0 OR g.seq > o.acked_seq))
ORDER BY g.id
"""
_PENDING = """
SELECT COALESCE(SUM(g.seq - COALESCE(o.acked_seq, 0)), 0), COUNT(*)
FROM games g LEFT JOIN club_outbox o ON o.game_id = g.id
WHERE (o.game_id IS NULL OR o.game_sent >= 0)
  AND (g.seq > COALESCE(o.acked_seq, 0) OR COALESCE(o.game_sent, 0) = 0)
"""
_HOME = "INSERT INTO club_outbox (game_id, game_sent, acked_seq) SELECT id, -1, seq FROM games"
_UPSERT = """
INSERT INTO club_outbox (game_id, game_sent, acked_seq) VALUES (?, ?, ?)
ON CONFLICT (game_id) DO UPDATE SET game_sent = excluded.game_sent,
                                    acked_seq = excluded.acked_seq
"""


@dataclass(frozen=True)
class Due:
    """A game with something the club lacks."""

    game_id: int
    seq: int
    sent: bool
    acked: int


class Outbox:
    """The outbox on the table's store (its schema migrated on open)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.db = store.database
        migrate_outbox(self.db)

    def due(self) -> list[Due]:
        """Games with something to send, oldest first."""
        with self.db.read() as tx:
            rows = tx.fetchall(_DUE)
        return [Due(int(g), int(s), int(sent) == 1, int(a)) for g, s, sent, a in rows]

    def pending(self) -> tuple[int, int]:
        """(events, games) the club does not hold yet, refused ones included."""
        with self.db.read() as tx:
            row = tx.fetchone(_PENDING)
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def refused(self) -> list[tuple[int, str]]:
        """(game id, why) for each game the club refused; it is not sent again until the
        server restarts."""
        with self.db.read() as tx:
            rows = tx.fetchall("SELECT game_id, problem FROM club_outbox"
                               " WHERE problem IS NOT NULL ORDER BY game_id")
        return [(int(g), str(p)) for g, p in rows]

    def retry_refused(self) -> None:
        """Give the refused games one more try (at start: the club may have been mended)."""
        with self.db.transaction() as tx:
            tx.execute("UPDATE club_outbox SET problem = NULL WHERE problem IS NOT NULL")

    def last_success(self) -> str | None:
        """When the club last answered, as kept by `keep_last_success` (a restarted table
        still says when it last reached the club, not "never")."""
        with self.db.read() as tx:
            row = tx.fetchone("SELECT value FROM club_link WHERE name = 'last_success'")
        return None if row is None else str(row[0])

    def leave(self) -> tuple[int, int]:
        """Forget the club (`scorekeeper club leave`): every game now on the table becomes
        one played before club mode, never sent to this club or the next, as when club mode
        first starts. Returns the (events, games) the club had not received."""
        with self.db.transaction() as tx:
            row = tx.fetchone(_PENDING)
            tx.execute("DELETE FROM club_outbox")
            tx.execute("DELETE FROM club_link")
            tx.execute(_HOME)
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def batch(self, due: list[Due], max_events: int) -> dict[str, Any]:
        """The next batch: set-ups the club lacks, then events from each game's next seq,
        oldest game first, at most `max_events` events (a game's whole set-up always)."""
        games: list[dict[str, Any]] = []
        events: list[dict[str, Any]] = []
        for item in due:
            room = max_events - len(events)
            try:
                if not item.sent:
                    games.append(_setup(self.store.setup(item.game_id)))
                if room <= 0:
                    break
                bodies = self.store.events(item.game_id)[item.acked:item.acked + room]
            except (GameNotFound, RuntimeError) as exc:  # gone, or no longer replays here
                self.refuse(item.game_id, f"this table cannot read the game: {exc}")
                continue
            events += [{"table_game_id": item.game_id, "seq": item.acked + n, "body": body}
                       for n, body in enumerate(bodies, start=1)]
        return {"games": games, "events": events}

    def record(self, answer: SyncAnswer) -> None:
        """What the club said it holds; the refused games, marked with why."""
        # a refused game's club copy may hold other events past the refused one: what the
        # table has delivered ends just before it
        refused = {p.table_game_id: p.seq - 1 for p in answer.problems if p.seq > 0}
        with self.db.transaction() as tx:
            for ack in answer.acked:
                held = min(ack.seq, refused.get(ack.table_game_id, ack.seq))
                tx.execute(_UPSERT, (ack.table_game_id, 1, held))
            for game_id in answer.unknown:  # the club lost its set-up: send it again
                tx.execute(_UPSERT, (game_id, 0, 0))
            for problem in answer.problems:
                self._refuse(tx, problem.table_game_id, problem.detail)

    def keep_last_success(self, when: str) -> None:
        """Keep when the club last answered, for `last_success` after a restart."""
        with self.db.transaction() as tx:
            tx.execute("INSERT INTO club_link (name, value) VALUES ('last_success', ?)"
                       " ON CONFLICT (name) DO UPDATE SET value = excluded.value", (when,))

    def refuse(self, game_id: int, why: str) -> None:
        with self.db.transaction() as tx:
            self._refuse(tx, game_id, why)

    @staticmethod
    def _refuse(tx: Tx, game_id: int, why: str) -> None:
        tx.execute("INSERT INTO club_outbox (game_id, game_sent, acked_seq, problem)"
                   " VALUES (?, 0, 0, ?) ON CONFLICT (game_id) DO UPDATE SET problem = ?",
                   (game_id, why, why))


def _setup(game: dict[str, Any]) -> dict[str, Any]:
    """A game's set-up as the sync protocol names it (GameIn)."""
    return {"table_game_id": game["id"], "variant": game["variant"], "players": game["players"],
            "settings": game["settings"], "deck": game["deck"],
            "created_at": game["created_at"]}
