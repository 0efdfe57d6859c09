"""What this worker holds in memory: its live tables, a lock per table, the connections watching each
table and the people among them, and its place among several workers. Every other part of the hub reads
these; none of them keeps a second copy, so "who is here" has one answer."""

from __future__ import annotations

import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from ghostgames.server.connection import Connection
from ghostgames.server.keyed_locks import KeyedLocks
from ghostgames.server.shared import LocalLeases, LocalPresence
from ghostgames.tables import Context, Decision, Table, TableError

# The presence entry a worker keeps for a table any of its connections watches (anonymous ones too), so
# another worker's sweep never closes a table someone there is looking at. No person's name has '*'.
WATCHING = "*watching*"

Decide = Callable[[Table, Context], Decision]  # what a caller wants of a table, decided under its lock
# The hub's one way to change a table (decide, store, apply, tell: commit.Commits.run), handed down to the
# parts that act on their own (grace periods, bots, clocks, the sweeper) so none of them imports upward.
Run = Callable[[str, Decide], Awaitable[Decision]]


class Registry:
    def __init__(self, idle_claim: float) -> None:
        self.tables: dict[str, Table] = {}
        self.locks = KeyedLocks()  # one per table, while in use
        self.watchers: dict[str, set[Connection]] = defaultdict(set)
        self.present: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # table -> name -> count
        self.idle_claim = idle_claim
        # Several workers (see server/shared.py): one lease per table for its bots and clocks, and presence
        # across workers for grace periods and closing. One worker answers both from memory.
        self.worker = secrets.token_hex(6)
        self.leases = LocalLeases()
        self.presence = LocalPresence()
        self.shared = False

    def share(self, leases: LocalLeases, presence: LocalPresence) -> None:
        """Run as one of several workers on one database."""
        self.leases, self.presence, self.shared = leases, presence, True

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}", table=table_id)
        return table

    def here(self, table_id: str, name: str) -> bool:
        """Whether `name` has a connection to this worker watching the table."""
        return self.present[table_id].get(name.lower(), 0) > 0

    def summary(self, table: Table) -> dict[str, Any]:
        """The table as the lobby and its watchers see it, with who is connected here."""
        present = self.present[table.id]
        spectators = sum(1 for c in self.watchers[table.id] if table.seat_of(c.user) is None)
        return table.summary(time.monotonic(), lambda name: present.get(name.lower(), 0) > 0, spectators,
                             self.idle_claim)


def reader(table: Table, user: str | None) -> tuple[int | None, int | None]:
    """Who a connection is at a table: the seat it sits in now, and the seat whose view it may read (the
    one it played in the game shown; see Table.view_seat). Frames are made once per such pair."""
    seat = table.seat_of(user)
    return (seat.index if seat is not None else None), table.view_seat(user)
