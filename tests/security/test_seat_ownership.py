"""Nobody acts for a seat or reads a view that is not theirs: names are not identities, tokens are signed
and expire, and a connection without the seat's token is a spectator whatever it sends."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from ghostgames.server.auth import Grant, Tokens
from tests.server.harness import Client, ServerProcess, messages_text


def _forged(name: str) -> str:
    """A token of the right shape for `name`, signed with a secret that is not the server's."""
    grant = Grant(user_id=1, name=name, guest=True, claimed=0, logouts=0, issued=time.time())
    return Tokens("not-the-secret", 86400).issue(grant)


def test_a_stranger_can_neither_act_for_a_seat_nor_see_its_secrets(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, "Alice7")
        bob = await Client.connect(server, "Bob7")
        table = await alice.create("geister", 2, {"first": 0})
        await bob.watch(table)
        assert (await bob.command(table, "/join", version=None))["type"] == "ack"
        assert (await alice.command(table, "/start", version=None))["type"] == "ack"
        await alice.until_table(table, lambda m: m["table"]["status"] == "started")
        assert (await alice.command(table, "/setup b1 c1 d1 e1", version=None))["type"] == "ack"
        assert (await bob.command(table, "/setup b6 c6 d6 e6", version=None))["type"] == "ack"
        await alice.until_table(table, lambda m: m["table"]["to_act"] == [0])

        mallory = await Client.connect(server)
        # a seated player's name is not theirs to take, and a forged or altered token is refused
        assert (await mallory.request({"type": "hello", "guest": "alice7"}))["code"] == "name_taken"
        assert (await mallory.request({"type": "hello", "token": _forged("Alice7")}))["code"] == "bad_token"
        altered = alice.token[:-3] + ("AAA" if not alice.token.endswith("AAA") else "BBB")  # type: ignore[index]
        assert (await mallory.request({"type": "hello", "token": altered}))["code"] == "bad_token"
        await mallory.hello(guest="Mallory7")
        watched = await mallory.watch(table)
        assert watched["seat"] is None
        assert all(ghost["colour"] is None for ghost in watched["view"]["ghosts"])
        version = mallory.version(table)
        for text in ("/b2 n", "/move b2 n", "/resign", "/join 1", "/start", "/option disclose"):
            answer = await mallory.command(table, text)
            assert answer["type"] == "error", (text, answer)
        answer = await mallory.act(table, {"type": "move", "from": "b2", "dir": "n"})
        assert answer["type"] == "error" and answer["code"] in ("not_seated", "not_your_turn")
        await mallory.watch(table)
        assert mallory.version(table) == version  # nothing changed the table
        # Alice's secret setup never reached Mallory or Bob
        for client in (mallory, bob):
            for message in client.received:
                if message.get("type") == "table" and message["table"]["id"] == table and message.get("view"):
                    mine = message["seat"]
                    for ghost in message["view"]["ghosts"]:
                        if ghost["owner"] != mine and ghost["status"] == "board":
                            assert ghost["colour"] is None
        assert "b1 c1 d1 e1" not in messages_text(mallory) and "b1 c1 d1 e1" not in messages_text(bob)
        # Alice, back with her token on a new connection, has her seat
        again = await Client.connect(server, token=alice.token)
        assert (await again.watch(table))["seat"] == 0
        assert (await again.act(table, "b2 n"))["type"] == "ack"
        for client in (alice, bob, mallory, again):
            await client.close()

    asyncio.run(scenario())


def test_session_tokens_expire(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_TOKEN_DAYS": str(2 / 86400)}).start()  # two seconds
    try:
        async def scenario() -> None:
            first = await Client.connect(server, "Shortlived")
            token = first.token
            fresh = await Client.connect(server)
            assert (await fresh.request({"type": "hello", "token": token}))["type"] == "welcome"
            await first.close()
            await asyncio.sleep(3.5)
            late = await Client.connect(server)
            assert (await late.request({"type": "hello", "token": token}))["code"] == "bad_token"
            await fresh.close()
            await late.close()

        started = time.monotonic()
        asyncio.run(scenario())
        assert time.monotonic() - started >= 3.5
    finally:
        server.stop()
