"""Issue 14, point 5: lobby listeners get the changes gathered over a flush interval as one diff (tables
new or changed, ids removed), so what the lobby costs grows with listeners x flushes, not listeners x
changes; a new or returning listener gets the whole list once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.server.harness import Client, ServerProcess

FLUSH = 2.0  # seconds between lobby updates, long enough that many changes fall into one


def replay_lobby(messages: list[dict[str, Any]]) -> dict[str, str]:
    """The table list a listener holds after its messages: id -> status."""
    tables: dict[str, str] = {}
    for message in messages:
        if message.get("type") == "lobby":
            tables = {t["id"]: t["status"] for t in message["tables"]}
        elif message.get("type") == "lobby_update":
            tables.update({t["id"]: t["status"] for t in message["tables"]})
            for table_id in message["removed"]:
                tables.pop(table_id, None)
    return tables


def test_review_5_lobby_updates_are_coalesced_diffs(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_LOBBY_FLUSH": str(FLUSH)}).start()
    listeners_count, creations = 12, 24

    async def scenario() -> None:
        listeners = [await Client.connect(server) for _ in range(listeners_count)]
        for listener in listeners:
            assert (await listener.request({"type": "lobby"}))["type"] == "lobby"
        hosts = [await Client.connect(server, f"Host{i}") for i in range(3)]
        started = time.monotonic()
        async def create_some(host: Client) -> list[str]:  # each creation is two changes: table, then seat
            return [await host.create("thelast", 2) for _ in range(creations // len(hosts))]

        made = [table_id for some in await asyncio.gather(*map(create_some, hosts)) for table_id in some]
        await hosts[0].command(made[0], "/leave")
        await hosts[0].send({"type": "unwatch", "table": made[0]})  # nobody there any more: it closes
        expected = {t["id"]: t["status"] for t in server.get("/api/tables")}
        for _ in range(100):  # bounded: until every listener caught up with the last change
            if made[0] not in expected and all(replay_lobby(c.received) == expected for c in listeners):
                break
            await asyncio.sleep(0.1)
            expected = {t["id"]: t["status"] for t in server.get("/api/tables")}
        elapsed = time.monotonic() - started
        assert made[0] not in expected and set(made[1:]) <= set(expected)
        flushes = int(elapsed / FLUSH) + 2  # at most one flush per interval, plus one at each end
        changes = 2 * creations + 2
        for listener in listeners:
            assert replay_lobby(listener.received) == expected
            updates = [m for m in listener.received if m.get("type") == "lobby_update"]
            # bounded by the flushes, not by the changes (one message per change before)
            assert 1 <= len(updates) <= flushes, (len(updates), flushes)
            assert len(updates) < changes, (len(updates), changes)
            assert all(m["type"] in ("lobby", "lobby_update") for m in listener.received)
            assert any(made[0] in m["removed"] for m in updates)
        # a listener that comes (back) later gets the whole list at once
        late = await Client.connect(server)
        whole = await late.request({"type": "lobby"})
        assert {t["id"] for t in whole["tables"]} == set(expected)
        for client in [*listeners, *hosts, late]:
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
