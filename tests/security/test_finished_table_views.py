"""At a finished table a seat's view goes only to the person who played it (issue 31, hole 1).

The attack: a game ends, a player leaves, and whoever sits down in the freed seat used to receive that
seat's final view: in Geister with `disclose` off, the colours of every ghost the leaver still had on the
board. The remaining player could do the same by moving to the other seat. Now a newcomer reads the
spectator's view until a new game starts, and a player who moves keeps the view of the seat they played.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Client, ServerProcess

# A short game per title that ends at once: Geister with both setups made (so the leaver's colours are on
# the board), the card games right after the deal (the leaver's hand is the secret).
GAMES = [("geister", {"first": 0, "disclose": False}), ("ghooost", {}), ("thelast", {})]


def _hidden_colours(view: dict[str, Any], owner: int) -> list[str | None]:
    return [g["colour"] for g in view["ghosts"] if g["owner"] == owner and g["status"] == "board"]


async def finished_table_scenario(game: str, options: dict[str, Any], first: ServerProcess,
                                  second: ServerProcess, tag: str) -> None:
    """Alice and Bob play on `first` and Alice resigns; Carol (on `second`) and Bob then take seats."""
    alice = await Client.connect(first, f"FAlice{tag}")
    bob = await Client.connect(first, f"FBob{tag}")
    carol = await Client.connect(second, f"FCarol{tag}")
    watcher = await Client.connect(second, f"FWatch{tag}")
    try:
        table = await alice.create(game, 2, options)
        await bob.watch(table)
        assert (await bob.command(table, "/join", version=None))["type"] == "ack"
        await alice.until_table(table, lambda m: m["table"]["seats"][1]["kind"] == "human")
        assert (await alice.command(table, "/start", version=None))["type"] == "ack"
        await alice.until_table(table, lambda m: m["table"]["status"] == "started")
        if game == "geister":
            assert (await alice.command(table, "/setup b1 c1 d1 e1", version=None))["type"] == "ack"
            assert (await bob.command(table, "/setup b6 c6 d6 e6", version=None))["type"] == "ack"
            await alice.until_table(table, lambda m: m["table"]["to_act"] == [0])
        assert (await alice.command(table, "/resign", version=None))["type"] == "ack"
        alices_view = (await alice.until_table(table, lambda m: m["table"]["status"] == "finished"))["view"]
        await bob.until_table(table, lambda m: m["table"]["status"] == "finished")
        bobs_view = bob.state(table)["view"]
        assert alices_view != bobs_view  # the check below can tell the seats apart

        assert (await alice.command(table, "/leave", version=None))["type"] == "ack"
        await watcher.watch(table)
        await carol.watch(table)
        assert (await carol.command(table, "/join 1", version=None))["type"] == "ack"
        seated = await carol.until_table(table, lambda m: m["seat"] == 0)
        await watcher.until_table(table, lambda m: m["table"]["version"] == seated["table"]["version"])
        spectators_view = watcher.state(table)["view"]
        assert seated["view"] == spectators_view, "a newcomer sees more than a spectator"
        assert seated["view"] != alices_view
        if game == "geister":
            assert any(_hidden_colours(alices_view, 0)), "Alice's colours were in her own view"
            assert not any(_hidden_colours(seated["view"], 0)), "Carol read Alice's colours"

        # Bob moves to Alice's old seat and still reads only the seat he played
        assert (await carol.command(table, "/leave", version=None))["type"] == "ack"
        await bob.until_table(table, lambda m: m["table"]["seats"][0]["kind"] == "empty")
        assert (await bob.command(table, "/leave", version=None))["type"] == "ack"
        await bob.watch(table)
        assert (await bob.command(table, "/join 1", version=None))["type"] == "ack"
        moved = await bob.until_table(table, lambda m: m["seat"] == 0)
        assert moved["view"] == bobs_view, "Bob read the view of a seat he did not play"
        if game == "geister":
            assert not any(_hidden_colours(moved["view"], 0))
        # every table frame Carol and the watcher received holds the spectator's secrets only
        for client in (carol, watcher):
            for message in client.received:
                if message.get("type") == "table" and message["table"]["id"] == table and message.get("view"):
                    assert message["view"] != alices_view
    finally:
        for client in (alice, bob, carol, watcher):
            await client.close()


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_whoever_sits_down_at_a_finished_table_sees_the_spectators_view(
        server: ServerProcess, game: str, options: dict[str, Any]) -> None:
    asyncio.run(finished_table_scenario(game, options, server, server, game[:3]))


def test_a_rebuilt_finished_table_still_shows_each_seat_to_its_player_only(tmp_path: Path) -> None:
    """`players` is folded from the log: after a restart the newcomer still gets the spectator's view."""
    process = ServerProcess(tmp_path).start()
    try:
        async def play() -> str:
            alice = await Client.connect(process, "RAlice")
            bob = await Client.connect(process, "RBob")
            table = await alice.create("geister", 2, {"first": 0})
            await bob.watch(table)
            await bob.command(table, "/join", version=None)
            await alice.until_table(table, lambda m: m["table"]["seats"][1]["kind"] == "human")
            await alice.command(table, "/start", version=None)
            await alice.until_table(table, lambda m: m["table"]["status"] == "started")
            await alice.command(table, "/setup b1 c1 d1 e1", version=None)
            await bob.command(table, "/setup b6 c6 d6 e6", version=None)
            await alice.until_table(table, lambda m: m["table"]["to_act"] == [0])
            await alice.command(table, "/resign", version=None)
            await alice.until_table(table, lambda m: m["table"]["status"] == "finished")
            assert (await alice.command(table, "/leave", version=None))["type"] == "ack"
            await alice.close()
            await bob.close()
            return table

        table = asyncio.run(play())
        process.stop()
        process.start()

        async def look() -> None:
            carol = await Client.connect(process, "RCarol")
            await carol.watch(table)
            assert (await carol.command(table, "/join 1", version=None))["type"] == "ack"
            seated = await carol.until_table(table, lambda m: m["seat"] == 0)
            assert seated["table"]["status"] == "finished"
            assert not any(_hidden_colours(seated["view"], 0))
            await carol.close()

        asyncio.run(look())
    finally:
        process.stop()
