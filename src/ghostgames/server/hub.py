"""The hub: live tables in memory, each changed only under its lock, event first into the store, then
applied, then told to the watchers (each its own view). Bots, clocks and grace periods live here too.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from ghostgames.bots import bot_names
from ghostgames.games import GAMES, get_game
from ghostgames.rules.chance import derive_rng
from ghostgames.rules.record import GameRecord
from ghostgames.server.bots import BotRunner
from ghostgames.server.config import ServerConfig
from ghostgames.server.connection import Connection, encode
from ghostgames.server.fanout import Fanout
from ghostgames.server.group_commit import GroupCommit
from ghostgames.server.keyed_locks import KeyedLocks
from ghostgames.server.ratelimit import KeyedBuckets, take_all
from ghostgames.server.shared import STOP_GRACE, LocalLeases, LocalPresence
from ghostgames.server.tasks import stop_tasks
from ghostgames.storage import Append, IdTaken, Repository, SeqConflict
from ghostgames.storage.ratings import bot_key, person_key
from ghostgames.tables import (
    ClockLimits,
    Context,
    Decision,
    LogLine,
    Table,
    TableError,
    creation_event,
    parse_command,
)
from ghostgames.tables.commands import Leave
from ghostgames.tables.events import Chatted, EventData, TableEvent, as_event, events_to_json
from ghostgames.tables.settings import table_option_schema

log = logging.getLogger(__name__)
# The presence entry a worker keeps for a table any of its connections watches (anonymous ones too), so
# another worker's sweep never closes a table someone there is looking at. No person's name has '*'.
WATCHING = "*watching*"


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


def games_list(default_clock: str | None = None) -> list[dict[str, Any]]:
    """Each game and its options; `default_clock` is the server's own default clock, if it sets one."""
    return [{**get_game(name).describe(), "table_options": table_option_schema(name, default_clock)}
            for name in GAMES]


class CommitConflict(TableError):
    """Another server process appended to the table first (the unique per-table sequence)."""


