"""Whether each table reaches the club: live, behind, or offline since when.

The club sees a table only when it syncs. A table in club mode syncs at each hand and, when
idle, sends an empty batch every HEARTBEAT_S (forwarder.py), so a table not heard from for
OFFLINE_S has lost the club (its Wi-Fi, its Pi, or its server is down); it keeps scoring,
and its events wait at the table. With each batch the table also says how many events it
still holds that the club lacks (forwarder.PENDING_HEADER: a header, not a field of the
batch, so a club and a table on different versions still understand each other); a table
that still holds some is behind. A pure function of the stored columns and a clock, so the
big screen, `/api/club/live`, the club's health and `scorekeeper club tables` agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from scorekeeper.club.forwarder import HEARTBEAT_S
from scorekeeper.club.tables import Tables
from scorekeeper.store.database import Database

OFFLINE_S = 3 * HEARTBEAT_S  # three heartbeats missed: the table no longer reaches the club
MAX_DIGITS = 15  # a longer header is no count this club believes
State = Literal["live", "behind", "offline"]


@dataclass(frozen=True)
class Presence:
    """A table as the club last heard it: `offline_since` is its last sync while it is
    offline (None: never heard), `pending_events` what it said it still held (None: a table
    that does not say, or never synced)."""

    state: State
    last_seen: str | None
    pending_events: int | None
    offline_since: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"state": self.state, "last_seen": self.last_seen,
                "pending_events": self.pending_events, "offline_since": self.offline_since}


def presence(last_seen: str | None, pending: int | None, now: datetime,
             offline_s: float = OFFLINE_S) -> Presence:
    """The table's state at `now`, from its last sync and the count it sent then."""
    seen = _when(last_seen)
    if seen is None or (now - seen).total_seconds() > offline_s:
        return Presence("offline", last_seen, pending, last_seen)
    return Presence("behind" if pending else "live", last_seen, pending, None)


def pending_header(raw: str | None) -> int | None:
    """The table's count from its header; None when absent or not a sane count (a header
    never fails a sync: the batch matters, the count is only shown)."""
    text = (raw or "").strip()
    if not text or len(text) > MAX_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def read(database: Database) -> dict[str, tuple[str | None, int | None]]:
    """Every table's (last sync, pending events), by name: one small read."""
    with database.read() as tx:
        rows = tx.fetchall("SELECT name, last_seen, pending_events FROM club_tables")
    return {str(name): (None if seen is None else str(seen),
                        None if pending is None else int(pending))
            for name, seen, pending in rows}


def states(found: dict[str, tuple[str | None, int | None]], now: datetime
           ) -> dict[str, Presence]:
    """`presence` of each table read by `read`."""
    return {name: presence(seen, pending, now) for name, (seen, pending) in found.items()}


def listing(tables: Tables, now: datetime | None = None) -> list[dict[str, Any]]:
    """Every table the club knows (`Tables.listing`: games sent, last sync) with its
    state: `GET /api/club/tables` and the club's health."""
    when = now or datetime.now(UTC)
    return [{**asdict(row), **presence(row.last_seen, row.pending_events, when).as_dict()}
            for row in tables.listing()]


def counts(found: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """How many of `listing`'s tables are in each state."""
    out = {"live": 0, "behind": 0, "offline": 0}
    for row in found:
        out[row["state"]] += 1
    return out


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
