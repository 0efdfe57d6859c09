"""One address cannot hold every WebSocket the server could open: past the limit a new connection gets
one clear error message and is closed, and a closed connection frees its place at once."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import websockets

from ghostgames.server.ratelimit import OpenConnections
from ghostgames.tables import TableError
from tests.server.harness import Client, ServerError, ServerProcess


def test_the_connection_past_the_limit_is_told_why_and_closed_and_a_freed_place_is_reused(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_CONNECTIONS_PER_ADDRESS": "3"}).start()

    async def scenario() -> None:
        held = [await Client.connect(server, name=f"Holder {n}") for n in range(3)]
        async with websockets.connect(server.ws_url, open_timeout=10) as extra:
            refusal = json.loads(await asyncio.wait_for(extra.recv(), 10))
            assert refusal["type"] == "error" and refusal["code"] == "too_many_connections"
            assert refusal["args"] == {"open": 3, "limit": 3}
            assert "close some tabs" in refusal["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(extra.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        for client in held:  # the ones already open go on working
            answer = await client.call({"type": "hello", "token": client.token})
            assert answer["type"] == "welcome"
        await held[0].close()
        for _ in range(50):  # the server sees the close a moment later
            try:
                again = await Client.connect(server, name="Newcomer")
                break
            except (ServerError, websockets.ConnectionClosed):  # refused while the old place is not yet free (the
                # refusal can close the socket before our hello is sent, or answer it)
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("a freed place was not given to a new connection")
        assert again.name == "Newcomer"
        for client in (*held[1:], again):
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_counts_are_per_address_and_go_away_when_the_last_connection_closes() -> None:
    connections = OpenConnections(limit=2)
    connections.open("10.0.0.1")
    connections.open("10.0.0.1")
    with pytest.raises(TableError) as refused:
        connections.open("10.0.0.1")
    assert refused.value.code == "too_many_connections"
    connections.open("10.0.0.2")
    connections.close("10.0.0.1")
    connections.open("10.0.0.1")
    for address in ("10.0.0.1", "10.0.0.1", "10.0.0.2"):
        connections.close(address)
    assert len(connections) == 0
