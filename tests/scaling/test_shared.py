"""The Redis pieces several workers share: fan-out reaches the other worker, a lease has one holder and
moves when its holder stops renewing, presence vouched by a dead worker lapses."""

from __future__ import annotations

import asyncio
from typing import Any

from ghostgames.server.shared import RedisFanout, RedisLeases, RedisPresence
from tests.infra.services import Redis


def test_a_message_published_by_one_worker_reaches_the_subscribers_of_another(redis_server: Redis) -> None:
    async def scenario() -> None:
        one, two = RedisFanout(redis_server.url), RedisFanout(redis_server.url)
        got: list[tuple[str, dict[str, Any]]] = []
        arrived = asyncio.Event()

        async def handler(topic: str, message: dict[str, Any]) -> None:
            got.append((topic, message))
            arrived.set()

        await two.subscribe("tables", handler)
        await one.publish("tables", {"table": "t1", "seq": 3, "worker": "one"})
        await asyncio.wait_for(arrived.wait(), 5)
        assert got == [("tables", {"table": "t1", "seq": 3, "worker": "one"})]
        await one.close()
        await two.close()

    asyncio.run(scenario())


def test_a_lease_has_one_holder_and_moves_when_the_holder_stops_renewing(redis_server: Redis) -> None:
    async def scenario() -> None:
        fanout = RedisFanout(redis_server.url)
        first = RedisLeases(fanout.redis, "w1", ttl=0.5)
        second = RedisLeases(fanout.redis, "w2", ttl=0.5)
        assert await first.hold("t9")
        assert not await second.hold("t9")
        assert await first.hold("t9")  # renewing our own
        await asyncio.sleep(0.7)  # w1 is silent (dead): its lease lapses
        assert await second.hold("t9")
        assert not await first.hold("t9")
        await second.release("t9")
        assert await first.hold("t9")
        await fanout.close()

    asyncio.run(scenario())


def test_presence_counts_other_workers_and_lapses_when_one_goes_silent(redis_server: Redis) -> None:
    async def scenario() -> None:
        fanout = RedisFanout(redis_server.url)
        here = RedisPresence(fanout.redis, "here", beat=0.1, ttl=0.5)
        there = RedisPresence(fanout.redis, "there", beat=0.1, ttl=0.5)
        await there.start()
        there.set_local("t5", "Alice", True)
        await asyncio.sleep(0.2)
        assert await here.elsewhere("t5", "alice")
        assert not await there.elsewhere("t5", "alice")  # its own entry is not "elsewhere"
        await there.close()  # no more heartbeats, as if killed
        await asyncio.sleep(0.7)
        assert not await here.elsewhere("t5", "alice")
        await fanout.close()

    asyncio.run(scenario())
