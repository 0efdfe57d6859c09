"""Keeping the tables in memory in step with the event log: carrying out stored events, loading a table
another worker made, catching up after a gap, and the fan-out messages that tell the other workers.

The log is the truth; memory follows it. A fan-out message carries the events themselves when they are
short, so the others apply them without a read; a gap (a message lost or overtaken) falls back to a read."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ghostgames.server.delivery import Delivery
from ghostgames.server.fanout import Fanout
from ghostgames.server.grace import Grace
from ghostgames.server.lobby import Lobby
from ghostgames.server.registry import Registry
from ghostgames.server.scheduling import Scheduler
from ghostgames.server.sweeper import Sweeper
from ghostgames.server.watching import Watching
from ghostgames.storage import Repository
from ghostgames.tables import LogLine, Table, TableError
from ghostgames.tables.events import Chatted, EventData, TableEvent, as_event

log = logging.getLogger(__name__)
TOPIC = "tables"  # the fan-out topic of table changes
# A fan-out message carries its events when they are at most this long in JSON; a longer change (a big
# chat line, say) goes out as "table T is at seq N" and the other workers read it from the database.
FANOUT_EVENTS_MAX = 16_000


class Sync:
    def __init__(self, registry: Registry, repo: Repository, fanout: Fanout, delivery: Delivery, lobby: Lobby,
                 scheduler: Scheduler, grace: Grace, sweeper: Sweeper, watching: Watching) -> None:
        self.registry = registry
        self.repo = repo
        self.fanout = fanout
        self.delivery = delivery
        self.lobby = lobby
        self.scheduler = scheduler
        self.grace = grace
        self.sweeper = sweeper
        self.watching = watching

    # --- this worker's changes, told to the others ------------------------------------------------
    def message(self, table_id: str, first: int, events: list[EventData]) -> dict[str, Any]:
        """The fan-out message for events stored as seq `first`, `first` + 1, ... What the other workers need
        to apply the change without reading it back; make it before `apply` may share parts of the events."""
        message: dict[str, Any] = {"table": table_id, "seq": first + len(events) - 1, "worker": self.registry.worker}
        if self.registry.shared:
            message.update(_fanout_events(first, events))
        return message

    async def publish(self, message: dict[str, Any]) -> None:
        await self.fanout.publish(TOPIC, message)

    # --- carrying out what is stored --------------------------------------------------------------
    def apply_stored(self, table: Table, events: Sequence[TableEvent | Mapping[str, Any]]) -> None:
        """Carry out events that are in the log (stored here or by another worker) and tell everybody."""
        if not events:
            return
        now = time.monotonic()
        lines: list[LogLine] = []
        chats: list[Chatted] = []
        for event in map(as_event, events):
            lines.extend(table.apply(event, now))
            if isinstance(event, Chatted):
                chats.append(event)
        self.delivery.changed(table, lines, chats)
        if table.status == "closed":
            self.forget(table)
        else:
            self.scheduler.schedule(table)

    def forget(self, table: Table) -> None:
        """A closed table leaves memory; its timers stop; the lobby hears it is gone."""
        self.registry.tables.pop(table.id, None)
        self.sweeper.forget(table.id)
        self.scheduler.forget(table.id)
        self.grace.forget(table.id)
        self.watching.forget(table)
        self.lobby.gone(table.id)

    async def load(self, table_id: str) -> Table:
        """The table, from memory or (made by another server process) from the event log."""
        registry = self.registry
        table = registry.tables.get(table_id)
        if table is not None:
            return table
        async with registry.locks.hold(table_id):
            if table_id not in registry.tables:
                events = await asyncio.to_thread(self.repo.events, table_id) if len(table_id) <= 32 else []
                if not events or await asyncio.to_thread(self.repo.table_status, table_id) == "closed":
                    raise TableError("no_such_table", f"there is no table {table_id!r}", table=table_id)
                loaded = Table.from_events(events, time.monotonic())
                if loaded.status == "closed":
                    raise TableError("no_such_table", f"there is no table {table_id!r}", table=table_id)
                registry.tables[table_id] = loaded
                self.scheduler.schedule(loaded)
        return registry.tables[table_id]

    async def catch_up(self, table: Table) -> None:
        """Read and apply what other processes stored since this process last looked."""
        self.apply_stored(table, await asyncio.to_thread(self.repo.events, table.id, table.seq))

    async def catch_up_all(self) -> None:
        """The fan-out was broken for a while and its messages lost: read what each known table missed."""
        for table_id in list(self.registry.tables):
            async with self.registry.locks.hold(table_id):
                table = self.registry.tables.get(table_id)
                if table is not None:
                    await self.catch_up(table)

    # --- the other workers' changes ---------------------------------------------------------------
    async def on_fanout(self, topic: str, message: dict[str, Any]) -> None:
        registry = self.registry
        if message.get("worker") == registry.worker:
            return
        table_id = str(message.get("table"))
        async with registry.locks.hold(table_id):
            table = registry.tables.get(table_id)
            if table is None:
                events = message.get("events")
                if not (isinstance(events, list) and message.get("first") == 1
                        and len(events) == int(message.get("seq", 0))):
                    events = await asyncio.to_thread(self.repo.events, table_id)  # not from its start: read it
                if events:
                    table = Table.from_events(events, time.monotonic())
                    if table.status == "closed":
                        return
                    registry.tables[table_id] = table
                    self.delivery.changed(table, [], [])
                    self.scheduler.schedule(table)
                return
            seq = int(message.get("seq", 0))
            if seq <= table.seq:
                return  # known already (a message that came late, or a read that went further)
            events = message.get("events")
            if isinstance(events, list) and message.get("first") == table.seq + 1 \
                    and table.seq + len(events) == seq:
                self.apply_stored(table, events)  # the next events in the log: no read needed
            else:
                await self.catch_up(table)  # a gap (a message lost or overtaken) or no events: read them


def _fanout_events(first: int, events: list[EventData]) -> dict[str, Any]:
    """The events of one append as the fan-out carries them: a JSON copy (what the database's JSON column
    gives back, too), or nothing when too long. They cross Redis, which is as trusted as the database."""
    text = json.dumps(events, separators=(",", ":"))
    if len(text) > FANOUT_EVENTS_MAX:
        return {}
    return {"first": first, "events": json.loads(text)}
