"""Several server processes share the tables through PostgreSQL (the event log) and Redis (fan-out,
leases, presence): a client may talk to any worker, races are settled by the database, bots and clocks
act once, and a worker's death loses nothing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from ghostgames.storage import Repository
from tests.infra.services import Postgres, Redis
from tests.scaling.workers import Seat, is_subsequence, start_workers, stop_all
from tests.server.harness import Client
from tests.server.players import assert_only_own_views, play_until_over, record_of

pytestmark = pytest.mark.timeout(240)


def test_every_client_hears_every_update_whichever_worker_it_is_on(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server)

    async def scenario() -> None:
        alice = await Client.connect(first, "WAlice")
        bob = await Client.connect(second, "WBob")
        carol = await Client.connect(second, "WCarol")  # a spectator on the other worker
        table_id = await alice.create("thelast", 2)
        await bob.watch(table_id)
        await carol.watch(table_id)
        assert (await bob.command(table_id, "/join", version=None))["type"] == "ack"
        await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["name"] == "WBob")
        assert (await alice.command(table_id, "/start"))["type"] == "ack"
        acknowledged = await asyncio.gather(play_until_over(alice, table_id, 1), play_until_over(bob, table_id, 2))
        final = await carol.until_table(table_id, lambda m: m["table"]["status"] == "finished")
        stored = record_of(first.db_url, table_id)
        assert len(stored.record.actions) == sum(len(a) for a in acknowledged)
        assert final["table"]["version"] == alice.tables[table_id]["table"]["version"]
        # every change reached the other worker's clients, each with its own view only
        for client, seat in ((alice, 0), (bob, 1), (carol, None)):
            assert_only_own_views(client, table_id, stored, seat)
            versions = [m["version"] for m in client.received if m.get("type") == "log" and m["table"] == table_id]
            assert versions == sorted(set(versions)), "a log message was missed, repeated or out of order"
        for client in (alice, bob, carol):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all([first, second])


def test_two_actions_racing_on_two_workers_are_ordered_by_the_database(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server)

    async def scenario() -> None:
        alice = await Client.connect(first, "RAlice")
        bob = await Client.connect(second, "RBob")
        alice_too = await Client.connect(second, token=alice.token)  # Alice on both workers
        outcomes = []
        for _ in range(8):
            table_id = await alice.create("geister", 2, {"first": 0})
            await bob.watch(table_id)
            await alice_too.watch(table_id)
            assert (await bob.command(table_id, "/join", version=None))["type"] == "ack"
            await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["name"] == "RBob")
            assert (await alice.command(table_id, "/start"))["type"] == "ack"
            await alice.until_table(table_id, lambda m: m["table"]["status"] == "started")
            await bob.until_table(table_id, lambda m: m["table"]["status"] == "started")
            version = alice.version(table_id)
            assert version == bob.version(table_id)
            # both setups at the same moment, each with the version both saw, on different workers
            answers = await asyncio.gather(alice.act(table_id, "setup b1 c1 d1 e1", version=version),
                                           bob.act(table_id, "setup b6 c6 d6 e6", version=version))
            kinds = sorted(a["type"] for a in answers)
            outcomes.append(kinds)
            assert kinds in (["ack", "ack"], ["ack", "error"]), answers
            for answer, client, text in zip(answers, (alice, bob), ("setup b1 c1 d1 e1", "setup b6 c6 d6 e6"),
                                            strict=True):
                if answer["type"] == "error":
                    assert answer["code"] == "stale_version" and answer["fresh"]["table"]["version"] > version
                    again = await client.act(table_id, text, version=answer["fresh"]["table"]["version"])
                    assert again["type"] == "ack"
            # Alice sends two different moves from two workers at once: exactly one is taken
            await alice.until_table(table_id, lambda m: m["table"]["to_act"] == [0])
            await alice_too.until_table(table_id, lambda m: m["table"]["to_act"] == [0])
            version = alice.version(table_id)
            moves = await asyncio.gather(alice.act(table_id, "b2 n", version=version),
                                         alice_too.act(table_id, "c2 n", version=version))
            assert sorted(m["type"] for m in moves) == ["ack", "error"], moves
            loser = next(m for m in moves if m["type"] == "error")
            assert loser["code"] in ("stale_version", "not_your_turn") and loser["fresh"]["view"]["seat"] == 0
            repo = Repository(first.db_url, run_migrations=False)
            try:
                kinds_stored = [e["kind"] for e in repo.events(table_id)]
            finally:
                repo.close()
            assert kinds_stored.count("action") == 3  # two setups and one move, never a lost or doubled one
        assert len(outcomes) == 8
        for client in (alice, bob, alice_too):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all([first, second])


def test_bots_and_clocks_act_once_and_move_to_another_worker_when_theirs_dies(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    workers = start_workers(tmp_path, postgres, redis_server, env={"GHOSTGAMES_BOT_DELAY": "0.05"})
    first, second = workers

    async def scenario() -> None:
        host = await Client.connect(second, "BHost")
        bots_table = await host.create("geister", 2, join=False)
        assert (await host.command(bots_table, "/bot add random", version=None))["type"] == "ack"
        assert (await host.command(bots_table, "/bot add random", version=None))["type"] == "ack"
        sleeper = await Client.connect(second, "BSleeper")
        clock_table = await sleeper.create("thelast", 2, clock="1")
        assert (await sleeper.command(clock_table, "/bot add random", version=None))["type"] == "ack"
        loner = await Client.connect(second, "BLoner")  # will vanish with the second worker, for good
        loner_table = await loner.create("thelast", 2)
        assert (await loner.command(loner_table, "/bot add random", version=None))["type"] == "ack"
        assert (await loner.command(loner_table, "/start", version=None))["type"] == "ack"
        watcher = await Client.connect(first, "BWatcher")  # makes the first worker load the tables
        await watcher.watch(bots_table)
        await watcher.watch(clock_table)
        await watcher.watch(loner_table)
        assert (await host.command(bots_table, "/start", version=None))["type"] == "ack"
        assert (await sleeper.command(clock_table, "/start", version=None))["type"] == "ack"
        await watcher.until_table(bots_table, lambda m: m["table"]["version"] >= 8, timeout=30)
        second.kill()  # the worker where both tables began, and where their leases most likely are
        bots_final = await watcher.until_table(bots_table, lambda m: m["table"]["status"] == "finished", timeout=90)
        clock_final = await watcher.until_table(clock_table, lambda m: m["table"]["status"] == "finished",
                                                timeout=90)
        assert bots_final["table"]["result"] is not None
        # the person whose worker died and never came back: the grace period ran out on the other worker
        loner_final = await watcher.until_table(loner_table, lambda m: m["table"]["status"] == "finished",
                                                timeout=90)
        assert loner_final["table"]["seats"][0]["takeover"] == "disconnected"
        assert clock_final["table"]["seats"][0]["takeover"] in ("timeouts", "disconnected")
        for table_id in (bots_table, clock_table, loner_table):
            stored = record_of(first.db_url, table_id)
            assert stored.record.replay().outcome() is not None
            lines = [line for m in watcher.received if m.get("type") == "log" and m["table"] == table_id
                     for line in m["lines"] if line["kind"] == "action"]
            seen_versions = [m["version"] for m in watcher.received if m.get("type") == "log"
                             and m["table"] == table_id]
            assert len(seen_versions) == len(set(seen_versions))
            assert len(lines) <= len(stored.record.actions)
            assert_only_own_views(watcher, table_id, stored, None)
        await watcher.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all(workers)


def test_twenty_games_on_two_workers_survive_sigkills_and_lose_no_acknowledged_action(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    workers = start_workers(tmp_path, postgres, redis_server,
                            env={"GHOSTGAMES_GRACE": "30", "GHOSTGAMES_BOT_DELAY": "0.02"})
    rng = random.Random(2026)

    async def scenario() -> None:
        seats: list[Seat] = []
        bot_tables: list[str] = []
        plan = [("geister", 2, None, 0)] * 8 + [("thelast", 2, None, 0)] * 6 + [("thelast", 3, None, 1)] * 3 \
            + [("thelast", 2, "2", 1)] * 3  # (game, seats, clock, bots)
        for number, (game, count, clock, bots) in enumerate(plan):
            people = []
            for seat in range(count - bots):
                client = await Client.connect(workers[(number + seat) % 2], f"F{number}s{seat}")
                people.append(client)
            table_id = await people[0].create(game, count, clock=clock)
            for seat, client in enumerate(people[1:], start=1):
                await client.watch(table_id)
                assert (await client.command(table_id, f"/join {seat + 1}", version=None))["type"] == "ack"
            for _ in range(bots):
                assert (await people[0].command(table_id, "/bot add random", version=None))["type"] == "ack"
                bot_tables.append(table_id)
            await people[0].until_table(table_id, lambda m: all(s["kind"] != "empty" for s in m["table"]["seats"]))
            assert (await people[0].command(table_id, "/start", version=None))["type"] == "ack"
            for seat, client in enumerate(people):
                # a pace, so that the games are still on when the first kill comes (on a quiet machine they
                # once all ended within the first second or two, and no kill cut anybody off)
                seats.append(Seat(workers, table_id, seat, str(client.token), (number + seat) % 2,
                                  random.Random(number * 10 + seat), client=client, pace=0.05))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 150
        kills = 0

        async def killer() -> None:
            nonlocal kills
            for k in range(3):
                await asyncio.sleep(rng.uniform(0.3, 0.8) if k == 0 else rng.uniform(1.0, 3.0))
                victim = rng.choice(workers)
                victim.kill()
                kills += 1
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                await asyncio.to_thread(victim.start)

        results = await asyncio.gather(killer(), *(seat.play(deadline) for seat in seats))
        assert kills == 3
        finals = results[1:]
        assert all(final["table"]["status"] == "finished" for final in finals)
        assert sum(seat.reconnects for seat in seats) > 0  # the kills really cut players off
        for seat in seats:
            stored = record_of(workers[0].db_url, seat.table_id)
            mine = [text for actor, text in stored.record.actions if actor == seat.seat]
            assert is_subsequence(seat.acknowledged, mine), (seat.table_id, seat.seat)
            assert stored.record.replay().outcome() is not None
        for table_id in set(bot_tables):
            assert record_of(workers[0].db_url, table_id).outcome is not None
        for seat in seats:
            if seat.client is not None:
                await seat.client.close()

    try:
        asyncio.run(scenario())
    finally:
        stop_all(workers)
