"""Issue 14, points 2 and 5 on two workers: a lobby listener on one worker gets gathered diffs of tables
made on the other, and the idle sweep closes an empty table everywhere while one watched on the other
worker (by an anonymous spectator) stays."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.infra.services import Postgres, Redis
from tests.scaling.workers import start_workers, stop_all
from tests.server.harness import Client


def listed(messages: list[dict[str, Any]]) -> set[str]:
    """The table ids a lobby listener holds after its messages."""
    tables: set[str] = set()
    for message in messages:
        if message.get("type") == "lobby":
            tables = {t["id"] for t in message["tables"]}
        elif message.get("type") == "lobby_update":
            tables |= {t["id"] for t in message["tables"]}
            tables -= set(message["removed"])
    return tables


def test_review_5_lobby_diffs_and_the_sweep_work_across_workers(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    env = {"GHOSTGAMES_SWEEP_EVERY": "0.2", "GHOSTGAMES_IDLE_CLOSE": "2", "GHOSTGAMES_LOBBY_FLUSH": "0.3"}
    first, second = start_workers(tmp_path, postgres, redis_server, env=env)

    async def until(check: Any, rounds: int = 150) -> None:
        for _ in range(rounds):  # bounded: 15 s
            if check():
                return
            await asyncio.sleep(0.1)
        raise AssertionError("the condition did not come true in time")

    async def scenario() -> None:
        listener = await Client.connect(second)
        assert (await listener.request({"type": "lobby"}))["type"] == "lobby"
        spectator = await Client.connect(second)
        status, host = first.post("/api/guest", {"name": "SweepHost"})
        assert status == 200
        made = [first.post("/api/tables", {"game": game, "seats": 2}, token=host["token"]) for game in
                ("thelast", "geister")]  # over HTTP: nobody seated, nobody watching
        assert [status for status, _ in made] == [200, 200]
        watched, alone = (str(table["id"]) for _, table in made)
        assert (await spectator.watch(watched))["type"] == "table"
        await until(lambda: {watched, alone} <= listed(listener.received))
        # nobody seated on either; the one watched on the other worker stays, the other is swept
        await until(lambda: alone not in listed(listener.received))
        assert watched in listed(listener.received)
        # each worker learns of the other's close over Redis, so the HTTP lists agree a moment later
        await until(lambda: all({t["id"] for t in w.get("/api/tables")} == {watched} for w in (first, second)))
        assert all(m["type"] in ("lobby", "lobby_update") for m in listener.received)
        for client in (listener, spectator):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all([first, second])
