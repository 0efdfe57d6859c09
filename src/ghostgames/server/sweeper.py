"""Closing tables nobody uses, so memory and the lobby hold only tables in use: at once when the last
watcher leaves a table nobody sits at, and by a sweep every config.sweep_every seconds for tables left
idle config.idle_close seconds. A close is an event like any other, so a restart keeps the table closed."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from ghostgames.server.config import ServerConfig
from ghostgames.server.registry import WATCHING, Registry, Run
from ghostgames.tables import Decision, Table, TableError

log = logging.getLogger(__name__)


class Sweeper:
    def __init__(self, registry: Registry, config: ServerConfig, run: Run) -> None:
        self.registry = registry
        self.config = config
        self.run = run
        self._idle_since: dict[str, float] = {}  # when each idle table was first seen idle
        self.closing: set[asyncio.Task[Any]] = set()
        self.sweep_task: asyncio.Task[None] | None = None

    def idle(self, table: Table) -> bool:
        """Out of play and left alone: open with no person seated or finished, and watched by nobody here."""
        if self.registry.watchers.get(table.id):
            return False
        return table.status == "finished" or (table.status == "open" and not table.occupied())

    def close_soon_if_abandoned(self, table: Table) -> None:
        """The last watcher left a table nobody sits at (bots aside), not in a running game: close it now.
        In a task of its own: callers may hold the table's lock, and closing takes it."""
        watchers = self.registry.watchers
        if table.status in ("started", "closed") or watchers.get(table.id) or table.occupied():
            return
        task = asyncio.create_task(self.close_table(table.id, "abandoned", lambda t: not watchers.get(t.id)
                                              and t.status != "started" and not t.occupied()))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    async def close_table(self, table_id: str, reason: str, still: Callable[[Table], bool]) -> bool:
        """Close a table through its events when `still(table)` holds under its lock and no other worker
        has a connection watching it; True when it closed."""
        if self.registry.shared and await self.registry.presence.elsewhere(table_id, WATCHING):
            return False
        try:
            decision = await self.run(table_id, lambda t, ctx: Decision(t.decide_close(reason) if still(t) else []))
        except TableError as err:
            log.info("closing %s: %s", table_id, err.message)
            return False
        return bool(decision.events)

    def forget(self, table_id: str) -> None:
        self._idle_since.pop(table_id, None)

    def start(self) -> None:
        """Sweep from the start, so tables rebuilt from the log after a restart are swept too."""
        self.sweep_task = asyncio.create_task(self._sweep_idle())

    async def _sweep_idle(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_every)
            try:
                await self.sweep_idle()
            except Exception:
                log.exception("the idle-table sweep failed; it runs again in %.0f s", self.config.sweep_every)

    async def sweep_idle(self) -> int:
        """One sweep; the number of tables it closed."""
        now = time.monotonic()
        closed = 0
        for table in list(self.registry.tables.values()):
            if not self.idle(table):
                self._idle_since.pop(table.id, None)
                continue
            since = self._idle_since.setdefault(table.id, now)
            if now - since < self.config.idle_close:
                continue
            if self.registry.shared and await self.registry.presence.elsewhere(table.id, WATCHING):
                self._idle_since[table.id] = now  # watched on another worker
                continue
            reason = f"nobody sat or watched for {self.config.idle_close:g} s"
            if await self.close_table(table.id, reason, self.idle):
                closed += 1
        return closed
