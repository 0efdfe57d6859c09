"""Per-table and per-name locks exist only while in use: table ids and names come from clients, and a
registry that kept every one ever asked for grew with each unknown id a client sent (review: Hub.locks)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ghostgames.server.bots import BotRunner
from ghostgames.server.config import ServerConfig
from ghostgames.server.fanout import LocalFanout
from ghostgames.server.hub import Hub
from ghostgames.server.keyed_locks import KeyedLocks
from ghostgames.storage import Repository
from ghostgames.tables import TableError


def test_one_holder_per_key_at_a_time_and_nothing_kept_afterwards() -> None:
    async def scenario() -> tuple[list[str], int]:
        locks = KeyedLocks()
        order: list[str] = []

        async def use(key: str, who: str) -> None:
            async with locks.hold(key):
                order.append(f"{who} in")
                await asyncio.sleep(0.01)
                order.append(f"{who} out")

        await asyncio.gather(use("t1", "a"), use("t1", "b"), use("t2", "c"))
        return order, len(locks)

    order, left = asyncio.run(scenario())
    assert order.index("a out") < order.index("b in")  # the same key: one after the other
    assert order.index("c in") < order.index("a out")  # another key does not wait
    assert left == 0


def test_a_lock_is_released_and_dropped_when_its_block_raises() -> None:
    async def scenario() -> int:
        locks = KeyedLocks()
        with pytest.raises(RuntimeError):
            async with locks.hold("t1"):
                raise RuntimeError("boom")
        async with locks.hold("t1"):  # would hang if the lock were still held
            pass
        return len(locks)

    assert asyncio.run(scenario()) == 0


def test_asking_for_thousands_of_unknown_tables_leaves_no_lock_behind(tmp_path: Path) -> None:
    async def scenario() -> int:
        repo = await asyncio.to_thread(Repository, f"sqlite:///{tmp_path / 'hub.db'}")
        bots = BotRunner(1)
        hub = Hub(ServerConfig(db_url=repo.url), repo, LocalFanout(), bots)
        try:
            for n in range(2000):
                with pytest.raises(TableError):
                    await hub.load(f"no-such-table-{n}" if n % 2 else "x" * 40 + str(n))
            return len(hub.locks)
        finally:
            bots.close()
            repo.close()

    assert asyncio.run(scenario()) == 0
