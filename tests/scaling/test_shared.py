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


def test_a_burst_of_publishes_beyond_the_old_pool_size_is_delivered_whole(redis_server: Redis) -> None:
    """redis-py's default pool refused the 101st connection at once, and a publish in a burst was lost; the
    blocking pool makes a command wait for a free connection. 400 publishes at once, with 600 presence
    writes arriving meanwhile: every message arrives."""

    async def scenario() -> None:
        one, two = RedisFanout(redis_server.url), RedisFanout(redis_server.url)
        presence = RedisPresence(one.redis, "one")
        got: set[int] = set()
        whole = asyncio.Event()

        async def handler(topic: str, message: dict[str, Any]) -> None:
            got.add(int(message["seq"]))
            if len(got) == 400:
                whole.set()

        await two.subscribe("tables", handler)
        for n in range(600):
            presence.set_local(f"t{n}", "someone", True)
        await asyncio.gather(*(one.publish("tables", {"table": f"t{n}", "seq": n, "worker": "one"})
                               for n in range(400)))
        await asyncio.wait_for(whole.wait(), 10)
        assert got == set(range(400))
        await presence.close()
        await one.close()
        await two.close()

    asyncio.run(scenario())


def test_presence_of_many_connections_goes_through_one_connection_and_is_read_in_one_batch(
        redis_server: Redis) -> None:
    """A burst of 1,000 arrivals and their heartbeats are written by one writer in pipelines (not a Redis
    connection each); another worker reads them all at once; the ones that left are gone."""

    async def scenario() -> None:
        fanout, other = RedisFanout(redis_server.url), RedisFanout(redis_server.url)
        here = RedisPresence(fanout.redis, "here", beat=0.1, ttl=2.0)
        there = RedisPresence(other.redis, "there", beat=0.1, ttl=2.0)
        await there.elsewhere("warm", "up")  # the reader's own connection exists before we count
        clients_before = int((await other.redis.info("clients"))["connected_clients"])
        await here.start()
        people = [(f"b{n // 2}", f"Person{n}") for n in range(1000)]
        for table_id, name in people:
            here.set_local(table_id, name, True)
        await asyncio.sleep(0.35)  # a few heartbeats go by
        clients_after = int((await other.redis.info("clients"))["connected_clients"])
        assert clients_after - clients_before <= 2  # the writer's, and the beat's when the two overlap
        assert await there.elsewhere_many(people) == {(t, n.lower()) for t, n in people}
        assert await here.elsewhere_many(people) == set()  # its own entries are not "elsewhere"
        for table_id, name in people[::2]:
            here.set_local(table_id, name, False)
        await asyncio.sleep(0.25)
        assert await there.elsewhere_many(people) == {(t, n.lower()) for t, n in people[1::2]}
        assert await there.elsewhere(*people[1]) and not await there.elsewhere(*people[0])
        await here.close()
        await fanout.close()
        await other.close()

    asyncio.run(scenario())


def test_a_lease_renewed_a_moment_ago_is_held_without_asking_redis_again(redis_server: Redis) -> None:
    """Bots moving several times a second renew their table's lease at most every ttl / 3 seconds: fifty
    holds in a row are one EVAL; the other worker is still refused meanwhile; later holds ask again."""

    async def scenario() -> None:
        fanout = RedisFanout(redis_server.url)
        first = RedisLeases(fanout.redis, "w1", ttl=1.5)
        second = RedisLeases(fanout.redis, "w2", ttl=1.5)

        async def evals() -> int:
            stats = await fanout.redis.info("commandstats")
            return int(stats.get("cmdstat_eval", {}).get("calls", 0))

        start = await evals()
        for _ in range(50):
            assert await first.hold("t10")
        assert await evals() == start + 1
        assert not await second.hold("t10")  # asks Redis (no lease of its own), and is refused
        assert await evals() == start + 2
        await asyncio.sleep(0.6)  # past ttl / 3: the next hold renews in Redis
        assert await first.hold("t10")
        assert await evals() == start + 3
        await asyncio.sleep(1.7)  # w1 went silent: its lease lapsed and w2 takes it
        assert await second.hold("t10")
        assert not await first.hold("t10")
        await fanout.close()

    asyncio.run(scenario())
