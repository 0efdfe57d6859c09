"""A server restart loses nothing: killed with SIGKILL mid-game, restarted on the same database, the
tables are rebuilt from their events, clients reconnect with their tokens and play on, and the final
record holds every action that was acknowledged."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.server.harness import Client, ServerProcess
from tests.server.players import assert_only_own_views, play_until_over, random_policy, record_of


def test_sigkill_mid_game_then_restart_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_GRACE": "20"}).start()

    async def before_crash() -> tuple[str, list[str | None], list[list[str]], str]:
        alice = await Client.connect(server, "Alice")
        bob = await Client.connect(server, "Bob")
        table_id = await alice.create("geister", 2, {"first": 1})
        await bob.watch(table_id)
        assert (await bob.command(table_id, "/join", version=None))["type"] == "ack"
        assert (await alice.command(table_id, "/option disclose", version=None))["type"] == "ack"
        assert (await alice.command(table_id, "/start", version=None))["type"] == "ack"
        # an open table with a vote must survive too
        open_table = await alice.create("thelast", 3, {"rounds": 2}, join=False)
        assert (await alice.command(open_table, "/join 3", version=None))["type"] == "ack"  # index 2
        acknowledged: list[list[str]] = [[], []]
        await alice.until_table(table_id, lambda m: m["table"]["status"] == "started")
        for _ in range(12):  # setups and some moves, then the crash
            for seat, client in enumerate((alice, bob)):
                message = client.tables[table_id]
                if seat in message["table"]["to_act"] and message["view"]["legal"]:
                    choice = message["view"]["legal"][0]
                    if (await client.act(table_id, choice))["type"] == "ack":
                        acknowledged[seat].append(choice)
            await asyncio.sleep(0.01)
        tokens = [alice.token, bob.token]
        # no goodbye: the server dies under the open connections
        server.kill()
        for _ in range(100):
            if alice.closed and bob.closed:
                break
            await asyncio.sleep(0.05)
        assert alice.closed and bob.closed  # the crash cut the connections
        return table_id, tokens, acknowledged, open_table

    table_id, tokens, acknowledged, open_table = asyncio.run(before_crash())
    assert sum(len(a) for a in acknowledged) >= 6
    server.start()

    async def after_restart() -> None:
        alice = await Client.connect(server, token=tokens[0])
        bob = await Client.connect(server, token=tokens[1])
        assert alice.name == "Alice" and bob.name == "Bob"
        for client, seat in ((alice, 0), (bob, 1)):
            watched = await client.watch(table_id)
            assert watched["seat"] == seat and watched["view"]["seat"] == seat
            assert watched["table"]["seats"][seat]["takeover"] is None
        # the open table kept its seat
        reopened = await alice.watch(open_table)
        assert reopened["table"]["status"] == "open" and reopened["seat"] == 2
        done = await asyncio.gather(play_until_over(alice, table_id, 1, random_policy),
                                    play_until_over(bob, table_id, 2, random_policy))
        stored = record_of(server.db_url, table_id)
        for seat in (0, 1):
            mine = [text for s, text in stored.record.actions if s == seat]
            assert mine == acknowledged[seat] + done[seat]
        assert stored.outcome is not None and stored.record.options["disclose"] is False
        assert_only_own_views(alice, table_id, stored, 0)
        assert_only_own_views(bob, table_id, stored, 1)
        await alice.close()
        await bob.close()

    try:
        asyncio.run(after_restart())
    finally:
        server.stop()
