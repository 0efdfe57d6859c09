"""Who is here: connections starting and stopping to watch tables, and what follows from it. A seated
person who comes back ends their grace period, one who leaves starts it; the others see the connected
flags change; the last watcher leaving an abandoned table closes it. Other workers learn of it through the
shared presence (server/shared.py)."""

from __future__ import annotations

from ghostgames.server.connection import Connection
from ghostgames.server.delivery import Delivery
from ghostgames.server.grace import Grace
from ghostgames.server.registry import WATCHING, Registry
from ghostgames.server.sweeper import Sweeper
from ghostgames.tables import Table


class Watching:
    def __init__(self, registry: Registry, delivery: Delivery, grace: Grace, sweeper: Sweeper) -> None:
        self.registry = registry
        self.delivery = delivery
        self.grace = grace
        self.sweeper = sweeper

    def watch(self, conn: Connection, table_id: str, msg_id: str | int | None = None) -> None:
        """Send the whole table to `conn` and keep it current from now on."""
        registry = self.registry
        table = registry.get(table_id)
        if table_id not in conn.watching:
            conn.watching.add(table_id)
            registry.watchers[table_id].add(conn)
            if len(registry.watchers[table_id]) == 1:
                registry.presence.set_local(table_id, WATCHING, True)
            if conn.user is not None:
                key = conn.user.lower()
                registry.present[table_id][key] += 1
                if registry.present[table_id][key] == 1:
                    registry.presence.set_local(table_id, conn.user, True)
                self.grace.cancel(table_id, conn.user)
        answer = self.delivery.table_message(table, conn, history=True)
        if msg_id is not None:
            answer["id"] = msg_id
        conn.send(answer)
        self.delivery.presence_changed(table, exclude=conn)

    def unwatch(self, conn: Connection, table_id: str) -> None:
        registry = self.registry
        if table_id not in conn.watching:
            return
        conn.watching.discard(table_id)
        registry.watchers[table_id].discard(conn)
        if not registry.watchers[table_id]:
            registry.presence.set_local(table_id, WATCHING, False)
        table = registry.tables.get(table_id)
        if conn.user is not None:
            key = conn.user.lower()
            registry.present[table_id][key] -= 1
            if registry.present[table_id][key] <= 0:
                del registry.present[table_id][key]
                registry.presence.set_local(table_id, conn.user, False)
                if table is not None:
                    seat = table.seat_of(conn.user)
                    if seat is not None and seat.takeover is None and table.status in ("open", "started"):
                        self.grace.start(table_id, conn.user)
        if table is not None:
            self.delivery.presence_changed(table)
            self.sweeper.close_soon_if_abandoned(table)

    def forget(self, table: Table) -> None:
        """The table closed: nobody watches it any more, here or (as far as this worker goes) elsewhere."""
        registry = self.registry
        watchers = registry.watchers.pop(table.id, set())
        for conn in watchers:
            conn.watching.discard(table.id)
        if watchers:
            registry.presence.set_local(table.id, WATCHING, False)
        for name in registry.present.pop(table.id, {}):
            registry.presence.set_local(table.id, name, False)
