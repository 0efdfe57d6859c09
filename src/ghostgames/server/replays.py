"""Serving replay pages cheaply (issue 31, hole 6): a page is built off the event loop, at most a few at a
time, once per (record, reader seat, page) however many readers ask for it at once, and its encoded bytes
are kept in a small least-recently-used cache bounded in bytes. Requests are counted per address
(`replays_limited`, server/ratelimit.py). All of it is per server process."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable

from fastapi.responses import Response

from ghostgames.server.ratelimit import PerAddress
from ghostgames.storage.replay import encode_replay, seat_replay
from ghostgames.storage.repository import StoredRecord
from ghostgames.tables import TableError

# (record id, reader seat or None for a spectator, first step, steps asked for)
Key = tuple[int, int | None, int, int]
BUILDS_AT_ONCE = 2  # pages built at the same time per process: each holds a game's states and views


class ReplayCache:
    """Encoded pages, the least recently used dropped first once the bytes held pass `max_bytes`; a page
    larger than a quarter of that is not kept (it would push out everything else). Records never change
    once stored, so an entry is never stale."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.held = 0
        self.hits = 0
        self.misses = 0
        self._pages: OrderedDict[Key, bytes] = OrderedDict()

    def get(self, key: Key) -> bytes | None:
        body = self._pages.get(key)
        if body is None:
            self.misses += 1
            return None
        self.hits += 1
        self._pages.move_to_end(key)
        return body

    def put(self, key: Key, body: bytes) -> None:
        if len(body) > self.max_bytes // 4 or key in self._pages:
            return
        self._pages[key] = body
        self.held += len(body)
        while self.held > self.max_bytes:
            _, dropped = self._pages.popitem(last=False)
            self.held -= len(dropped)

    def __len__(self) -> int:
        return len(self._pages)


class Replays:
    """The replay endpoints' shared part: the per-address limit, the cache, and the builds in flight (eight
    readers asking for the same page at once wait for one build)."""

    def __init__(self, per_minute: float, cache_bytes: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = PerAddress(per_minute, 60.0, lambda retry: TableError(
            "replays_limited", f"too many replay requests from your address in a short time; try again in "
            f"{retry} s", retry_after=retry), clock)
        self.cache = ReplayCache(cache_bytes)
        self._building: dict[Key, asyncio.Task[bytes]] = {}
        self._builds = asyncio.Semaphore(BUILDS_AT_ONCE)

    def count(self, address: str | None) -> None:
        """Count one replay request from `address`, or raise `replays_limited` (with `retry_after`)."""
        self.limit.take(address)

    def cached(self, key: Key) -> Response | None:
        """A page already built, answered without reading the record again (records never change)."""
        body = self.cache.get(key)
        return None if body is None else Response(body, media_type="application/json")

    async def page(self, stored: StoredRecord, seat: int | None, start: int, count: int) -> Response:
        """The encoded page, from the cache or built in a thread (raises NoSuchStep past the last step)."""
        key: Key = (stored.id, seat, start, count)
        body = self.cache.get(key)
        if body is None:
            body = await self._build(key, stored)
        return Response(body, media_type="application/json")

    async def _build(self, key: Key, stored: StoredRecord) -> bytes:
        """One build per key at a time, as a task of its own: a reader who goes away does not cancel the
        build the others wait for."""
        task = self._building.get(key)
        if task is None:
            task = asyncio.create_task(self._run(key, stored))
            self._building[key] = task
            task.add_done_callback(lambda done: self._finished(key, done))
        return await asyncio.shield(task)

    async def _run(self, key: Key, stored: StoredRecord) -> bytes:
        _, seat, start, count = key
        async with self._builds:
            body = await asyncio.to_thread(lambda: encode_replay(seat_replay(stored, seat, start, count)))
        self.cache.put(key, body)
        return body

    def _finished(self, key: Key, task: asyncio.Task[bytes]) -> None:
        self._building.pop(key, None)
        if not task.cancelled():
            task.exception()  # retrieved here, so a failure nobody waited for is not logged as lost
