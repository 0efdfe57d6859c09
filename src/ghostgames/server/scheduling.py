"""What a table waits for besides people: bot moves and clock alarms, set again after every change.

Bots think off the event loop (server/bots.py) and move through the commit path like anyone else. With
several workers one worker holds a table's lease and only it runs that table's bots and clocks; a dead
holder's lease lapses and another worker takes over."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable

from ghostgames.bots import remembers
from ghostgames.rules.chance import derive_rng
from ghostgames.server.bots import BotRunner
from ghostgames.server.config import ServerConfig
from ghostgames.server.grace import Grace
from ghostgames.server.registry import Registry, Run
from ghostgames.tables import Context, Decision, Table, TableError

log = logging.getLogger(__name__)
CLOCK_SLACK = 0.01  # seconds an alarm waits past the deadline, so the clock has surely run out
LEASE_RETRY = 0.5  # seconds between attempts to take a table's lease held by another worker


class Scheduler:
    def __init__(self, registry: Registry, config: ServerConfig, bots: BotRunner, grace: Grace, run: Run,
                 catch_up: Callable[[Table], Awaitable[None]]) -> None:
        self.registry = registry
        self.config = config
        self.bots = bots
        self.grace = grace
        self.run = run
        self.catch_up = catch_up
        self._clock: dict[str, asyncio.Task[None]] = {}
        self._bot: dict[tuple[str, int], tuple[int, asyncio.Task[None]]] = {}  # (table, seat) -> (version, task)

    def tasks(self) -> list[asyncio.Task[None]]:
        return [*self._clock.values(), *(t for _, t in self._bot.values())]

    def schedule(self, table: Table) -> None:
        """After any change: grace periods for the absent, a bot task per bot to move, the next clock alarm."""
        self.grace.for_the_absent(table)
        for index in range(table.seat_count):
            finished = self._bot.get((table.id, index))
            if finished is not None and finished[1].done():
                del self._bot[(table.id, index)]
        for seat, level, by in table.bot_turns():
            key = (table.id, seat)
            running = self._bot.get(key)
            if running is not None and running[0] == table.version and not running[1].done():
                continue
            task = asyncio.create_task(self._bot_move(table.id, seat, level, by, table.version))
            self._bot[key] = (table.version, task)
        old = self._clock.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        deadline = table.next_deadline()
        if deadline is not None:
            self._clock[table.id] = asyncio.create_task(self._clock_alarm(table.id, deadline))

    def forget(self, table_id: str) -> None:
        """The table closed: its bots and clock stop."""
        tasks = [self._clock.pop(table_id, None), *(t for (tid, _), (_, t) in self._bot.items() if tid == table_id)]
        for task in tasks:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for key in [k for k in self._bot if k[0] == table_id]:
            del self._bot[key]

    async def _bot_move(self, table_id: str, seat: int, level: str, by: str, version: int) -> None:
        try:
            await asyncio.sleep(self.config.bot_delay)
            if not await self._lease(table_id, version):
                return
            table = self.registry.tables.get(table_id)
            if table is None or table.version != version or table.state is None or table.seed is None:
                return
            seed = derive_rng(table.seed, "bot", table.round, version, seat).randrange(2**63)
            try:
                earlier = table.remembered(seat) if remembers(level, table.game.name) else ()
                text = await self.bots.choose(table.state.to_json(), seat, level, seed, earlier)
            except Exception:
                log.exception("bot %s failed at table %s; it plays a random legal move", level, table_id)
                text = ""

            def move(t: Table, ctx: Context) -> Decision:
                """The bot's move, or a random legal one when the bot's is refused (a bot that failed says
                nothing); none when the table moved on while the bot thought."""
                if t.version != version or t.state is None:
                    return Decision()
                try:
                    return Decision(t.decide_bot(seat, text, by, ctx))
                except TableError:
                    legal = t.state.legal_texts(seat)
                    if not legal:
                        return Decision()
                    return Decision(t.decide_bot(seat, random.Random(seed).choice(legal), by, ctx))

            if self.registry.tables.get(table_id) is table:  # not closed while the bot thought
                await self.run(table_id, move)
        except asyncio.CancelledError:
            raise
        except TableError as err:
            log.info("bot move at %s refused: %s", table_id, err.message)
        except Exception:
            log.exception("bot move at table %s failed", table_id)

    async def _clock_alarm(self, table_id: str, deadline: float) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()) + CLOCK_SLACK)
            table = self.registry.tables.get(table_id)
            if table is None or not await self._lease(table_id, table.version):
                return
            await self.run(table_id, lambda t, ctx: Decision(t.decide_timeouts(ctx)))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clock at table %s failed", table_id)

    async def _lease(self, table_id: str, version: int) -> bool:
        """Wait until this worker holds the table's lease (at once with one worker); False when the table
        moved on meanwhile (someone else acted). A dead holder's lease lapses and is taken here."""
        registry = self.registry
        while not await registry.leases.hold(table_id):
            await asyncio.sleep(LEASE_RETRY)
            table = registry.tables.get(table_id)
            if table is None or table.version != version:
                return False
            if registry.shared:
                async with registry.locks.hold(table_id):
                    await self.catch_up(table)
                if table.version != version:
                    return False
        return True
