"""Complete games over real WebSockets: scripted clients that see only their own views play every game
to its outcome, a spectator watches, and what each was sent is checked against the stored record."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from tests.server.harness import Client, ServerProcess
from tests.server.players import (
    Policy,
    assert_log_honest,
    assert_only_own_views,
    eager_policy,
    play_until_over,
    random_policy,
    record_of,
)

_runs = itertools.count(1)


async def _full_game(server: ServerProcess, game: str, players: int, options: dict[str, Any],
                     policy: Policy, votes: list[str] | None = None) -> dict[str, Any]:
    run = next(_runs)
    names = [f"{game[:5]}{run}p{i}" for i in range(players)]
    clients = [await Client.connect(server, name) for name in names]
    spectator = await Client.connect(server, f"watch{game[:5]}{run}")
    anonymous = await Client.connect(server)
    try:
        table_id = await clients[0].create(game, players, options)
        await spectator.watch(table_id)
        await anonymous.watch(table_id)
        for client in clients[1:]:
            await client.watch(table_id)
            assert (await client.command(table_id, "/join", version=None))["type"] == "ack"
        for client in clients:
            for vote in votes or []:
                assert (await client.command(table_id, f"/option {vote}", version=None))["type"] == "ack"
        assert (await clients[0].command(table_id, "/start", version=None))["type"] == "ack"
        acknowledged = await asyncio.gather(*(play_until_over(c, table_id, seed=i, policy=policy)
                                              for i, c in enumerate(clients)))
        final = await spectator.until_table(table_id, lambda m: m["table"]["status"] == "finished")
        for reader in [*clients, spectator, anonymous]:  # the log line of the end follows the final table
            await reader.wait_for(lambda m: m.get("type") == "log" and m["table"] == table_id
                                  and any(line["kind"] == "finished" for line in m["lines"]))
        stored = record_of(server.db_url, table_id)
        # every acknowledged action is in the record, in each seat's order
        for seat, actions in enumerate(acknowledged):
            assert [t for s, t in stored.record.actions if s == seat] == actions
        assert stored.record.replay().outcome() is not None
        for seat, client in enumerate(clients):
            assert_only_own_views(client, table_id, stored, seat)
            assert_log_honest(client, table_id, stored, seat)
        for watcher in (spectator, anonymous):
            assert_only_own_views(watcher, table_id, stored, None)
            assert_log_honest(watcher, table_id, stored, None)
        return {"final": final, "stored": stored, "clients": clients, "spectator": spectator}
    finally:
        for client in [*clients, spectator, anonymous]:
            await client.close()


def test_geister_with_disclose_voted_by_both_reveals_every_colour_at_the_end(server: ServerProcess) -> None:
    result = asyncio.run(_full_game(server, "geister", 2, {}, random_policy, votes=["disclose"]))
    final = result["final"]
    assert final["table"]["options"]["disclose"] is True
    assert final["table"]["result"]["outcome"]["results"]
    # only with disclose does a spectator finally see every ghost's colour
    assert all(g["colour"] in ("good", "bad") for g in final["view"]["ghosts"])


def test_geister_without_disclose_keeps_unrevealed_colours_hidden_from_the_spectator(server: ServerProcess) -> None:
    result = asyncio.run(_full_game(server, "geister", 2, {}, random_policy))
    final = result["final"]
    assert final["table"]["options"]["disclose"] is False
    on_board = [g for g in final["view"]["ghosts"] if g["status"] == "board"]
    assert on_board and all(g["colour"] is None for g in on_board)
    spectator = result["spectator"]
    # the setups are secret: no log line told the spectator which squares hold good ghosts
    for message in spectator.received:
        if message.get("type") == "log":
            for line in message["lines"]:
                assert not str(line["args"].get("action") or "").startswith("setup")
                assert all("good" not in event for event in line["events"] if event.get("kind") == "setup")


def test_ghooost_with_four_players_reaches_an_outcome(server: ServerProcess) -> None:
    result = asyncio.run(_full_game(server, "ghooost", 4, {"match": False, "max_turns": 200}, eager_policy))
    outcome = result["final"]["table"]["result"]["outcome"]
    assert len(outcome["results"]) == 4


@pytest.mark.parametrize("players", [2, 3])
def test_the_last_reaches_an_outcome(server: ServerProcess, players: int) -> None:
    result = asyncio.run(_full_game(server, "thelast", players, {}, random_policy))
    outcome = result["final"]["table"]["result"]["outcome"]
    assert len(outcome["results"]) == players
