"""Opening new tables: the creator within the limits, a fresh id, the creation event stored first.

Limits keep one person (or one address) from filling the server with tables: at most
config.max_open_tables open at once, and new ones at a bounded pace (token buckets, docs/server.md)."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from typing import Any

from ghostgames.server.config import ServerConfig
from ghostgames.server.delivery import Delivery
from ghostgames.server.ratelimit import KeyedBuckets, take_all
from ghostgames.server.registry import Registry
from ghostgames.server.sync import Sync
from ghostgames.storage import IdTaken, Repository
from ghostgames.tables import ClockLimits, Table, TableError, creation_event

ID_TRIES = 5  # fresh ids drawn (each a byte longer) before giving up on a run of taken ones


class Creation:
    def __init__(self, registry: Registry, config: ServerConfig, clock_limits: ClockLimits, repo: Repository,
                 delivery: Delivery, sync: Sync) -> None:
        self.registry = registry
        self.config = config
        self.clock_limits = clock_limits
        self.repo = repo
        self.delivery = delivery
        self.sync = sync
        per_person, per_address = config.create_per_person, config.create_per_address
        self._by_person = KeyedBuckets(per_person / 60.0, per_person)
        self._by_address = KeyedBuckets(per_address / 60.0, per_address)

    async def create(self, user: str | None, game: str, seats: int, options: dict[str, Any], clock: object,
                     address: str | None = None) -> Table:
        """A new table, once its settings are sound and its creator within the limits (docs/server.md)."""
        if user is None:
            raise TableError("auth_required", "choose a name first (send hello with a token or a guest name)")
        if clock is None:
            clock = self.config.default_clock  # None still: the game's own default clock
        created = creation_event(secrets.token_hex(4), game, seats, options, clock, user, self.clock_limits)
        self._check_limits(user, address)
        for attempt in range(ID_TRIES):
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
        self.registry.tables[table_id] = table
        self.delivery.changed(table, [], [])
        await self.sync.publish(self.sync.message(table_id, 1, [created]))
        return table

    def _check_limits(self, user: str, address: str | None) -> None:
        """At most config.max_open_tables tables of one's own at once, and new ones at a bounded pace per
        person and per address (token buckets); a refusal says when to try again. Per worker process."""
        key = user.lower()
        # Finished tables do not count: they are out of play, and close when nobody is left there.
        owned = sum(1 for t in self.registry.tables.values()
                    if t.status in ("open", "started") and (t.created_by or "").lower() == key)
        limit = self.config.max_open_tables
        if owned >= limit:
            raise TableError(
                "too_many_tables", f"you already have {owned} open tables and {limit} is the most; play or leave "
                f"one first (a table nobody sits at or watches closes after {self.config.idle_close:g} s)",
                open=owned, limit=limit, idle_close=self.config.idle_close)
        limits = [(self._by_person, key)]
        if address:
            limits.append((self._by_address, address))
        now = time.monotonic()
        wait = take_all(limits, now)
        if wait > 0:
            by_person = self._by_person.wait(key, now) >= wait
            retry = max(1, math.ceil(wait))
            raise TableError(
                "create_limited", f"too many new tables {'from you' if by_person else 'from your address'} in a "
                f"short time; try again in {retry} s", retry_after=retry, per="person" if by_person else "address")
