"""What several server processes share through Redis, beside the event log in the database:

- `RedisFanout`: the `Fanout` interface over Redis pub/sub ("table T moved on to seq N", with the events
  that took it there), so a client on any worker hears of every change;
- `Leases`: per-table leases, so bots and clocks of a table act in one worker only; a lease lapses
  `ttl` seconds after its holder stops renewing it (a dead worker), and another worker takes it;
- `Presence`: which people are connected to a table on any worker, so a grace period does not end for
  someone who merely talks to another worker. Each worker refreshes its own entries; a dead worker's
  entries lapse.

One process without Redis uses `LocalLeases` and `LocalPresence`, which answer from memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, cast

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from ghostgames.server.fanout import Fanout, Handler, run_handler
from ghostgames.server.tasks import stop_task

log = logging.getLogger(__name__)
PREFIX = "ghostgames:"
REDIS_TIMEOUT = 5.0  # seconds a Redis command or connect may take before it fails
# Connections a worker keeps to Redis for commands. A command that finds them all busy waits (up to
# REDIS_TIMEOUT) for one to come free: redis-py's default pool refused the 101st at once, and a burst of
# presence writes then cost a fan-out publish. Presence writes go through one writer (RedisPresence), so
# the pool serves publishes, leases and presence reads.
REDIS_POOL = 32
PIPELINE_CHUNK = 500  # entries per pipeline round trip (presence)
# How long shutdown waits for a loop that may be inside a Redis command: that command's timeout, and a bit.
STOP_GRACE = REDIS_TIMEOUT + 1

_TAKE_OR_RENEW = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisFanout(Fanout):
    """Pub/sub on channels `ghostgames:<topic>`; one reader task calls the handlers, and reconnects (with
    a growing pause) when Redis goes away. Handlers must tolerate a missed message: the hub catches up
    from the event log whenever it next hears of a table, and before it changes one."""

    def __init__(self, url: str) -> None:
        self.url = url
        # Commands never wait forever on a stuck connection (a cancelled command can leave one so);
        # the subscription reads on its own client, where a long silence is normal.
        self.redis: Redis = Redis.from_pool(BlockingConnectionPool.from_url(
            url, max_connections=REDIS_POOL, timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT))
        self._listener: Redis = Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT)
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._reader: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._reconnected: list[Callable[[], Awaitable[None]]] = []
        self._broken = False  # the subscription dropped; tell `on_reconnect` callbacks when it is back

    async def publish(self, topic: str, message: dict[str, Any]) -> None:
        try:
            await self.redis.publish(PREFIX + topic, json.dumps(message, separators=(",", ":")))
        except RedisError:
            log.exception("could not publish on %s; other workers catch up on their next look", topic)

    async def subscribe(self, topic: str, handler: Handler) -> None:
        self._handlers[topic].append(handler)
        await stop_task(self._reader, grace=STOP_GRACE)
        self._subscribed.clear()
        self._reader = asyncio.create_task(self._read())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), 10)

    async def _read(self) -> None:
        pause = 0.1
        while not self._closing:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                channels = [PREFIX + t for t in self._handlers if t != "*"]
                if channels:
                    await pubsub.subscribe(*channels)
                if "*" in self._handlers:
                    await pubsub.psubscribe(PREFIX + "*")
                self._subscribed.set()
                pause = 0.1
                if self._broken:
                    self._broken = False
                    for callback in self._reconnected:
                        run_handler(self._tasks, _without_message(callback), "reconnect", {})
                async for message in pubsub.listen():
                    if message.get("type") not in ("message", "pmessage"):
                        continue
                    self._dispatch(message)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await _close(pubsub)
                raise
            except (RedisError, OSError):
                log.warning("lost the Redis subscription; reconnecting in %.1f s", pause)
                self._broken = True
            with contextlib.suppress(Exception):
                await _close(pubsub)
            await asyncio.sleep(pause)
            pause = min(5.0, pause * 2)

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        self._reconnected.append(callback)

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode() if isinstance(message["channel"], bytes) else str(message["channel"])
        topic = channel[len(PREFIX):]
        try:
            data = json.loads(message["data"])
        except (TypeError, ValueError):
            return
        handlers = [*self._handlers.get(topic, [])] if message["type"] == "message" else self._handlers["*"]
        for handler in handlers:
            run_handler(self._tasks, handler, topic, data)

    async def close(self) -> None:
        self._closing = True
        await stop_task(self._reader, grace=STOP_GRACE)
        for client in (self.redis, self._listener):
            with contextlib.suppress(Exception):
                await client.aclose()


def _without_message(callback: Callable[[], Awaitable[None]]) -> Handler:
    async def handler(topic: str, message: dict[str, Any]) -> None:
        await callback()

    return handler


class LocalLeases:
    """One process: every lease is ours."""

    async def hold(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisLeases(LocalLeases):
    """`hold(table)` takes the table's lease or renews ours; False while another worker holds it.

    A lease taken or renewed less than a third of its `ttl` ago is still ours for at least two thirds of it,
    so `hold` answers from memory then: a table whose bots move several times a second asks Redis at most
    every `ttl / 3` seconds, not once per move. (The lease keeps work in one place; the database's
    sequence number, not the lease, guarantees that no move is stored twice.)"""

    def __init__(self, redis: Redis, worker: str, ttl: float = 3.0) -> None:
        self.redis = redis
        self.worker = worker
        self.ttl = ttl
        self._renewed: dict[str, float] = {}  # table -> when we last took or renewed its lease (monotonic)

    async def hold(self, table_id: str) -> bool:
        now = time.monotonic()
        if now - self._renewed.get(table_id, -math.inf) < self.ttl / 3:
            return True
        try:
            taken = await self.redis.eval(_TAKE_OR_RENEW, 1, f"{PREFIX}lease:{table_id}", self.worker,
                                          int(self.ttl * 1000))
        except RedisError:
            log.warning("Redis unreachable: the lease of %s is not ours for now", table_id)
            taken = False
        if taken:
            self._renewed[table_id] = now  # the time before asking: the lease lasts from then at least
            if len(self._renewed) > 4096:  # forget tables not renewed for a while (closed, moved away)
                self._renewed = {t: at for t, at in self._renewed.items() if now - at < self.ttl}
        else:
            self._renewed.pop(table_id, None)
        return bool(taken)

    async def release(self, table_id: str) -> None:
        self._renewed.pop(table_id, None)
        with contextlib.suppress(RedisError):
            await self.redis.eval(_RELEASE, 1, f"{PREFIX}lease:{table_id}", self.worker)


class LocalPresence:
    """One process: nobody is connected anywhere else."""

    def set_local(self, table_id: str, name: str, connected: bool) -> None:
        return None

    async def elsewhere(self, table_id: str, name: str) -> bool:
        return False

    async def elsewhere_many(self, entries: Collection[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of (table, name) connected to another worker: none."""
        return set()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisPresence(LocalPresence):
    """A hash per (table, person) naming the workers that have a connection of that person there, and one
    key per worker (`ghostgames:alive:<worker>`) that lives `ttl` seconds unless renewed: an entry counts
    only while its worker's key lives, so a killed worker's people are no longer "connected" a few seconds
    later.

    A beat renews the worker's one key: its cost does not grow with the connections (it was two writes per
    connection per second). Entries are written when people come and go, and rewritten every `refresh`
    seconds so that their keys (which expire after three times that) outlive no worker for long. All writes
    of a worker go through one writer task in pipelines: a burst of arrivals takes one connection."""

    def __init__(self, redis: Redis, worker: str, beat: float = 1.0, ttl: float = 4.0,
                 refresh: float = 60.0) -> None:
        self.redis = redis
        self.worker = worker
        self.beat = beat
        self.ttl = ttl
        self.refresh = refresh
        self._mine: set[tuple[str, str]] = set()
        self._pending: dict[tuple[str, str], bool] = {}  # entry -> connected, waiting for the writer
        self._writer: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()

    @staticmethod
    def _key(table_id: str, name: str) -> str:
        return f"{PREFIX}presence:{table_id}:{name.lower()}"

    @staticmethod
    def _alive(worker: str) -> str:
        return f"{PREFIX}alive:{worker}"

    def set_local(self, table_id: str, name: str, connected: bool) -> None:
        entry = (table_id, name.lower())
        if connected:
            self._mine.add(entry)
        else:
            self._mine.discard(entry)
        self._pending[entry] = connected  # the latest word on an entry wins
        self._kick()

    def _kick(self) -> None:
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending())

    async def _write_pending(self) -> None:
        """Write what is pending, and what piled up meanwhile, until nothing is left."""
        while self._pending:
            batch, self._pending = self._pending, {}
            await self._write(batch)

    async def _write(self, entries: Mapping[tuple[str, str], bool]) -> None:
        keep = max(1, int(self.refresh * 3))  # a dead worker's entries go some minutes later
        items = list(entries.items())
        try:
            for start in range(0, len(items), PIPELINE_CHUNK):
                async with self.redis.pipeline(transaction=False) as pipe:
                    if start == 0:
                        pipe.set(self._alive(self.worker), "1", px=int(self.ttl * 1000))
                    for (table_id, name), connected in items[start:start + PIPELINE_CHUNK]:
                        key = self._key(table_id, name)
                        if connected:
                            pipe.hset(key, self.worker, "1")
                            pipe.expire(key, keep)
                        else:
                            pipe.hdel(key, self.worker)
                    await pipe.execute()
        except RedisError:
            log.warning("could not record presence for %d entries", len(items))

    async def _beat(self) -> None:
        try:
            await self.redis.set(self._alive(self.worker), "1", px=int(self.ttl * 1000))
        except RedisError:
            log.warning("could not renew this worker's presence")

    async def elsewhere(self, table_id: str, name: str) -> bool:
        return (table_id, name.lower()) in await self.elsewhere_many([(table_id, name)])

    async def elsewhere_many(self, entries: Collection[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of (table, name) that another live worker vouches for, asked in two pipelined round trips
        (the entries, then which of the workers they name are alive); none when Redis is unreachable (the
        grace period then runs as in one process)."""
        wanted = list(dict.fromkeys((table_id, name.lower()) for table_id, name in entries))
        held: dict[tuple[str, str], set[str]] = {}
        try:
            for start in range(0, len(wanted), PIPELINE_CHUNK):
                chunk = wanted[start:start + PIPELINE_CHUNK]
                async with self.redis.pipeline(transaction=False) as pipe:
                    for table_id, name in chunk:
                        pipe.hkeys(self._key(table_id, name))
                    answers = await pipe.execute()
                for entry, workers in zip(chunk, answers, strict=True):
                    others = {w.decode() if isinstance(w, bytes) else str(w) for w in workers} - {self.worker}
                    if others:
                        held[entry] = others
            named = sorted(set().union(*held.values())) if held else []
            if not named:
                return set()
            async with self.redis.pipeline(transaction=False) as pipe:
                for worker in named:
                    pipe.exists(self._alive(worker))
                alive = {worker for worker, live in zip(named, await pipe.execute(), strict=True) if live}
        except RedisError:
            return set()
        return {entry for entry, workers in held.items() if workers & alive}

    async def start(self) -> None:
        self._closing.clear()
        await self._beat()  # alive before the first entry is read anywhere
        self._task = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        refreshed = time.monotonic()
        while not self._closing.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self.beat)
            if self._closing.is_set():
                return
            await self._beat()
            if time.monotonic() - refreshed >= self.refresh:
                refreshed = time.monotonic()
                for entry in self._mine:
                    self._pending.setdefault(entry, True)
                self._kick()

    async def close(self) -> None:
        self._closing.set()
        await stop_task(self._task, grace=self.beat + STOP_GRACE)
        if self._writer is not None and not self._writer.done():  # what is pending still goes out
            await asyncio.wait({self._writer}, timeout=STOP_GRACE)
        await stop_task(self._writer, grace=STOP_GRACE)


async def _close(pubsub: object) -> None:
    """Close a subscription; redis-py typed `aclose` only in later releases, so call it untyped."""
    await cast(Any, pubsub).aclose()
