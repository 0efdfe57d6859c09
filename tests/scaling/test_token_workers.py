"""Hole 2 of issue 31 on PostgreSQL + Redis with two workers: what one worker decides about a token,
the other decides the same way, since the name's creation and its logouts are in the database; and a
logout on one worker ends the connections of that name open on the other (Redis fan-out)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from tests.infra.services import Postgres, Redis
from tests.scaling.workers import start_workers, stop_all
from tests.security.tokens import hello_answer, me, migrate_from_0003_and_back, reconnect_until_refused, refused_because
from tests.server.harness import Client

pytestmark = pytest.mark.timeout(240)
LIFETIME = 2.0  # seconds


def test_a_guest_name_taken_again_refuses_the_old_token_on_both_workers(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server,
                                  env={"GHOSTGAMES_TOKEN_DAYS": str(LIFETIME / 86400)})

    async def scenario() -> None:
        keeper = await Client.connect(second, "Wyn")  # the old guest stays connected to the second worker
        assert keeper.token is not None
        # reconnecting round both workers hands back the same token, and it ends when the name is free
        tokens, end = await reconnect_until_refused([first, second], keeper.token)
        assert set(tokens) == {keeper.token}
        assert end is not None and refused_because(end) == "expired", end
        told = await keeper.wait_for(lambda m: m.get("code") == "bad_token")
        assert refused_because(told) == "expired"

        status, newcomer = first.post("/api/guest", {"name": "Wyn"})  # a new guest of the name, on worker 1
        assert status == 200, newcomer
        new = await Client.connect(first, token=newcomer["token"])
        table = await new.create("geister", 2, {"first": 0})
        for worker in (first, second):
            answer = await hello_answer(worker, keeper.token)
            assert refused_because(answer) == "replaced", (worker.port, answer)
            assert me(worker, keeper.token)[0] == 401
            assert me(worker, newcomer["token"]) == (200, {"name": "Wyn", "guest": True})
        watched = await keeper.watch(table)  # the old connection, on the other worker, only watches
        assert watched["seat"] is None
        assert (await new.watch(table))["seat"] == 0
        for client in (keeper, new):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all([first, second])


def test_a_logout_on_one_worker_ends_the_token_and_its_connections_on_the_other(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    # a seat is held a minute for its person after they go: long enough for them to log in again
    first, second = start_workers(tmp_path, postgres, redis_server, env={"GHOSTGAMES_GRACE": "60"})

    async def scenario() -> None:
        status, account = first.post("/api/register", {"name": "Wendy", "password": "long enough"})
        assert status == 200
        token = account["token"]
        elsewhere = await Client.connect(second, token=token)  # signed in on the second worker
        table = await elsewhere.create("geister", 2, {"first": 0})
        since = len(elsewhere.received)

        status, answer = first.post("/api/logout", {}, token=token)  # logged out on the first
        assert status == 200 and answer["logged_out"] is True
        for worker in (first, second):
            assert refused_because(await hello_answer(worker, token)) == "logged_out"
            status, body = me(worker, token)
            assert status == 401 and refused_because(body) == "logged_out"
        told = await elsewhere.wait_for(lambda m: m.get("code") == "bad_token", start=since)
        assert refused_because(told) == "logged_out"
        await elsewhere.until_table(table, lambda m: m["seat"] is None)

        # a new login, and the WebSocket logout on the second worker ends it on the first
        status, again = second.post("/api/login", {"name": "Wendy", "password": "long enough"})
        assert status == 200
        here = await Client.connect(first, token=again["token"])
        assert (await here.watch(table))["seat"] == 0
        there = await Client.connect(second, token=again["token"])
        answer = await there.request({"type": "logout"})
        assert answer["type"] == "welcome" and answer["user"] is None
        await here.wait_for(lambda m: m.get("code") == "bad_token")
        await here.until_table(table, lambda m: m["seat"] is None)
        assert refused_because(await hello_answer(first, again["token"])) == "logged_out"
        for client in (elsewhere, here, there):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all([first, second])


def test_migration_0004_on_postgresql(postgres: Postgres) -> None:
    migrate_from_0003_and_back(postgres.fresh_database("tokens0004_" + uuid.uuid4().hex[:8]))
