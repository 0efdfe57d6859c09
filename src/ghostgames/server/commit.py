"""The one way a table changes: decide -> store -> apply -> tell.

Every change (a person's command or move, a bot's move, a clock running out, a grace period ending, a
close) goes through `Commits.run`: decided under the table's lock on the table as it is, appended to the
event log, only then applied to the table in memory and sent to its watchers and the other workers. So
nobody hears of a change before it is in the log, and a restart (or another worker) loses nothing."""

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
from ghostgames.tables.events import EventData, TableEvent, events_to_json, status_after

# Decisions made for one change when each is refused by the log because another worker stored first. Each
# retry follows a read of what that worker stored; losing three races in a row is a table busier than any
# game, and the client is told to try again.
COMMIT_TRIES = 3


class CommitConflict(TableError):
    """Another worker appended to the table first every time (the unique per-table sequence)."""


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
        """Decide under the table's lock, then store, apply and tell (`_commit`).

        With several workers the table in memory follows the others through the fan-out, and no read
        precedes a decision. Two things say it lagged: the database refuses the append (its unique
        (table, seq): another worker stored first), or the decision is a refusal that the missed events
        may explain (a version the client saw elsewhere, a turn taken meanwhile). Either way this worker
        reads what it missed and decides again, on the table as it now is; a command that named the version
        it saw then gets stale_version from `decide`, one that did not goes on."""
        await self.sync.load(table_id)
        for attempt in range(COMMIT_TRIES):
            async with self.registry.locks.hold(table_id):
                table = self.registry.get(table_id)
                # Only the first decision can rest on a lagging table: a later one follows a read of the log.
                decision = await self._decide(table, decide, may_lag=self.registry.shared and attempt == 0)
                if not decision.events or await self._commit(table, decision.events):
                    return decision
        raise CommitConflict("stale_version", "the table changed at the same moment; here is the fresh table",
                             sent=None, current=table.version)

    async def _decide(self, table: Table, decide: Decide, may_lag: bool) -> Decision:
        """`decide` on the table; a refusal on a table that `may_lag` is decided again after reading what
        this worker missed, when there was something."""
        try:
            return decide(table, self.context(table))
        except TableError:
            if not may_lag:
                raise
            seq = table.seq
            await self.sync.catch_up(table)
            if table.seq == seq:
                raise
        if table.status == "closed":
            raise TableError("no_such_table", f"there is no table {table.id!r}", table=table.id)
        return decide(table, self.context(table))

    async def _commit(self, table: Table, decided: list[TableEvent]) -> bool:
        """Store the events, then apply them and tell everybody: the watchers here (each their view) and the
        other workers (the fan-out). False when another worker stored first: the table has then caught up
        with what it stored, and these events are dropped. The table applies the decided values themselves
        (a move's worked-out position rides along); storage and the fan-out get their JSON."""
        events = events_to_json(decided)
        try:
            await self._store(table, events, status_after(decided))
        except SeqConflict:
            await self.sync.catch_up(table)
            return False
        message = self.sync.message(table.id, table.seq + 1, events)  # before `apply` may share their parts
        self.sync.apply_stored(table, decided)
        await self.sync.publish(message)
        self.sweeper.close_soon_if_abandoned(table)
        return True

    async def _store(self, table: Table, events: list[EventData], status: str | None) -> None:
        """Append the events as the table's next seqs, with the table's status after them and, when they
        finish a game, its record (for replays and ratings), all in one transaction. Raises SeqConflict."""
        record = _finished_record(table, events)
        seat_keys, own_moves = None, None
        if record is not None:
            seat_keys = [bot_key(s.bot) if s.bot is not None else person_key(s.name or "") for s in table.seats]
            own_moves = table.own_moves_after(events)
        append = Append(table.id, table.seq + 1, events, status, record, seat_keys, table.rated,
                        own_moves)
        if self.repo.appends_on_the_loop(record):
            await self.repo.append_async(append.table_id, append.first_seq, append.events, append.status)
        else:
            await self.appends.append(append)


def _finished_record(table: Table, events: list[EventData]) -> tuple[GameRecord, list[str], dict[str, Any]] | None:
    """When `events` finish the game: its record (the table's record and the moves among the events, which
    it has not applied yet), the players' names and the outcome, as the finished event gives them."""
    finished = next((e for e in events if e["kind"] == "finished"), None)
    if finished is None or table.seed is None:
        return None
    record = table.record()
    record.actions.extend((int(e["seat"]), str(e["text"])) for e in events if e["kind"] == "action")
    return record, list(finished["names"]), dict(finished["outcome"])
