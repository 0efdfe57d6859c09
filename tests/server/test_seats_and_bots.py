"""Bots as seats, leaving, losing the connection, clocks, resigning and rematches, all over the real
WebSocket against a running server."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Client, ServerProcess
from tests.server.players import assert_only_own_views, play_until_over, record_of

_names = itertools.count(1)


def name(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


def log_lines(client: Client, table_id: str) -> list[dict[str, Any]]:
    return [line for m in client.received if m.get("type") == "log" and m["table"] == table_id
            for line in m["lines"]]


def test_a_bot_seat_plays_its_turns_off_the_event_loop_to_the_end(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("thelast", 3)
        assert (await alice.command(table_id, "/bot add")) ["type"] == "ack"
        assert (await alice.command(table_id, "/bot add random"))["type"] == "ack"
        seats = alice.tables[table_id]["table"]["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot"] and seats[1]["bot"] == "easy"
        assert (await alice.command(table_id, "/start"))["type"] == "ack"
        await play_until_over(alice, table_id, 3)
        stored = record_of(server.db_url, table_id)
        assert {seat for seat, _ in stored.record.actions} == {0, 1, 2}
        by = {line["args"]["seat"]: line["args"]["by"] for line in log_lines(alice, table_id)
              if line["kind"] == "action"}
        assert by == {0: "player", 1: "bot", 2: "bot"}
        assert_only_own_views(alice, table_id, stored, 0)
        await alice.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("style", ["charge", "defender", "value"])
def test_a_geister_sparring_style_is_seated_by_name_and_plays_a_game_to_the_end(
    server: ServerProcess, style: str
) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("geister", 2)
        assert (await alice.command(table_id, f"/bot add {style}"))["type"] == "ack"
        seats = alice.tables[table_id]["table"]["seats"]
        assert seats[1]["kind"] == "bot" and seats[1]["bot"] == style
        assert (await alice.command(table_id, "/start"))["type"] == "ack"
        await play_until_over(alice, table_id, 4)
        stored = record_of(server.db_url, table_id)
        assert 1 in {seat for seat, _ in stored.record.actions}
        assert_only_own_views(alice, table_id, stored, 0)
        await alice.close()

    asyncio.run(scenario())


def test_bots_are_removed_before_the_start_and_only_bots_are_removed(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("ghooost", 3)
        await alice.command(table_id, "/bot add medium")
        assert (await alice.command(table_id, "/bot remove 1"))["code"] == "not_a_bot"  # seats typed from 1
        assert (await alice.command(table_id, "/bot remove 2"))["type"] == "ack"
        assert [s["kind"] for s in alice.tables[table_id]["table"]["seats"]] == ["human", "empty", "empty"]
        await alice.close()

    asyncio.run(scenario())


def test_leave_in_a_running_game_hands_the_seat_to_a_bot_and_the_result_says_so(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        bob = await Client.connect(server, name("bob"))
        table_id = await alice.create("thelast", 2)
        await bob.watch(table_id)
        await bob.command(table_id, "/join", version=None)
        await alice.command(table_id, "/start", version=None)
        await bob.until_table(table_id, lambda m: m["table"]["status"] == "started")
        assert (await bob.command(table_id, "/leave", version=None))["type"] == "ack"
        seat = (await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["takeover"] is not None)
                )["table"]["seats"][1]
        assert seat["takeover"] == "left" and seat["name"] == bob.name
        refused = await bob.act(table_id, "play R1")
        assert refused["code"] == "bot_playing"
        # the bot's moves make any version bob holds stale; he still hears why a fresh one would not help
        assert (await bob.act(table_id, "play R1", version=0))["code"] == "bot_playing"
        assert (await bob.command(table_id, "/play R1", version=0))["code"] == "bot_playing"
        await play_until_over(alice, table_id, 5)
        final = alice.tables[table_id]["table"]
        assert final["result"]["takeovers"] == {"1": "left"}
        assert final["result"]["names"][1] == bob.name
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_a_lost_connection_keeps_the_seat_through_the_grace_period_then_a_bot_plays_it(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_GRACE": "2.5"}).start()

    async def scenario() -> None:
        alice = await Client.connect(server, "Alice")
        bob = await Client.connect(server, "Bob")
        table_id = await alice.create("geister", 2, {"first": 0})
        await bob.watch(table_id)
        await bob.command(table_id, "/join", version=None)
        await alice.command(table_id, "/start", version=None)
        await alice.until_table(table_id, lambda m: m["table"]["status"] == "started")
        await alice.command(table_id, "/setup b1 c1 d1 e1", version=None)
        token = bob.token
        await bob.close()
        away = await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["connected"] is False)
        assert away["table"]["seats"][1]["takeover"] is None
        # back within the grace period: the seat and its view come back
        bob = await Client.connect(server, token=token)
        back = await bob.watch(table_id)
        assert back["seat"] == 1 and back["view"]["seat"] == 1 and back["view"]["legal"]
        assert back["table"]["seats"][1]["connected"] is True
        await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["connected"] is True)
        # gone for longer than the grace period: a bot plays Bob's seat to the end
        await bob.close()
        taken = await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["takeover"] is not None)
        assert taken["table"]["seats"][1]["takeover"] == "disconnected"
        await play_until_over(alice, table_id, 7)
        result = alice.tables[table_id]["table"]["result"]
        assert result["takeovers"] == {"1": "disconnected"}
        await alice.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


@pytest.fixture()
def clock_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path, env={"GHOSTGAMES_GRACE": "60"}).start()
    yield process
    process.stop()


def test_when_a_clock_runs_out_a_bot_plays_that_turn_and_repeated_timeouts_hand_the_seat_over(
        clock_server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(clock_server, "Alice")
        bob = await Client.connect(clock_server, "Bob")
        table_id = await alice.create("geister", 2, {"first": 0}, clock="1.5")
        await bob.watch(table_id)
        await bob.command(table_id, "/join", version=None)
        assert alice.tables[table_id]["table"]["clock"]["mode"] == "move"
        await alice.command(table_id, "/start", version=None)
        # Alice plays at once whenever she may; Bob stays silent
        alice_task = asyncio.create_task(play_until_over(alice, table_id, 11))
        taken = await alice.until_table(table_id, lambda m: m["table"]["seats"][1]["takeover"] is not None,
                                        timeout=60)
        assert taken["table"]["seats"][1]["takeover"] == "timeouts"
        await alice.wait_for(lambda m: m.get("type") == "log" and any(line["kind"] == "takeover"
                                                                      for line in m["lines"]))
        lines = log_lines(alice, table_id)
        bobs = [line for line in lines if line["args"].get("seat") == 1]
        timeouts = [line for line in bobs if line["kind"] == "timeout"]
        assert len(timeouts) == 3
        by_clock = [line for line in bobs if line["kind"] == "action" and line["args"]["by"] == "clock"]
        assert len(by_clock) >= 2
        # Bob's secret setup was made by the clock's bot and stayed secret from Alice
        assert by_clock[0]["args"]["action"] is None
        await alice_task
        assert alice.tables[table_id]["table"]["result"]["takeovers"]["1"] == "timeouts"
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_a_bank_clock_counts_down_and_adds_the_increment(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("thelast", 2, clock="30+2")
        await alice.command(table_id, "/bot add")
        await alice.command(table_id, "/start")
        first = await alice.until_table(table_id, lambda m: 0 in m["table"]["to_act"])
        clock = first["table"]["clock"]
        assert clock["mode"] == "bank" and clock["increment"] == 2
        assert 0 < clock["deadline_in"][0] <= 30
        await asyncio.sleep(0.3)
        await alice.act(table_id, first["view"]["legal"][0])
        bank = alice.tables[table_id]["table"]["clock"]["bank"][0]
        assert 30 < bank < 32  # less than 30 s used, 2 s added
        await alice.close()

    asyncio.run(scenario())


def test_resign_ends_a_two_player_game_and_rematch_lets_the_loser_start_ghooost(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        bob = await Client.connect(server, name("bob"))
        table_id = await alice.create("ghooost", 2, {"first": 0})
        await bob.watch(table_id)
        await bob.command(table_id, "/join", version=None)
        await alice.command(table_id, "/start", version=None)
        await bob.until_table(table_id, lambda m: m["table"]["status"] == "started")
        assert (await bob.command(table_id, "/resign", version=None))["type"] == "ack"
        over = await alice.until_table(table_id, lambda m: m["table"]["status"] == "finished")
        results = over["table"]["result"]["outcome"]["results"]
        assert [r["result"] for r in results] == ["win", "loss"]
        assert (await alice.command(table_id, "/rematch", version=None))["type"] == "ack"  # a proposal
        asked = await bob.until_table(table_id, lambda m: m["table"]["rematch"] == [0])
        assert asked["table"]["status"] == "finished"
        assert (await bob.command(table_id, "/rematch", version=None))["type"] == "ack"  # accepted: it starts
        again = await alice.until_table(table_id, lambda m: m["table"]["status"] == "started"
                                        and m["table"]["round"] == 2)
        assert again["table"]["options"]["first"] == 1  # Bob lost, Bob starts
        assert again["view"]["first"] == 1
        assert [s["name"] for s in again["table"]["seats"]] == [alice.name, bob.name]
        records = [r for r in server.get("/api/records?limit=500") if r["table"] == table_id]
        assert len(records) == 1 and records[0]["outcome"]["reason"] == "seat 1 resigned"
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_votes_need_every_seated_player_and_bots_agree(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        bob = await Client.connect(server, name("bob"))
        table_id = await alice.create("geister", 2, {"disclose": True})
        assert alice.tables[table_id]["table"]["votes"] == {"disclose": []}  # a creator's option is no vote
        await bob.watch(table_id)
        await bob.command(table_id, "/join", version=None)
        await alice.command(table_id, "/option disclose", version=None)
        await alice.command(table_id, "/start", version=None)
        started = await alice.until_table(table_id, lambda m: m["table"]["status"] == "started")
        assert started["table"]["options"]["disclose"] is False  # Bob did not vote
        other = await alice.create("geister", 2)
        await alice.command(other, "/option disclose on")
        await alice.command(other, "/bot add")
        await alice.command(other, "/start")
        started = await alice.until_table(other, lambda m: m["table"]["status"] == "started")
        assert started["table"]["options"]["disclose"] is True
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_a_game_between_bots_alone_finishes_and_is_watched_by_spectators_only(server: ServerProcess) -> None:
    async def scenario() -> None:
        host = await Client.connect(server, name("host"))
        table_id = await host.create("geister", 2, join=False)
        await host.command(table_id, "/bot add")
        await host.command(table_id, "/bot add random")
        assert (await host.command(table_id, "/start"))["type"] == "ack"
        final = await host.until_table(table_id, lambda m: m["table"]["status"] == "finished", timeout=90)
        assert final["seat"] is None
        stored = record_of(server.db_url, table_id)
        assert_only_own_views(host, table_id, stored, None)
        await host.close()

    asyncio.run(scenario())


def test_a_thinking_bot_never_holds_up_the_server(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("geister", 2, {"first": 1})
        await alice.command(table_id, "/bot add hard")
        await alice.command(table_id, "/start")
        await alice.until_table(table_id, lambda m: m["table"]["status"] == "started")
        await alice.command(table_id, "/setup b1 c1 d1 e1", version=None)
        # wait for the bot's setup too (it is instant): what follows is its first real, searched move
        await alice.until_table(
            table_id, lambda m: m["view"]["phase"] == "play" and m["table"]["to_act"] == [1]
        )
        start = len(alice.received)
        # While the hard bot thinks about its move (0.9 s of search in the bot pool), a ping is answered
        # at once: it needs a millisecond of the server's loop, so it comes back first even on a loaded
        # machine, unless the search blocked the loop.
        pong = await alice.request({"type": "ping"})
        assert pong["type"] == "pong"
        answered = alice.received.index(pong)
        other = await alice.create("thelast", 2)  # and work that writes to the database goes on too
        # the bot's first move, told by the view (a log line of kind "action" could still be a setup's)
        moved = await alice.wait_for(lambda m: m.get("type") == "table" and m["table"]["id"] == table_id
                                     and m["view"]["ply"] >= 1, start=start)
        assert answered < alice.received.index(moved)
        assert other in alice.tables
        await alice.close()

    asyncio.run(scenario())


def test_a_hard_bot_plays_on_through_rematches_remembering_the_earlier_games(server: ServerProcess) -> None:
    """The server hands the bot's worker the ends of the earlier games against the same person (played out,
    disclose on: each end shows the person's whole setup, so Geister's expert reads the third game with it)."""
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("geister", 2)
        assert (await alice.command(table_id, "/bot add hard"))["type"] == "ack"
        assert (await alice.command(table_id, "/option disclose on"))["type"] == "ack"
        assert (await alice.command(table_id, "/start"))["type"] == "ack"
        for game in (1, 2, 3):
            started = await alice.until_table(table_id, lambda m, g=game: m["table"]["status"] == "started"
                                              and m["table"]["round"] == g)
            assert started["view"]["options"]["disclose"] is True
            assert (await alice.act(table_id, "setup b1 c1 d1 e1", version=None))["type"] == "ack"
            for _ in range(2):  # two moves each: a game played out, as the bot's memory (and ratings) need
                view = (await alice.until_table(table_id, lambda m: m["view"]["phase"] != "setup"
                                                and 0 in m["view"]["to_act"], timeout=60))["view"]
                assert (await alice.act(table_id, view["legal"][0], version=None))["type"] == "ack"
            # the bot has answered twice: four moves on the board, or it moved first and it is our turn again
            await alice.until_table(table_id, lambda m: m["table"]["status"] != "started"
                                    or len(m["view"]["moves"]) >= 4, timeout=60)
            if game < 3:
                if alice.state(table_id)["table"]["status"] == "started":
                    assert (await alice.command(table_id, "/resign", version=None))["type"] == "ack"
                await alice.until_table(table_id, lambda m: m["table"]["status"] == "finished")
                assert (await alice.command(table_id, "/rematch", version=None))["type"] == "ack"
        assert alice.state(table_id)["table"]["round"] == 3
        assert "failed" not in server.log()
        await alice.close()

    asyncio.run(scenario())
