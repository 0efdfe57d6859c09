"""The one way a table changes: decide under its lock, store the events, apply them, tell everybody.

Nobody hears of a change before it is in the log, so a restart (or another worker) loses nothing."""

from __future__ import annotations

import random
import time
from typing import Any

from ghostgames.bots import bot_names
from ghostgames.rules.record import GameRecord
from ghostgames.server.config import ServerConfig
from ghostgames.server.group_commit import GroupCommit
from ghostgames.server.registry import Decide, Registry
from ghostgames.server.sweeper import Sweeper
from ghostgames.server.sync import Sync
from ghostgames.storage import Append, Repository, SeqConflict
from ghostgames.storage.ratings import bot_key, person_key
from ghostgames.tables import ClockLimits, Context, Decision, Table, TableError
from ghostgames.tables.table import EventData


class CommitConflict(TableError):
    """Another server process appended to the table first (the unique per-table sequence)."""


class Commits:
    def __init__(self, registry: Registry, config: ServerConfig, clock_limits: ClockLimits, repo: Repository,
                 sync: Sync, sweeper: Sweeper) -> None:
        self.registry = registry
        self.config = config
        self.repo = repo
        self.appends = GroupCommit(repo)  # every table's appends, several per transaction
        self.sync = sync
        self.sweeper = sweeper
        self.clock_limits = clock_limits
        self._rng = random.SystemRandom()

    def context(self, table: Table | None = None) -> Context:
        """What a decision needs from outside the table: the time, fresh seeds, who is here."""
        spectators: tuple[str, ...] = ()
        present: dict[str, int] = {}
        if table is not None:
            spectators = tuple(sorted({c.user or "(anonymous)" for c in self.registry.watchers[table.id]
                                       if table.seat_of(c.user) is None}))
            present = self.registry.present[table.id]

        def connected(name: str) -> bool:
            return table is None or present.get(name.lower(), 0) > 0

        return Context(now=time.monotonic(), new_seed=lambda: self._rng.randrange(2**63), wall=time.time(),
                       bot_levels=bot_names(), spectators=spectators, connected=connected,
                       clock_limits=self.clock_limits, idle_claim=self.config.idle_claim)

    async def run(self, table_id: str, decide: Decide) -> Decision:
        """Decide under the table's lock, store the events, apply them, tell everybody.

        With several workers the table in memory is kept current by the fan-out, and no read precedes the
        decision: the database's unique (table, seq) refuses an append made on a table that another worker
        moved on meanwhile, and then this worker reads what it missed and decides again. A refusal decided
        on such a table (a version the client saw elsewhere, a turn taken meanwhile) is checked the same
        way: read what was missed, and decide again when there was something."""
        await self.sync.load(table_id)
        looked = not self.registry.shared
        for attempt in range(3):
            async with self.registry.locks.hold(table_id):
                table = self.registry.get(table_id)
                try:
                    decision = decide(table, self.context(table))
                except TableError:
                    if looked:
                        raise
                    looked = True
                    seq = table.seq
                    await self.sync.catch_up(table)
                    if table.seq == seq:
                        raise
                    if table.status == "closed":
                        raise TableError("no_such_table", f"there is no table {table_id!r}",
                                         table=table_id) from None
                    decision = decide(table, self.context(table))
                if decision.events:
                    try:
                        await self.commit(table, decision.events)
                    except CommitConflict:
                        # Another worker stored first. Decide again on the fresh table: a command that
                        # named the version it saw now gets stale_version from `decide`; one without goes on.
                        if attempt == 2:
                            raise
                        looked = True
                        continue
                return decision
        raise AssertionError("unreachable")

    async def commit(self, table: Table, events: list[EventData]) -> None:
        status = None
        for event in events:
            status = {"started": "started", "finished": "finished", "rematch": "open",
                      "closed": "closed"}.get(event["kind"], status)
        record, seat_keys, own_moves = None, None, None
        finished = next((e for e in events if e["kind"] == "finished"), None)
        if finished is not None and table.seed is not None and table.options is not None:
            actions = [*table.actions, *((int(e["seat"]), str(e["text"])) for e in events if e["kind"] == "action")]
            game_record = GameRecord(table.game.name, table.seat_count, dict(table.options), table.seed, actions)
            record = (game_record, list(finished["names"]), dict(finished["outcome"]))
            seat_keys = [bot_key(s.bot) if s.bot is not None else person_key(s.name or "") for s in table.seats]
            own_moves = table.own_moves_after(events)
        try:
            append = Append(table.id, table.seq + 1, events, status, record, seat_keys, table.rated, own_moves)
            if self.repo.appends_on_the_loop(record):
                await self.repo.append_async(append.table_id, append.first_seq, append.events, append.status)
            else:
                await self.appends.append(append)
        except SeqConflict:
            await self.sync.catch_up(table)
            raise CommitConflict("stale_version", "the table changed at the same moment; here is the fresh table",
                                 sent=None, current=table.version) from None
        # What the other workers need to apply the change without reading it back from the database: the
        # stored events and where they start (encoded now, before `apply` may share parts of them).
        message: dict[str, Any] = self.sync.message(table.id, table.seq + 1, events)
        self.sync.apply_stored(table, events)
        await self.sync.publish(message)
        self.sweeper.close_soon_if_abandoned(table)
