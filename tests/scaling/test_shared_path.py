"""The shared path between two hubs on one PostgreSQL database and one Redis (two workers in one process, so
the test can see what each reads): the fan-out carries the events, so the other worker applies them without
reading the database; a gap in the versions falls back to a read; no read precedes a decision; a decision
made on a table another worker moved on is refused by the database and decided again on the fresh table;
a client that saw a newer version elsewhere is served after one read."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from ghostgames.server.bots import BotRunner
from ghostgames.server.config import ServerConfig
from ghostgames.server.fanout import Fanout, LocalFanout
from ghostgames.server.hub import Hub
from ghostgames.server.shared import RedisFanout, RedisLeases, RedisPresence
from ghostgames.storage import Repository
from ghostgames.tables import Decision, TableError, parse_command
from ghostgames.tables.events import Joined
from tests.infra.services import Postgres, Redis


class CountingRepository(Repository):
    """The real repository; it counts the reads of event logs (the cost the fan-out is meant to save)."""

    reads = 0

    def events(self, table_id: str, after: int = 0) -> list[dict[str, Any]]:
        self.reads += 1
        return super().events(table_id, after)


async def start_hub(url: str, redis: Redis) -> tuple[Hub, CountingRepository]:
    repo = await asyncio.to_thread(CountingRepository, url)
    fanout = RedisFanout(redis.url)
    hub = Hub(ServerConfig(db_url=url, redis_url=redis.url), repo, fanout, BotRunner(1))
    hub.share(RedisLeases(fanout.redis, hub.worker), RedisPresence(fanout.redis, hub.worker))
    await hub.start()
    return hub, repo


async def stop_hub(hub: Hub) -> None:
    await hub.stop()
    await hub.fanout.close()
    hub.bots.close()
    await hub.repo.close_async()
    hub.repo.close()


def command(hub: Hub, table_id: str, user: str, text: str, version: int | None = None) -> Awaitable[Decision]:
    return hub.run(table_id, lambda table, ctx: table.decide(user, parse_command(text), version, ctx))


async def caught_up(hub: Hub, table_id: str, seq: int) -> None:
    """Wait until `hub` holds the table at `seq` (the fan-out is asynchronous)."""
    for _ in range(1000):
        table = hub.tables.get(table_id)
        if table is not None and table.seq >= seq:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the other worker did not reach seq {seq} of {table_id}")


async def silenced(hub: Hub, change: Callable[[], Awaitable[Any]]) -> Any:
    """Make a change on `hub` whose fan-out message is lost (nobody hears it)."""
    kept: Fanout = hub.fanout
    hub.fanout = LocalFanout()
    try:
        return await change()
    finally:
        hub.fanout = kept


def run_two_hubs(postgres: Postgres, redis: Redis,
                 scenario: Callable[[Hub, CountingRepository, Hub, CountingRepository], Awaitable[None]]) -> None:
    url = postgres.fresh_database("sp" + uuid.uuid4().hex[:12])

    async def main() -> None:
        one, one_repo = await start_hub(url, redis)
        two, two_repo = await start_hub(url, redis)
        try:
            await scenario(one, one_repo, two, two_repo)
        finally:
            await stop_hub(one)
            await stop_hub(two)

    asyncio.run(main())


def test_the_other_worker_applies_changes_from_the_fanout_without_reading_the_database(
        postgres: Postgres, redis_server: Redis) -> None:
    async def scenario(one: Hub, one_repo: CountingRepository, two: Hub, two_repo: CountingRepository) -> None:
        table = await one.create("ann", "geister", 2, {}, None)
        await caught_up(two, table.id, 1)  # the creation came with its event: no read either
        reads = one_repo.reads, two_repo.reads
        steps = [(one, "ann", "/join"), (two, "bob", "/join"),
                 *((one if n % 2 else two, "ann" if n % 2 else "bob", f"hello {n}") for n in range(6)),
                 (one, "ann", "/start")]
        for hub, user, text in steps:  # each acts once it has seen the last change, as a person would
            await command(hub, table.id, user, text)
            await caught_up(two if hub is one else one, table.id, hub.tables[table.id].seq)
        assert (one_repo.reads, two_repo.reads) == reads  # neither read an event log back
        stored = await asyncio.to_thread(one_repo.events, table.id)
        for hub in (one, two):
            mine = hub.tables[table.id]
            assert mine.seq == len(stored)
            assert mine.status == "started"
            assert [s.name for s in mine.seats] == ["ann", "bob"]
            assert mine.view_for(0) == one.tables[table.id].view_for(0)
            assert mine.view_for(1) == one.tables[table.id].view_for(1)

    run_two_hubs(postgres, redis_server, scenario)


def test_a_lost_fanout_message_shows_as_a_gap_and_the_next_one_brings_a_read(
        postgres: Postgres, redis_server: Redis) -> None:
    async def scenario(one: Hub, one_repo: CountingRepository, two: Hub, two_repo: CountingRepository) -> None:
        table = await one.create("ann", "geister", 2, {}, None)
        await caught_up(two, table.id, 1)
        await silenced(one, lambda: command(one, table.id, "ann", "/join"))
        await silenced(one, lambda: command(one, table.id, "ann", "lost words"))
        reads = two_repo.reads
        await command(one, table.id, "ann", "heard words")  # seq 4 comes while the other holds seq 1
        await caught_up(two, table.id, 4)
        assert two_repo.reads == reads + 1
        assert two.tables[table.id].seats[0].name == "ann"
        assert [e.get("text") for e in two.tables[table.id].history if e["kind"] == "chat"] == \
            ["lost words", "heard words"]

    run_two_hubs(postgres, redis_server, scenario)


def test_a_decision_on_a_table_another_worker_moved_on_is_refused_by_the_database_and_decided_again(
        postgres: Postgres, redis_server: Redis) -> None:
    """The other worker did not hear of a change (its message lost): its decision on the old table is
    refused by the unique (table, seq), it reads what it missed, and the command that named the old version
    gets stale_version with the fresh table; a command without a version goes on. Nothing lost or doubled."""

    async def scenario(one: Hub, one_repo: CountingRepository, two: Hub, two_repo: CountingRepository) -> None:
        table = await one.create("ann", "geister", 2, {}, None)
        await caught_up(two, table.id, 1)
        seen = two.tables[table.id].version
        await silenced(one, lambda: command(one, table.id, "ann", "/join", version=seen))
        assert two.tables[table.id].version == seen  # the other worker still holds the old table
        with pytest.raises(TableError) as refused:
            await command(two, table.id, "bob", "/join 2", version=seen)
        assert refused.value.code == "stale_version"
        assert refused.value.args_["current"] == one.tables[table.id].version
        assert two.tables[table.id].seq == one.tables[table.id].seq  # it read what it missed
        await silenced(one, lambda: command(one, table.id, "ann", "before bob"))
        await command(two, table.id, "bob", "/join 2")  # no version: decided again on the fresh table
        await caught_up(one, table.id, two.tables[table.id].seq)
        stored = await asyncio.to_thread(one_repo.events, table.id)
        assert [e["kind"] for e in stored] == ["created", "joined", "chat", "joined"]
        assert [s.name for s in one.tables[table.id].seats] == ["ann", "bob"]

    run_two_hubs(postgres, redis_server, scenario)


def test_a_client_ahead_of_its_worker_is_served_after_one_read(postgres: Postgres, redis_server: Redis) -> None:
    """A person who saw version N on another worker sends it to a worker that has not heard of N yet: the
    refusal (stale_version, the client ahead) is checked by a read, and the command is decided again."""

    async def scenario(one: Hub, one_repo: CountingRepository, two: Hub, two_repo: CountingRepository) -> None:
        table = await one.create("ann", "geister", 2, {}, None)
        await caught_up(two, table.id, 1)
        await silenced(one, lambda: command(one, table.id, "ann", "/join"))
        newer = one.tables[table.id].version
        reads = two_repo.reads
        decision = await command(two, table.id, "bob", "/join", version=newer)
        assert decision.events and isinstance(decision.events[0], Joined)
        assert two_repo.reads == reads + 1
        await caught_up(one, table.id, two.tables[table.id].seq)
        assert [s.name for s in one.tables[table.id].seats] == ["ann", "bob"]
        with pytest.raises(TableError) as refused:  # a refusal that stands after the read
            await command(two, table.id, "carol", "/join")
        assert refused.value.code != "stale_version"
        assert two_repo.reads == reads + 2

    run_two_hubs(postgres, redis_server, scenario)


def test_after_a_break_in_the_subscription_a_worker_reads_what_every_table_missed(
        postgres: Postgres, redis_server: Redis) -> None:
    """Messages published while a worker's subscription is down are lost; when it is back, the worker reads
    what each of its tables missed, so its people see the change without waiting for the table's next one."""

    async def scenario(one: Hub, one_repo: CountingRepository, two: Hub, two_repo: CountingRepository) -> None:
        tables = [await one.create(f"host{n}", "geister", 2, {}, None) for n in range(3)]
        for table in tables:
            await caught_up(two, table.id, 1)
        for n, table in enumerate(tables):  # changes the other worker never hears of
            await silenced(one, lambda t=table, n=n: command(one, t.id, f"host{n}", "/join"))
        assert all(two.tables[t.id].seq == 1 for t in tables)
        assert isinstance(two.fanout, RedisFanout)
        await two.fanout.redis.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # both listeners drop
        for table in tables:
            await caught_up(two, table.id, one.tables[table.id].seq)
        assert [two.tables[t.id].seats[0].name for t in tables] == ["host0", "host1", "host2"]

    run_two_hubs(postgres, redis_server, scenario)
