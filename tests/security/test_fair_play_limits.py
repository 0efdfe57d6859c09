"""Issue 31, holes 7, 9 and 10 and the quick-play double seat: every way to make a table counts against
the address's limit, every integer a client sends is bounded, and no frame closes the WebSocket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from tests.server.harness import Client, ServerProcess

PER_ADDRESS = 4  # tables one address may make at once in this module's server


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("limits"),
                            env={"GHOSTGAMES_CREATE_PER_ADDRESS": str(PER_ADDRESS)}).start()
    yield process
    process.stop()


def _guest(server: ServerProcess, name: str) -> str:
    status, answer = server.post("/api/guest", {"name": name})
    assert status == 200, answer
    return str(answer["token"])


def test_quick_play_counts_against_the_address_limit_on_new_tables(limited: ServerProcess) -> None:
    """Hole 7: once an address has made its tables, quick play against a bot makes no more."""
    for index in range(PER_ADDRESS):
        status, _ = limited.post("/api/tables", {"game": "geister", "seats": 2}, _guest(limited, f"Maker{index}"))
        assert status == 200
    status, refused = limited.post("/api/quick/geister/bot", {}, _guest(limited, "Quickie"))
    assert status == 429 and refused["code"] == "create_limited", refused
    assert refused["args"]["per"] == "address"


def test_somebody_playing_a_quick_game_cannot_be_seated_at_a_second_one(server: ServerProcess) -> None:
    """The double seat: a person seated by quick play queued again and was seated at a second table."""
    token = _guest(server, "Twice")
    status, first = server.post("/api/quick/thelast/bot", {}, token)
    assert status == 200 and first["status"] == "seated"

    async def stay() -> None:  # present at the table, so no grace period hands the seat to a bot
        client = await Client.connect(server, token=token)
        await client.watch(first["table"])
        for path in ("/api/quick/geister", "/api/quick/geister/bot"):
            status, refused = server.post(path, {}, token)
            assert status == 409 and refused["code"] == "already_playing", (path, refused)
            assert refused["args"]["table"] == first["table"]
        assert (await client.command(first["table"], "/resign", version=None))["type"] == "ack"
        await client.until_table(first["table"], lambda m: m["table"]["status"] == "finished")
        status, again = server.post("/api/quick/geister/bot", {}, token)
        assert status == 200 and again["status"] == "seated" and again["table"] != first["table"]
        await client.close()

    asyncio.run(stay())


@pytest.mark.parametrize("path", [
    f"/api/players/nobody/games?before={2**63}",
    f"/api/players/nobody/games?before={10**30}",
    "/api/players/nobody/games?before=0",
    f"/api/ratings/geister?offset={2**63}",
    f"/api/ratings/geister?offset={10**40}",
])
def test_an_integer_out_of_range_is_a_422_that_names_the_range(server: ServerProcess, path: str) -> None:
    """Hole 9: these gave an HTTP 500 (SQLite's OverflowError)."""
    status, answer = server.fetch(path)
    assert status == 422, (path, status, answer)
    assert answer["code"] == "bad_request"
    assert "greater than or equal to" in answer["message"] or "less than or equal to" in answer["message"]


def test_a_number_of_thousands_of_digits_is_a_bad_message_not_a_closed_socket(server: ServerProcess) -> None:
    """Hole 10: json.loads raised a ValueError the reader did not catch; the socket closed."""
    async def scenario() -> None:
        client = await Client.connect(server, "Digits")
        for frame in ('{"type": "ping", "id": ' + "9" * 5000 + "}",
                      '{"type": "command", "table": "abc", "text": "hi", "version": ' + "1" * 4400 + "}",
                      '[' + "7" * 4301 + "]",
                      json.dumps({"type": "ping", "id": 2**60}),  # past what a browser holds exactly
                      json.dumps({"type": "command", "table": "abc", "text": "x", "version": 2**60})):
            start = len(client.received)
            await client.send_raw(frame)
            answer = await client.wait_for(lambda m: m.get("type") == "error", start=start)
            assert answer["code"] == "bad_message", answer
            assert "id" not in answer  # a huge id is never echoed
        assert (await client.request({"type": "ping"}))["type"] == "pong"  # still open and served
        await client.close()

    asyncio.run(scenario())
