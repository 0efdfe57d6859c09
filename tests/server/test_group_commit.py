"""Group commit (server/group_commit.py): one writer thread stores the waiting appends of every table in one
transaction, and an action is acknowledged only after the transaction holding it committed. Many players on
many tables act as fast as they are answered; the server is SIGKILLed in the middle; every acknowledged
action is in the database afterwards, in order, and nothing unacknowledged beyond the one in flight."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

from ghostgames.server.group_commit import GroupCommit
from ghostgames.storage import Append, Repository
from tests.server.harness import Client, ServerProcess

TABLES = 16


def test_every_acknowledged_action_of_many_tables_survives_a_sigkill(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_GRACE": "30"}).start()
    acknowledged: dict[tuple[str, int], list[str]] = {}

    async def seat(index: int) -> tuple[str, list[Client]]:
        first = await Client.connect(server, f"Ann{index}")
        second = await Client.connect(server, f"Ben{index}")
        table_id = await first.create("geister", 2)
        await second.watch(table_id)
        assert (await second.command(table_id, "/join", version=None))["type"] == "ack"
        assert (await first.command(table_id, "/start", version=None))["type"] == "ack"
        return table_id, [first, second]

    async def play(table_id: str, client: Client, index: int, rng: random.Random, stop: asyncio.Event) -> None:
        mine = acknowledged.setdefault((table_id, index), [])
        while not stop.is_set() and not client.closed:
            message = client.tables.get(table_id)
            if message is None or index not in message["table"]["to_act"] or not message["view"]["legal"] \
                    or message["table"]["status"] != "started":
                seen = client.version(table_id)
                with contextlib.suppress(TimeoutError, ConnectionError):
                    await client.until_table(table_id, lambda m, v=seen: m["table"]["version"] != v, timeout=0.5)
                continue
            choice = rng.choice(message["view"]["legal"])
            try:
                answer = await client.act(table_id, choice, version=message["table"]["version"])
            except (TimeoutError, ConnectionError):
                return  # the server died with this one in flight: it may or may not be stored
            if answer["type"] == "ack":
                mine.append(choice)

    async def run() -> None:
        tables = await asyncio.gather(*(seat(i) for i in range(TABLES)))
        stop = asyncio.Event()
        players = [asyncio.create_task(play(table_id, client, index, random.Random(n * 2 + index), stop))
                   for n, (table_id, clients) in enumerate(tables) for index, client in enumerate(clients)]
        for _ in range(400):  # until plenty of actions were acknowledged on every table
            await asyncio.sleep(0.05)
            if sum(len(a) for a in acknowledged.values()) >= 20 * TABLES:
                break
        server.kill()  # mid-flight: no shutdown code runs
        stop.set()
        await asyncio.gather(*players)
        for _, clients in tables:
            for client in clients:
                await client.close()

    asyncio.run(run())
    assert sum(len(a) for a in acknowledged.values()) >= 20 * TABLES
    repo = Repository(server.db_url)
    try:
        for (table_id, index), mine in acknowledged.items():
            stored = [str(e["text"]) for e in repo.events(table_id) if e["kind"] == "action" and e["seat"] == index]
            assert stored[:len(mine)] == mine, f"{table_id} seat {index}: an acknowledged action is missing"
            assert len(stored) <= len(mine) + 1  # at most the one that was in flight, never one doubled
    finally:
        repo.close()
        server.stop()


def test_appends_that_wait_together_share_a_transaction_and_land_in_order(tmp_path: Path) -> None:
    repo = Repository(f"sqlite:///{tmp_path / 'group.db'}")
    tables = [f"t{i}" for i in range(40)]
    for table_id in tables:
        repo.create_table(table_id, "geister", 2, {"kind": "created", "id": table_id})
    group = GroupCommit(repo)

    async def play(table_id: str) -> None:
        for seq in range(2, 12):  # one table's appends one after another, as the table's lock makes them
            assert await group.append(Append(table_id, seq, [{"kind": "chat", "text": str(seq)}])) is None

    async def run() -> None:
        await asyncio.gather(*(play(t) for t in tables))
        await group.stop()

    asyncio.run(run())
    assert group.appends == 40 * 10
    assert group.transactions < group.appends  # appends waiting together went in one transaction
    for table_id in tables:
        assert [e["text"] for e in repo.events(table_id, after=1)] == [str(seq) for seq in range(2, 12)]
    repo.close()
