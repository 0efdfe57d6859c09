"""What several server processes share through Redis, beside the event log in the database:

- `RedisFanout`: the `Fanout` interface over Redis pub/sub ("table T moved on to seq N"), so a client on
  any worker hears of every change;
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
import time
from collections import defaultdict
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ghostgames.server.fanout import Fanout, Handler, run_handler
from ghostgames.server.tasks import stop_task

log = logging.getLogger(__name__)
PREFIX = "ghostgames:"
REDIS_TIMEOUT = 5.0  # seconds a Redis command or connect may take before it fails
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
        self.redis: Redis = Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
        self._listener: Redis = Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT)
        self._handlers: dict[str, list[Handler]] = defaultdict(list)
        self._reader: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False

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
                async for message in pubsub.listen():
                    if message.get("type") not in ("message", "pmessage"):
                        continue
                    self._dispatch(message)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except (RedisError, OSError):
                log.warning("lost the Redis subscription; reconnecting in %.1f s", pause)
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(pause)
            pause = min(5.0, pause * 2)

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


class LocalLeases:
    """One process: every lease is ours."""

    async def hold(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisLeases(LocalLeases):
    """`hold(table)` takes the table's lease or renews ours; False while another worker holds it."""

    def __init__(self, redis: Redis, worker: str, ttl: float = 3.0) -> None:
        self.redis = redis
        self.worker = worker
        self.ttl = ttl

    async def hold(self, table_id: str) -> bool:
        try:
            taken = await self.redis.eval(_TAKE_OR_RENEW, 1, f"{PREFIX}lease:{table_id}", self.worker,
                                          int(self.ttl * 1000))
        except RedisError:
            log.warning("Redis unreachable: the lease of %s is not ours for now", table_id)
            return False
        return bool(taken)

    async def release(self, table_id: str) -> None:
        with contextlib.suppress(RedisError):
            await self.redis.eval(_RELEASE, 1, f"{PREFIX}lease:{table_id}", self.worker)


class LocalPresence:
    """One process: nobody is connected anywhere else."""

    def set_local(self, table_id: str, name: str, connected: bool) -> None:
        return None

    async def elsewhere(self, table_id: str, name: str) -> bool:
        return False

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisPresence(LocalPresence):
    """A hash per (table, person): worker -> time until which that worker vouches for a connection.

    Each worker rewrites its entries every `beat` seconds; an entry older than `ttl` counts for nothing,
    so a killed worker's people are no longer "connected" a few seconds later."""

    def __init__(self, redis: Redis, worker: str, beat: float = 1.0, ttl: float = 4.0) -> None:
        self.redis = redis
        self.worker = worker
        self.beat = beat
        self.ttl = ttl
        self._mine: set[tuple[str, str]] = set()
        self._task: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()

    @staticmethod
    def _key(table_id: str, name: str) -> str:
        return f"{PREFIX}presence:{table_id}:{name.lower()}"

    def set_local(self, table_id: str, name: str, connected: bool) -> None:
        entry = (table_id, name.lower())
        if connected:
            self._mine.add(entry)
        else:
            self._mine.discard(entry)
        task = asyncio.create_task(self._write(entry, connected))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _write(self, entry: tuple[str, str], connected: bool) -> None:
        key = self._key(*entry)
        try:
            if connected:
                await self.redis.hset(key, self.worker, str(time.time() + self.ttl))
                await self.redis.expire(key, int(self.ttl * 4) + 1)
            else:
                await self.redis.hdel(key, self.worker)
        except RedisError:
            log.warning("could not record presence at %s", entry[0])

    async def elsewhere(self, table_id: str, name: str) -> bool:
        try:
            entries = await self.redis.hgetall(self._key(table_id, name))
        except RedisError:
            return False
        now = time.time()
        for worker, until in entries.items():
            who = worker.decode() if isinstance(worker, bytes) else str(worker)
            if who != self.worker and float(until) > now:
                return True
        return False

    async def start(self) -> None:
        self._closing.clear()
        self._task = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        while not self._closing.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self.beat)
            if self._closing.is_set():
                return
            for entry in list(self._mine):
                await self._write(entry, True)

    async def close(self) -> None:
        self._closing.set()
        await stop_task(self._task, grace=self.beat + STOP_GRACE)
