"""Grace periods: a seated person who is not connected gets config.grace_seconds to come back; then a bot
plays their seat in a running game (or the seat is freed at an open table), so no game waits for ever on
someone who is gone. With several workers a person may be connected to another one, so the end of a grace
period asks there first, and a sweep starts grace periods for people whose worker died with its timers."""

from __future__ import annotations

import asyncio
import logging

from ghostgames.server.registry import Registry, Run
from ghostgames.tables import Decision, Table, TableError

log = logging.getLogger(__name__)
ABSENT_SWEEP_EVERY = 2.0  # seconds between looks for people connected nowhere (several workers)


class Grace:
    def __init__(self, registry: Registry, seconds: float, run: Run) -> None:
        self.registry = registry
        self.seconds = seconds
        self.run = run
        self.timers: dict[tuple[str, str], asyncio.Task[None]] = {}  # (table id, lower-case name)
        self.sweep_task: asyncio.Task[None] | None = None

    def start(self, table_id: str, name: str) -> None:
        """Start (or start again) `name`'s grace period at the table."""
        key = (table_id, name.lower())
        old = self.timers.pop(key, None)
        if old is not None:
            old.cancel()
        self.timers[key] = asyncio.create_task(self._over(table_id, name))

    def cancel(self, table_id: str, name: str) -> None:
        """`name` came back."""
        task = self.timers.pop((table_id, name.lower()), None)
        if task is not None:
            task.cancel()

    def expect(self, table_id: str, name: str) -> None:
        """A person seated on their behalf (quick play) has the usual grace period to arrive."""
        if not self.registry.here(table_id, name):
            self.start(table_id, name)

    def forget(self, table_id: str) -> None:
        """The table closed: its grace periods end without acting."""
        for key in [k for k in self.timers if k[0] == table_id]:
            task = self.timers.pop(key)
            if task is not asyncio.current_task():
                task.cancel()

    async def _over(self, table_id: str, name: str) -> None:
        await asyncio.sleep(self.seconds)
        self.timers.pop((table_id, name.lower()), None)
        if self.registry.here(table_id, name):
            return
        if await self.registry.presence.elsewhere(table_id, name):
            self.start(table_id, name)  # connected to another worker: look again later
            return
        try:
            await self.run(table_id, lambda t, ctx: Decision(t.decide_absent(name)))
        except TableError as err:
            log.info("grace period end at %s: %s", table_id, err.message)

    def for_the_absent(self, table: Table) -> None:
        """Every person seated at a table in play who is not here gets a grace period, however they came to
        be seated and away: seated without watching (a /join sent from elsewhere, quick play), a rematch
        accepted before leaving a finished table, a table rebuilt after a restart. With several workers the
        sweep does this, after asking the others whether the person is connected there."""
        if self.registry.shared or table.status not in ("open", "started"):
            return
        for seat in table.seats:
            if seat.name is None or seat.takeover is not None:
                continue
            if not self.registry.here(table.id, seat.name) and (table.id, seat.name.lower()) not in self.timers:
                self.start(table.id, seat.name)

    def start_sweep(self) -> None:
        if self.registry.shared:
            self.sweep_task = asyncio.create_task(self._sweep_absent())

    async def _sweep_absent(self, every: float = ABSENT_SWEEP_EVERY) -> None:
        """Several workers: people whose worker died are connected nowhere, yet no grace period runs for
        them anywhere (their worker's timers died with it). Start one here; whoever ends it first acts.
        Everybody not connected here is looked up in one batch (a pipeline), not one round trip each."""
        registry = self.registry
        while True:
            await asyncio.sleep(every)
            absent: dict[tuple[str, str], str] = {}
            for table in list(registry.tables.values()):
                if table.status not in ("open", "started"):
                    continue
                for seat in table.seats:
                    name = seat.name
                    if name is None or seat.kind != "human" or seat.takeover is not None:
                        continue
                    key = name.lower()
                    if registry.here(table.id, name) or (table.id, key) in self.timers:
                        continue
                    absent[(table.id, key)] = name
            elsewhere = await registry.presence.elsewhere_many(list(absent)) if absent else set()
            for (table_id, key), name in absent.items():
                if (table_id, key) in elsewhere or table_id not in registry.tables:
                    continue
                if not registry.here(table_id, name) and (table_id, key) not in self.timers:
                    self.start(table_id, name)
