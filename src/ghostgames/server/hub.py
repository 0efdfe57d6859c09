"""The hub: the parts that keep live tables, put together, and the few calls the WebSocket and HTTP sides
make. Each part has one job (its own module); this file only wires them and names the entry points.

    registry   what this worker holds: tables, locks, watchers, its place among workers
    lobby      the table list its listeners see, in gathered updates
    delivery   each watcher's view of a change, made once per reader
    grace      seated people who are away: a bot plays for them after the grace period
    sweeper    closing tables nobody uses
    watching   connections coming and going at tables
    scheduling bot moves and clock alarms
    sync       memory in step with the event log and the other workers
    commit     the one way a table changes: decide, store, apply, tell
    creation   new tables within the limits
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from ghostgames.server.bots import BotRunner
from ghostgames.server.commit import Commits
from ghostgames.server.config import ServerConfig
from ghostgames.server.connection import Connection
from ghostgames.server.creation import Creation
from ghostgames.server.delivery import Delivery
from ghostgames.server.fanout import Fanout
from ghostgames.server.grace import Grace
from ghostgames.server.lobby import Lobby
from ghostgames.server.registry import Decide, Registry
from ghostgames.server.scheduling import Scheduler
from ghostgames.server.shared import STOP_GRACE, LocalLeases, LocalPresence
from ghostgames.server.sweeper import Sweeper
from ghostgames.server.sync import TOPIC, Sync
from ghostgames.server.tasks import stop_tasks
from ghostgames.server.watching import Watching
from ghostgames.storage import Repository
from ghostgames.tables import ClockLimits, Decision, Table, parse_command
from ghostgames.tables.commands import Leave

log = logging.getLogger(__name__)


class Hub:
    def __init__(self, config: ServerConfig, repo: Repository, fanout: Fanout, bots: BotRunner) -> None:
        self.config = config
        self.repo = repo
        self.bots = bots
        clock_limits = ClockLimits(move_min=config.clock_min)
        self.registry = registry = Registry(config.idle_claim)
        self.tables = registry.tables
        self.locks = registry.locks
        self.lobby = Lobby(registry, config)
        self.delivery = Delivery(registry, self.lobby)
        self.grace = Grace(registry, config.grace_seconds, self.run)
        self.sweeper = Sweeper(registry, config, self.run)
        self.watching = Watching(registry, self.delivery, self.grace, self.sweeper)
        self.scheduler = Scheduler(registry, config, bots, self.grace, self.run,
                                   catch_up=lambda table: self.sync.catch_up(table))
        self.sync = Sync(registry, repo, fanout, self.delivery, self.lobby, self.scheduler, self.grace, self.sweeper,
                         self.watching)
        self.commits = Commits(registry, config, clock_limits, repo, self.sync, self.sweeper)
        self.creation = Creation(registry, config, clock_limits, repo, self.delivery, self.sync)

    @property
    def worker(self) -> str:
        return self.registry.worker

    @property
    def fanout(self) -> Fanout:
        return self.sync.fanout

    @fanout.setter
    def fanout(self, fanout: Fanout) -> None:
        self.sync.fanout = fanout

    def share(self, leases: LocalLeases, presence: LocalPresence) -> None:
        """Run as one of several workers on one database."""
        self.registry.share(leases, presence)

    # --- life ---------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every live table from its events; absent people get their grace period from now."""
        for table_id in await asyncio.to_thread(self.repo.live_tables):
            try:
                events = await asyncio.to_thread(self.repo.events, table_id)
                table = Table.from_events(events, time.monotonic())
            except Exception:
                log.exception("table %s could not be rebuilt; it is left out", table_id)
                continue
            self.tables[table_id] = table
            for seat in table.seats:
                if seat.name is not None and seat.takeover is None and table.status in ("open", "started"):
                    self.grace.start(table_id, seat.name)
            self.scheduler.schedule(table)
        self.fanout.on_reconnect(self.sync.catch_up_all)
        await self.fanout.subscribe(TOPIC, self.sync.on_fanout)
        await self.registry.presence.start()
        self.grace.start_sweep()
        self.sweeper.start()

    async def stop(self) -> None:
        tasks = [*self.grace.timers.values(), *self.scheduler.tasks(), *self.sweeper.closing,
                 self.grace.sweep_task, self.sweeper.sweep_task, self.lobby.flush_task]
        await stop_tasks(tasks, grace=STOP_GRACE)
        await self.commits.appends.stop()
        await self.registry.presence.close()

    # --- what clients see -------------------------------------------------------------------------
    def summary(self, table: Table) -> dict[str, Any]:
        return self.registry.summary(table)

    def table_message(self, table: Table, conn: Connection | None, history: bool = False) -> dict[str, Any]:
        return self.delivery.table_message(table, conn, history)

    # --- changing tables ------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        return self.registry.get(table_id)

    async def load(self, table_id: str) -> Table:
        return await self.sync.load(table_id)

    async def create(self, user: str | None, game: str, seats: int, options: dict[str, Any], clock: object,
                     address: str | None = None) -> Table:
        return await self.creation.create(user, game, seats, options, clock, address)

    async def run(self, table_id: str, decide: Decide) -> Decision:
        return await self.commits.run(table_id, decide)

    async def command(self, conn: Connection, table_id: str, text: str, version: int | None) -> Decision:
        command = parse_command(text)
        table = await self.load(table_id)
        if isinstance(command, Leave) and table.seat_of(conn.user) is None:
            self.unwatch(conn, table_id)
            return Decision()
        return await self.run(table_id, lambda t, ctx: t.decide(conn.user, command, version, ctx))

    async def action(self, conn: Connection, table_id: str, action: Any, version: int | None) -> Decision:
        return await self.run(table_id, lambda t, ctx: t.decide_action(conn.user, action, version, ctx))

    # --- watching -------------------------------------------------------------------------------
    def watch(self, conn: Connection, table_id: str, msg_id: str | int | None = None) -> None:
        self.watching.watch(conn, table_id, msg_id)

    def unwatch(self, conn: Connection, table_id: str) -> None:
        self.watching.unwatch(conn, table_id)

    def disconnect(self, conn: Connection) -> None:
        for table_id in list(conn.watching):
            self.unwatch(conn, table_id)
        self.lobby.leave(conn)

    def expect(self, table_id: str, name: str) -> None:
        """A person seated on their behalf (quick play) has the usual grace period to arrive."""
        self.grace.expect(table_id, name)
