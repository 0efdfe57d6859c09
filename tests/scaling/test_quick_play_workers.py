"""Quick play across server processes: the queue lives in PostgreSQL, so two people asking two different
workers meet at one table, and each sees their own seat from their own worker."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.infra.services import Postgres, Redis
from tests.ratings.test_players_api import get
from tests.scaling.workers import start_workers, stop_all
from tests.server.harness import Client

pytestmark = pytest.mark.timeout(240)


def test_two_people_on_two_workers_meet_through_quick_play(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server)
    try:
        quinn = first.post("/api/guest", {"name": "WQuinn"})[1]["token"]
        ruth = second.post("/api/guest", {"name": "WRuth"})[1]["token"]
        assert first.post("/api/quick/ghooost", {}, quinn)[1]["status"] == "waiting"
        status, seated = second.post("/api/quick/ghooost", {}, ruth)
        assert status == 200 and seated["status"] == "seated"
        assert get(first, "/api/quick", quinn)[1] == seated  # the first worker sees the pairing
        table = first.get(f"/api/tables/{seated['table']}")  # made by the second worker
        assert table["status"] == "started" and [s["name"] for s in table["seats"]] == ["WQuinn", "WRuth"]

        async def each_on_their_worker() -> None:
            for worker, token, seat in ((first, quinn, 0), (second, ruth, 1)):
                client = await Client.connect(worker, token=token)
                message = await client.watch(seated["table"])
                assert message["seat"] == seat and message["view"]["seat"] == seat
                await client.close()

        asyncio.run(each_on_their_worker())
    finally:
        stop_all([first, second])
