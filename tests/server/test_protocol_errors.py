"""Hostile and mistaken input over the WebSocket: every problem gets an error with a stable code, the
connection stays usable and the server keeps serving; stale and illegal actions get the fresh view."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import Client, ServerProcess

_names = itertools.count(1)


def name(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


async def _geister_in_play(server: ServerProcess) -> tuple[Client, Client, str]:
    """Alice (seat 0) and Bob (seat 1) after both setups, Alice to move first."""
    alice = await Client.connect(server, name("alice"))
    bob = await Client.connect(server, name("bob"))
    table_id = await alice.create("geister", 2, {"first": 0})
    await bob.watch(table_id)
    assert (await bob.command(table_id, "/join", version=None))["type"] == "ack"
    assert (await alice.command(table_id, "/start", version=None))["type"] == "ack"
    await alice.until_table(table_id, lambda m: m["table"]["status"] == "started")
    assert (await alice.command(table_id, "/setup b1 c1 d1 e1", version=None))["type"] == "ack"
    assert (await bob.command(table_id, "/setup b6 c6 d6 e6", version=None))["type"] == "ack"
    await alice.until_table(table_id, lambda m: m["table"]["to_act"] == [0])
    await bob.until_table(table_id, lambda m: m["table"]["to_act"] == [0])
    return alice, bob, table_id


def test_malformed_json_unknown_types_and_huge_messages_each_get_an_error_and_the_server_keeps_serving(
        server: ServerProcess) -> None:
    async def scenario() -> None:
        client = await Client.connect(server, name("fuzz"))
        bad_inputs: list[tuple[str | bytes, str]] = [
            ("{not json", "bad_message"),
            ("[1, 2, 3]", "bad_message"),
            ('"just a string"', "bad_message"),
            ('{"type": "dance"}', "unknown_type"),
            ('{"no_type": 1}', "unknown_type"),
            ('{"type": "command", "table": "x"}', "bad_message"),
            ('{"type": "create", "game": "geister", "seats": "many"}', "bad_message"),
            ('{"type": "watch", "table": "nope"}', "no_such_table"),
            ('{"type": "command", "table": "nope", "text": "/join"}', "no_such_table"),
            ('{"type": "ping", "pad": "' + "x" * 100_000 + '"}', "too_large"),
            (b"\x00\x01binary", "bad_message"),
            ("[" * 5000 + "]" * 5000, "bad_message"),
        ]
        for raw, code in bad_inputs:
            start = len(client.received)
            await client.send_raw(raw)
            error = await client.wait_for(lambda m: m.get("type") == "error", start=start)
            assert error["code"] == code, (raw[:60], error)
            assert error["message"] and isinstance(error["args"], dict)
        assert (await client.request({"type": "ping"}))["type"] == "pong"
        other = await Client.connect(server, name("other"))
        lobby = await other.request({"type": "lobby"})
        assert {g["name"] for g in lobby["games"]} == {"geister", "ghooost", "thelast"}
        await other.close()
        await client.close()

    asyncio.run(scenario())


def test_a_deeply_nested_message_within_the_size_limit_is_a_bad_message(server: ServerProcess) -> None:
    async def scenario() -> None:
        client = await Client.connect(server)
        await client.send_raw('{"type": "ping", "x": ' + "[" * 4000 + "]" * 4000 + "}")
        answer = await client.wait_for(lambda m: m.get("type") in ("error", "pong"))
        assert answer["type"] in ("error", "pong")  # either refused or harmlessly answered, never a crash
        assert (await client.request({"type": "ping"}))["type"] == "pong"
        await client.close()

    asyncio.run(scenario())


def test_a_stale_version_gets_an_error_and_the_fresh_view(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice, bob, table_id = await _geister_in_play(server)
        current = alice.version(table_id)
        assert current is not None
        error = await alice.act(table_id, "b2 n", version=current - 1)
        assert error["type"] == "error" and error["code"] == "stale_version"
        assert error["args"] == {"sent": current - 1, "current": current}
        fresh = error["fresh"]
        assert fresh["seat"] == 0 and fresh["table"]["version"] == current
        assert fresh["view"]["seat"] == 0 and "b2 n" in fresh["view"]["legal"]
        # with the fresh version the same move is accepted
        assert (await alice.act(table_id, "b2 n", version=fresh["table"]["version"]))["type"] == "ack"
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_an_illegal_action_gets_the_reason_and_the_fresh_view(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice, bob, table_id = await _geister_in_play(server)
        error = await alice.act(table_id, "b1 n")  # b2 holds Alice's own ghost
        assert error["type"] == "error" and error["code"] == "illegal_action"
        assert "own ghost" in error["args"]["reason"] and error["args"]["action"] == "b1 n"
        assert error["fresh"]["view"]["seat"] == 0
        as_json = await alice.act(table_id, {"type": "move", "from": "c1", "dir": "n"})
        assert as_json["code"] == "illegal_action"
        unreadable = await alice.act(table_id, {"type": "teleport"})
        assert unreadable["code"] == "bad_argument"
        assert (await alice.act(table_id, {"type": "move", "from": "b2", "dir": "n"}))["type"] == "ack"
        await alice.close()
        await bob.close()

    asyncio.run(scenario())


def test_a_client_cannot_act_for_another_seat(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice, bob, table_id = await _geister_in_play(server)
        # Bob may not move Alice's ghosts, on her turn or his
        refused = await bob.act(table_id, "b2 n")
        assert refused["code"] == "not_your_turn" and refused["fresh"]["seat"] == 1
        assert (await alice.act(table_id, "b2 n"))["type"] == "ack"
        await bob.until_table(table_id, lambda m: m["table"]["to_act"] == [1])
        assert (await bob.act(table_id, "b3 n"))["code"] == "illegal_action"  # Alice's ghost is no ghost of his
        # a spectator with a name, an anonymous watcher and a forged token act for nobody
        carol = await Client.connect(server, name("carol"))
        await carol.watch(table_id)
        assert (await carol.act(table_id, "b5 s"))["code"] == "not_seated"
        anonymous = await Client.connect(server)
        await anonymous.watch(table_id)
        assert (await anonymous.act(table_id, "b5 s"))["code"] == "auth_required"
        forged = await Client.connect(server)
        answer = await forged.request({"type": "hello", "token": (bob.token or "")[:-4] + "AAAA"})
        assert answer["code"] == "bad_token"
        assert (await forged.act(table_id, "b5 s"))["code"] == "auth_required"
        # once the game ran, Bob's connection only ever got seat 1's view, Carol's only the spectator's
        bob_views = [m for m in bob.received if m.get("type") == "table" and m["view"] is not None]
        assert bob_views and all(m["seat"] == 1 and m["view"]["seat"] == 1 for m in bob_views)
        assert all(m["seat"] is None for m in carol.received if m.get("type") == "table")
        for client in (alice, bob, carol, anonymous, forged):
            await client.close()

    asyncio.run(scenario())


def test_unknown_commands_and_bad_arguments_say_what_would_work(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("geister", 2)
        cases = {
            "/dance": "unknown_command",
            "/join 9": "already_seated",
            "/bot add genius": "no_such_bot",
            "/bot": "bad_argument",
            "/option nonsense on": "bad_option",
            "/option exit sideways": "bad_option",
            "/option clock soon": "bad_option",
            "/start": "seats_empty",
            "/resign": "wrong_status",
            "/b2 n": "wrong_status",
            "/help dance": "unknown_command",
        }
        for text, code in cases.items():
            answer = await alice.command(table_id, text, version=None)
            assert answer["type"] == "error" and answer["code"] == code, (text, answer)
            assert answer["fresh"]["table"]["id"] == table_id
        bad = await alice.command(table_id, "/option exit sideways", version=None)
        assert "reach" in bad["message"] and "escape" in bad["message"]
        await alice.close()

    asyncio.run(scenario())


def test_help_who_and_option_listing_answer_only_the_asker(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        table_id = await alice.create("geister", 2)
        helped = await alice.command(table_id, "/help")
        assert helped["type"] == "reply" and helped["code"] == "help"
        assert "/join" in helped["text"] and "setup" in helped["text"]
        assert "/bot add" in (await alice.command(table_id, "/help bot"))["text"]
        who = await alice.command(table_id, "/who")
        assert who["code"] == "who" and who["args"]["seats"][0]["name"] == alice.name
        options = await alice.command(table_id, "/option")
        assert options["code"] == "options" and "disclose" in options["text"] and "clock" in options["text"]
        await alice.close()

    asyncio.run(scenario())


def test_chat_is_stored_and_shown_as_plain_text(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, name("alice"))
        bob = await Client.connect(server, name("bob"))
        table_id = await alice.create("thelast", 2)
        await bob.watch(table_id)
        text = "<script>alert('x')</script> & good luck"
        assert (await alice.command(table_id, text))["type"] == "ack"
        chat = await bob.wait_for(lambda m: m.get("type") == "chat")
        assert chat["text"] == text and chat["from"] == alice.name and chat["seat"] == 0
        late = await Client.connect(server, name("late"))
        watched = await late.watch(table_id)
        assert any(h["kind"] == "chat" and h["text"] == text for h in watched["history"])
        for client in (alice, bob, late):
            await client.close()

    asyncio.run(scenario())


@pytest.fixture()
def strict_server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path, env={"GHOSTGAMES_RATE": "5", "GHOSTGAMES_BURST": "5"}).start()
    yield process
    process.stop()


def test_a_flood_of_messages_is_rate_limited_per_connection(strict_server: ServerProcess) -> None:
    async def scenario() -> None:
        flooder = await Client.connect(strict_server)
        calm = await Client.connect(strict_server)
        for _ in range(30):
            await flooder.send({"type": "ping"})
        await flooder.wait_for(lambda m: m.get("code") == "rate_limited")
        limited = [m for m in flooder.received if m.get("code") == "rate_limited"]
        assert limited and limited[0]["args"]["retry_in"] >= 0
        # another connection is not limited by the flood
        assert (await calm.request({"type": "ping"}))["type"] == "pong"
        await asyncio.sleep(0.5)
        assert (await flooder.request({"type": "ping"}))["type"] == "pong"
        await flooder.close()
        await calm.close()

    asyncio.run(scenario())