class Hub:
    def __init__(self, config: ServerConfig, repo: Repository, fanout: Fanout, bots: BotRunner) -> None:
        self.config = config
        self.repo = repo
        self.appends = GroupCommit(repo)  # every table's appends, several per transaction
        self.fanout = fanout
        self.bots = bots
        self.clock_limits = ClockLimits(move_min=config.clock_min)
        self.worker = secrets.token_hex(6)
        self.tables: dict[str, Table] = {}
        self.locks = KeyedLocks()  # one per table, while in use
        self.watchers: dict[str, set[Connection]] = defaultdict(set)
        self.present: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # table -> name -> count
        self.lobby: set[Connection] = set()
        self._grace: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._clock: dict[str, asyncio.Task[None]] = {}
        self._bot: dict[tuple[str, int], tuple[int, asyncio.Task[None]]] = {}
        self._rng = random.SystemRandom()
        self._lobby_seen: dict[str, str] = {}
        self._closing: set[asyncio.Task[Any]] = set()
        # Several workers (see server/shared.py): one lease per table for its bots and clocks, presence
        # across workers for grace periods, and a look at the event log before every change.
        self.leases = LocalLeases()
        self.presence = LocalPresence()
        self.shared = False
        self._sweeper: asyncio.Task[None] | None = None
        # Empty tables close after config.idle_close seconds: when each was first seen idle.
        self._idle_since: dict[str, float] = {}
        self._idle_sweeper: asyncio.Task[None] | None = None
        # Lobby changes gathered until the next flush: table id -> summary, and ids gone.
        self._lobby_changed: dict[str, dict[str, Any]] = {}
        self._lobby_removed: set[str] = set()
        self._lobby_flush: asyncio.Task[None] | None = None
        self._lobby_flushed = 0.0
        per_person, per_address = config.create_per_person, config.create_per_address
        self._creations_by_person = KeyedBuckets(per_person / 60.0, per_person)
        self._creations_by_address = KeyedBuckets(per_address / 60.0, per_address)

    def share(self, leases: LocalLeases, presence: LocalPresence) -> None:
        """Run as one of several workers on one database."""
        self.leases, self.presence, self.shared = leases, presence, True

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
                    self._start_grace(table_id, seat.name)
            self._schedule(table)
        self.fanout.on_reconnect(self._catch_up_all)
        await self.fanout.subscribe("tables", self._on_fanout)
        await self.presence.start()
        if self.shared:
            self._sweeper = asyncio.create_task(self._sweep_absent())
        self._idle_sweeper = asyncio.create_task(self._sweep_idle())

    async def stop(self) -> None:
        tasks = [*self._grace.values(), *self._clock.values(), *(t for _, t in self._bot.values()),
                 *self._closing, self._sweeper, self._idle_sweeper, self._lobby_flush]
        await stop_tasks(tasks, grace=STOP_GRACE)
        await self.appends.stop()
        await self.presence.close()

    def context(self, table: Table | None = None) -> Context:
        spectators: tuple[str, ...] = ()
        present: dict[str, int] = {}
        if table is not None:
            spectators = tuple(sorted({c.user or "(anonymous)" for c in self.watchers[table.id]
                                       if table.seat_of(c.user) is None}))
            present = self.present[table.id]

        def connected(name: str) -> bool:
            return table is None or present.get(name.lower(), 0) > 0

        return Context(now=time.monotonic(), new_seed=lambda: self._rng.randrange(2**63), wall=time.time(),
                       bot_levels=bot_names(), spectators=spectators, connected=connected,
                       clock_limits=self.clock_limits, idle_claim=self.config.idle_claim)

    # --- what clients see -------------------------------------------------------------------------
    def summary(self, table: Table) -> dict[str, Any]:
        present = self.present[table.id]
        spectators = sum(1 for c in self.watchers[table.id] if table.seat_of(c.user) is None)
        return table.summary(time.monotonic(), lambda name: present.get(name.lower(), 0) > 0, spectators,
                             self.config.idle_claim)

    def table_message(self, table: Table, conn: Connection | None, history: bool = False) -> dict[str, Any]:
        user = conn.user if conn else None
        seat = table.seat_of(user)
        message: dict[str, Any] = {"type": "table", "table": self.summary(table),
                                   "seat": seat.index if seat is not None else None,
                                   "view": table.view_for(table.view_seat(user))}
        if history:
            message["history"] = [_history_entry(entry) for entry in table.history]
        return message

    def _deliver(self, table: Table, lines: list[LogLine], chats: list[Chatted]) -> None:
        """Each reader's `table` and `log` frames are made (view computed, JSON encoded) once per seat and
        once for all spectators, then queued on every connection of that reader."""
        summary = self.summary(table)
        chat_texts = [encode({"type": "chat", "table": table.id, "from": chat.name, "seat": chat.seat,
                              "text": chat.text, "time": iso(float(chat.time or time.time()))})
                      for chat in chats]
        frames: dict[tuple[int | None, int | None], list[str]] = {}
        for conn in list(self.watchers[table.id]):
            for text in chat_texts:
                conn.send_text(text)
            if not lines and chats:
                continue
            reader = _reader(table, conn.user)
            if reader not in frames:
                seat, viewer = reader
                frames[reader] = [encode({"type": "table", "table": summary, "seat": seat,
                                          "view": table.view_for(viewer)})]
                if lines:
                    frames[reader].append(encode({"type": "log", "table": table.id, "version": table.version,
                                                  "lines": [line.for_reader(viewer) for line in lines]}))
            for text in frames[reader]:
                conn.send_text(text)
        self._tell_lobby(table, summary)

    def _tell_lobby(self, table: Table, summary: dict[str, Any]) -> None:
        """The lobby hears of a table only when what it lists changed (not on every move), and then in the
        next gathered `lobby_update`, not at once."""
        if table.status == "closed":
            return  # _forget tells the lobby it is gone
        signature = repr((summary["status"], summary["round"], summary["seats"], summary["spectators"],
                          summary["settings"], summary["votes"], summary["clock"]["mode"]))
        if self._lobby_seen.get(table.id) == signature:
            return
        self._lobby_seen[table.id] = signature
        if self.lobby:  # nobody listening: a new listener gets the whole list anyway
            self._lobby_changed[table.id] = summary
            self._lobby_soon()

    def _lobby_soon(self) -> None:
        """Flush the gathered lobby changes at most once per config.lobby_flush seconds: the first change
        after a quiet spell goes out at once, later ones wait for the next flush."""
        if self._lobby_flush is None or self._lobby_flush.done():
            delay = max(0.0, self._lobby_flushed + self.config.lobby_flush - time.monotonic())
            self._lobby_flush = asyncio.create_task(self._flush_lobby(delay))

    async def _flush_lobby(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._lobby_flushed = time.monotonic()
        changed, removed = self._lobby_changed, self._lobby_removed
        self._lobby_changed, self._lobby_removed = {}, set()
        listeners = list(self.lobby)
        if not listeners or not (changed or removed):
            return
        # One encoding for every listener: the cost grows with listeners x flushes, not x changes.
        text = encode({"type": "lobby_update", "tables": list(changed.values()), "removed": sorted(removed)})
        for conn in listeners:
            conn.send_text(text)

    def lobby_listen(self, conn: Connection) -> dict[str, Any]:
        """Add a lobby listener; the whole list it starts from (later changes come as lobby_update)."""
        self.lobby.add(conn)
        return self.lobby_message()

    def _idle(self, table: Table) -> bool:
        """Out of play and left alone: open with no person seated or finished, and watched by nobody here."""
        if self.watchers.get(table.id):
            return False
        return table.status == "finished" or (table.status == "open" and not table.occupied())

    def _close_soon_if_abandoned(self, table: Table) -> None:
        """The last watcher left a table nobody sits at (bots aside), not in a running game: close it now.
        In a task of its own: callers may hold the table's lock, and closing takes it."""
        if table.status in ("started", "closed") or self.watchers.get(table.id) or table.occupied():
            return
        task = asyncio.create_task(self.close_table(table.id, "abandoned", lambda t: not self.watchers.get(t.id)
                                              and t.status != "started" and not t.occupied()))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close_table(self, table_id: str, reason: str, still: Callable[[Table], bool]) -> bool:
        """Close a table through its events (so a restart keeps it closed) when `still(table)` holds under
        its lock and no other worker has a connection watching it; True when it closed."""
        if self.shared and await self.presence.elsewhere(table_id, WATCHING):
            return False
        try:
            decision = await self.run(table_id, lambda t, ctx: Decision(t.decide_close(reason) if still(t) else []))
        except TableError as err:
            log.info("closing %s: %s", table_id, err.message)
            return False
        return bool(decision.events)

    def _forget(self, table: Table) -> None:
        """A closed table leaves memory; its timers stop; the lobby hears it is gone."""
        self.tables.pop(table.id, None)
        self._lobby_seen.pop(table.id, None)
        self._idle_since.pop(table.id, None)
        tasks = [self._clock.pop(table.id, None), *(t for (tid, _), (_, t) in self._bot.items() if tid == table.id),
                 *(t for (tid, _), t in self._grace.items() if tid == table.id)]
        for task in tasks:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for key in [k for k in self._bot if k[0] == table.id]:
            del self._bot[key]
        for name_key in [k for k in self._grace if k[0] == table.id]:
            del self._grace[name_key]
        watchers = self.watchers.pop(table.id, set())
        for conn in watchers:
            conn.watching.discard(table.id)
        if watchers:
            self.presence.set_local(table.id, WATCHING, False)
        for name in self.present.pop(table.id, {}):
            self.presence.set_local(table.id, name, False)
        self._lobby_changed.pop(table.id, None)
        if self.lobby:
            self._lobby_removed.add(table.id)
            self._lobby_soon()

    async def _sweep_idle(self) -> None:
        """Every config.sweep_every seconds: close tables idle for config.idle_close seconds. It runs from
        the start, so tables rebuilt from the log after a restart are swept too."""
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
        for table in list(self.tables.values()):
            if not self._idle(table):
                self._idle_since.pop(table.id, None)
                continue
            since = self._idle_since.setdefault(table.id, now)
            if now - since < self.config.idle_close:
                continue
            if self.shared and await self.presence.elsewhere(table.id, WATCHING):
                self._idle_since[table.id] = now  # watched on another worker
                continue
            reason = f"nobody sat or watched for {self.config.idle_close:g} s"
            if await self.close_table(table.id, reason, self._idle):
                closed += 1
        return closed

    def lobby_message(self) -> dict[str, Any]:
        return {"type": "lobby", "games": games_list(self.config.default_clock),
                "tables": [self.summary(t) for t in self.tables.values()]}

    # --- changing tables ------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table", f"there is no table {table_id!r}", table=table_id)
        return table

    async def create(self, user: str | None, game: str, seats: int, options: dict[str, Any], clock: object,
                     address: str | None = None) -> Table:
        """A new table, once its settings are sound and its creator within the limits (docs/server.md)."""
        if user is None:
            raise TableError("auth_required", "choose a name first (send hello with a token or a guest name)")
        if clock is None:
            clock = self.config.default_clock  # None still: the game's own default clock
        created = creation_event(secrets.token_hex(4), game, seats, options, clock, user, self.clock_limits)
        self._check_creation_limits(user, address)
        for attempt in range(5):
            table_id = created["id"] if attempt == 0 else secrets.token_hex(4 + attempt)
            created = {**created, "id": table_id}
            try:
                await asyncio.to_thread(self.repo.create_table, table_id, created["game"], seats, created)
                break
            except IdTaken:  # that id is in use: draw another
                continue
        else:
            raise TableError("internal_error", "no free table id; try again")
        table = Table(created, time.monotonic())
        self.tables[table_id] = table
        self._deliver(table, [], [])
        message: dict[str, Any] = {"table": table_id, "seq": table.seq, "worker": self.worker}
        if self.shared:
            message.update(_fanout_events(1, [created]))
        await self.fanout.publish("tables", message)
        return table

    def _check_creation_limits(self, user: str, address: str | None) -> None:
        """At most config.max_open_tables tables of one's own at once, and new ones at a bounded pace per
        person and per address (token buckets); a refusal says when to try again. Per worker process."""
        key = user.lower()
        # Finished tables do not count: they are out of play, and close when nobody is left there.
        owned = sum(1 for t in self.tables.values()
                    if t.status in ("open", "started") and (t.created_by or "").lower() == key)
        limit = self.config.max_open_tables
        if owned >= limit:
            raise TableError(
                "too_many_tables", f"you already have {owned} open tables and {limit} is the most; play or leave "
                f"one first (a table nobody sits at or watches closes after {self.config.idle_close:g} s)",
                open=owned, limit=limit, idle_close=self.config.idle_close)
        limits = [(self._creations_by_person, key)]
        if address:
            limits.append((self._creations_by_address, address))
        now = time.monotonic()
        wait = take_all(limits, now)
        if wait > 0:
            by_person = self._creations_by_person.wait(key, now) >= wait
            retry = max(1, math.ceil(wait))
            raise TableError(
                "create_limited", f"too many new tables {'from you' if by_person else 'from your address'} in a "
                f"short time; try again in {retry} s", retry_after=retry, per="person" if by_person else "address")

    async def load(self, table_id: str) -> Table:
        """The table, from memory or (made by another server process) from the event log."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self.locks.hold(table_id):
            if table_id not in self.tables:
                events = await asyncio.to_thread(self.repo.events, table_id) if len(table_id) <= 32 else []
                if not events or await asyncio.to_thread(self.repo.table_status, table_id) == "closed":
                    raise TableError("no_such_table", f"there is no table {table_id!r}", table=table_id)
                loaded = Table.from_events(events, time.monotonic())
                if loaded.status == "closed":
                    raise TableError("no_such_table", f"there is no table {table_id!r}", table=table_id)
                self.tables[table_id] = loaded
                self._schedule(loaded)
        return self.tables[table_id]

    async def run(self, table_id: str, decide: Callable[[Table, Context], Decision]) -> Decision:
        """Decide under the table's lock, store the events, apply them, tell everybody.

        With several workers the table in memory is kept current by the fan-out, and no read precedes the
        decision: the database's unique (table, seq) refuses an append made on a table that another worker
        moved on meanwhile, and then this worker reads what it missed and decides again. A refusal decided
        on such a table (a version the client saw elsewhere, a turn taken meanwhile) is checked the same
        way: read what was missed, and decide again when there was something."""
        await self.load(table_id)
        looked = not self.shared
        for attempt in range(3):
            async with self.locks.hold(table_id):
                table = self.get(table_id)
                try:
                    decision = decide(table, self.context(table))
                except TableError:
                    if looked:
                        raise
                    looked = True
                    seq = table.seq
                    await self._catch_up(table)
                    if table.seq == seq:
                        raise
                    if table.status == "closed":
                        raise TableError("no_such_table", f"there is no table {table_id!r}",
                                         table=table_id) from None
                    decision = decide(table, self.context(table))
                if decision.events:
                    try:
                        await self._commit(table, decision.events)
                    except CommitConflict:
                        # Another worker stored first. Decide again on the fresh table: a command that
                        # named the version it saw now gets stale_version from `decide`; one without goes on.
                        if attempt == 2:
                            raise
                        looked = True
                        continue
                return decision
        raise AssertionError("unreachable")

    async def command(self, conn: Connection, table_id: str, text: str, version: int | None) -> Decision:
        command = parse_command(text)
        table = await self.load(table_id)
        if isinstance(command, Leave) and table.seat_of(conn.user) is None:
            self.unwatch(conn, table_id)
            return Decision()
        return await self.run(table_id, lambda t, ctx: t.decide(conn.user, command, version, ctx))

    async def action(self, conn: Connection, table_id: str, action: Any, version: int | None) -> Decision:
        return await self.run(table_id, lambda t, ctx: t.decide_action(conn.user, action, version, ctx))

    async def _commit(self, table: Table, decided: list[TableEvent]) -> None:
        events = events_to_json(decided)  # as stored and fanned out
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
            await self._catch_up(table)
            raise CommitConflict("stale_version", "the table changed at the same moment; here is the fresh table",
                                 sent=None, current=table.version) from None
        # What the other workers need to apply the change without reading it back from the database: the
        # stored events and where they start (encoded now, before `apply` may share parts of them).
        message: dict[str, Any] = {"table": table.id, "seq": table.seq + len(events), "worker": self.worker}
        if self.shared:
            message.update(_fanout_events(table.seq + 1, events))
        self._apply_stored(table, decided)
        await self.fanout.publish("tables", message)
        self._close_soon_if_abandoned(table)

    def _apply_stored(self, table: Table, events: Sequence[TableEvent | Mapping[str, Any]]) -> None:
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
        self._deliver(table, lines, chats)
        if table.status == "closed":
            self._forget(table)
        else:
            self._schedule(table)

    async def _catch_up(self, table: Table) -> None:
        """Read and apply what other processes stored since this process last looked."""
        self._apply_stored(table, await asyncio.to_thread(self.repo.events, table.id, table.seq))

    async def _catch_up_all(self) -> None:
        """The fan-out was broken for a while and its messages lost: read what each known table missed."""
        for table_id in list(self.tables):
            async with self.locks.hold(table_id):
                table = self.tables.get(table_id)
                if table is not None:
                    await self._catch_up(table)

    async def _on_fanout(self, topic: str, message: dict[str, Any]) -> None:
        if message.get("worker") == self.worker:
            return
        table_id = str(message.get("table"))
        async with self.locks.hold(table_id):
            table = self.tables.get(table_id)
            if table is None:
                events = message.get("events")
                if not (isinstance(events, list) and message.get("first") == 1
                        and len(events) == int(message.get("seq", 0))):
                    events = await asyncio.to_thread(self.repo.events, table_id)  # not from its start: read it
                if events:
                    table = Table.from_events(events, time.monotonic())
                    if table.status == "closed":
                        return
                    self.tables[table_id] = table
                    self._deliver(table, [], [])
                    self._schedule(table)
                return
            seq = int(message.get("seq", 0))
            if seq <= table.seq:
                return  # known already (a message that came late, or a read that went further)
            events = message.get("events")
            if isinstance(events, list) and message.get("first") == table.seq + 1 \
                    and table.seq + len(events) == seq:
                self._apply_stored(table, events)  # the next events in the log: no read needed
            else:
                await self._catch_up(table)  # a gap (a message lost or overtaken) or no events: read them

    # --- watching and presence --------------------------------------------------------------------
    def watch(self, conn: Connection, table_id: str, msg_id: str | int | None = None) -> None:
        table = self.get(table_id)
        if table_id not in conn.watching:
            conn.watching.add(table_id)
            self.watchers[table_id].add(conn)
            if len(self.watchers[table_id]) == 1:
                self.presence.set_local(table_id, WATCHING, True)
            if conn.user is not None:
                key = conn.user.lower()
                self.present[table_id][key] += 1
                if self.present[table_id][key] == 1:
                    self.presence.set_local(table_id, conn.user, True)
                task = self._grace.pop((table_id, key), None)
                if task is not None:
                    task.cancel()
        answer = self.table_message(table, conn, history=True)
        if msg_id is not None:
            answer["id"] = msg_id
        conn.send(answer)
        self._deliver_presence(table, exclude=conn)

    def unwatch(self, conn: Connection, table_id: str) -> None:
        if table_id not in conn.watching:
            return
        conn.watching.discard(table_id)
        self.watchers[table_id].discard(conn)
        if not self.watchers[table_id]:
            self.presence.set_local(table_id, WATCHING, False)
        table = self.tables.get(table_id)
        if conn.user is not None:
            key = conn.user.lower()
            self.present[table_id][key] -= 1
            if self.present[table_id][key] <= 0:
                del self.present[table_id][key]
                self.presence.set_local(table_id, conn.user, False)
                if table is not None:
                    seat = table.seat_of(conn.user)
                    if seat is not None and seat.takeover is None and table.status in ("open", "started"):
                        self._start_grace(table_id, conn.user)
        if table is not None:
            self._deliver_presence(table)

    def disconnect(self, conn: Connection) -> None:
        for table_id in list(conn.watching):
            self.unwatch(conn, table_id)
        self.lobby.discard(conn)

    def _deliver_presence(self, table: Table, exclude: Connection | None = None) -> None:
        """Someone came or went: everybody else gets the table with the new connected flags."""
        summary = self.summary(table)
        frames: dict[tuple[int | None, int | None], str] = {}
        for conn in list(self.watchers[table.id]):
            if conn is exclude:
                continue
            reader = _reader(table, conn.user)
            if reader not in frames:
                seat, viewer = reader
                frames[reader] = encode({"type": "table", "table": summary, "seat": seat,
                                         "view": table.view_for(viewer)})
            conn.send_text(frames[reader])
        self._tell_lobby(table, summary)
        self._close_soon_if_abandoned(table)

    def expect(self, table_id: str, name: str) -> None:
        """A person seated on their behalf (quick play) has the usual grace period to arrive."""
        if self.present[table_id].get(name.lower(), 0) == 0:
            self._start_grace(table_id, name)

    def _start_grace(self, table_id: str, name: str) -> None:
        key = (table_id, name.lower())
        old = self._grace.pop(key, None)
        if old is not None:
            old.cancel()
        self._grace[key] = asyncio.create_task(self._grace_over(table_id, name))

    async def _grace_over(self, table_id: str, name: str) -> None:
        await asyncio.sleep(self.config.grace_seconds)
        self._grace.pop((table_id, name.lower()), None)
        if self.present[table_id].get(name.lower(), 0) > 0:
            return
        if await self.presence.elsewhere(table_id, name):
            self._start_grace(table_id, name)  # connected to another worker: look again later
            return
        try:
            await self.run(table_id, lambda t, ctx: Decision(t.decide_absent(name)))
        except TableError as err:
            log.info("grace period end at %s: %s", table_id, err.message)

    def _grace_for_the_absent(self, table: Table) -> None:
        """Every person seated at a table in play who is not here gets a grace period, however they came to
        be seated and away: seated without watching (a /join sent from elsewhere, quick play), a rematch
        accepted before leaving a finished table, a table rebuilt after a restart. At its end a bot takes a
        running game's seat, so no game waits for ever on someone who is gone. With several workers the
        sweep does this, after asking the others whether the person is connected there."""
        if self.shared or table.status not in ("open", "started"):
            return
        for seat in table.seats:
            if seat.name is None or seat.takeover is not None:
                continue
            key = seat.name.lower()
            if self.present[table.id].get(key, 0) == 0 and (table.id, key) not in self._grace:
                self._start_grace(table.id, seat.name)

    # --- bots and clocks ------------------------------------------------------------------------
    def _schedule(self, table: Table) -> None:
        self._grace_for_the_absent(table)
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

    async def _bot_move(self, table_id: str, seat: int, level: str, by: str, version: int) -> None:
        try:
            await asyncio.sleep(self.config.bot_delay)
            if not await self._lease(table_id, version):
                return
            table = self.tables.get(table_id)
            if table is None or table.version != version or table.state is None or table.seed is None:
                return
            seed = derive_rng(table.seed, "bot", table.round, version, seat).randrange(2**63)
            try:
                text = await self.bots.choose(table.state.to_json(), seat, level, seed)
            except Exception:
                log.exception("bot %s failed at table %s; it plays a random legal move", level, table_id)
                text = ""
            async with self.locks.hold(table_id):
                if table.version != version or table.state is None:
                    return
                ctx = self.context(table)
                try:
                    events = table.decide_bot(seat, text, by, ctx)
                except TableError:
                    legal = table.state.legal_texts(seat)
                    if not legal:
                        return
                    events = table.decide_bot(seat, random.Random(seed).choice(legal), by, ctx)
                await self._commit(table, events)
        except asyncio.CancelledError:
            raise
        except TableError as err:
            log.info("bot move at %s refused: %s", table_id, err.message)
        except Exception:
            log.exception("bot move at table %s failed", table_id)

    async def _clock_alarm(self, table_id: str, deadline: float) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline - time.monotonic()) + 0.01)
            table = self.tables.get(table_id)
            if table is None or not await self._lease(table_id, table.version):
                return
            await self.run(table_id, lambda t, ctx: Decision(t.decide_timeouts(ctx)))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clock at table %s failed", table_id)


    async def _sweep_absent(self, every: float = 2.0) -> None:
        """Several workers: people whose worker died are connected nowhere, yet no grace period runs for
        them anywhere (their worker's timers died with it). Start one here; whoever ends it first acts.
        Everybody not connected here is looked up in one batch (a pipeline), not one round trip each."""
        while True:
            await asyncio.sleep(every)
            absent: dict[tuple[str, str], str] = {}
            for table in list(self.tables.values()):
                if table.status not in ("open", "started"):
                    continue
                for seat in table.seats:
                    name = seat.name
                    if name is None or seat.kind != "human" or seat.takeover is not None:
                        continue
                    key = name.lower()
                    if self.present[table.id].get(key, 0) > 0 or (table.id, key) in self._grace:
                        continue
                    absent[(table.id, key)] = name
            elsewhere = await self.presence.elsewhere_many(list(absent)) if absent else set()
            for (table_id, key), name in absent.items():
                if (table_id, key) in elsewhere or table_id not in self.tables:
                    continue
                if self.present[table_id].get(key, 0) == 0 and (table_id, key) not in self._grace:
                    self._start_grace(table_id, name)

    async def _lease(self, table_id: str, version: int) -> bool:
        """Wait until this worker holds the table's lease (at once with one worker); False when the table
        moved on meanwhile (someone else acted). A dead holder's lease lapses and is taken here."""
        while not await self.leases.hold(table_id):
            await asyncio.sleep(0.5)
            table = self.tables.get(table_id)
            if table is None or table.version != version:
                return False
            if self.shared:
                async with self.locks.hold(table_id):
                    await self._catch_up(table)
                if table.version != version:
                    return False
        return True


# A fan-out message carries its events when they are at most this long in JSON; a longer change (a big
# chat line, say) goes out as "table T is at seq N" and the other workers read it from the database.
FANOUT_EVENTS_MAX = 16_000


def _fanout_events(first: int, events: list[EventData]) -> dict[str, Any]:
    """The events of one append as the fan-out carries them: a JSON copy (what the database's JSON column
    gives back, too), or nothing when too long. They cross Redis, which is as trusted as the database."""
    text = json.dumps(events, separators=(",", ":"))
    if len(text) > FANOUT_EVENTS_MAX:
        return {}
    return {"first": first, "events": json.loads(text)}


def _reader(table: Table, user: str | None) -> tuple[int | None, int | None]:
    """Who a connection is at a table: the seat it sits in now, and the seat whose view it may read (the
    one it played in the game shown; see Table.view_seat). Frames are made once per such pair."""
    seat = table.seat_of(user)
    return (seat.index if seat is not None else None), table.view_seat(user)


def _history_entry(entry: dict[str, Any]) -> dict[str, Any]:
    if entry.get("kind") == "chat":
        return {"kind": "chat", "from": entry["name"], "seat": entry.get("seat"), "text": entry["text"],
                "time": iso(float(entry.get("time") or 0.0))}
    return {"kind": "log", "line": entry["line"]}
