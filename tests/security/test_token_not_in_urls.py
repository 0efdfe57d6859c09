"""The session token leaves the WebSocket URL (review point 3): it goes in the first message (`hello`) or
an `Authorization` header; the old `/ws?token=` still works for one release with a deprecation note,
and no log line of the server, uvicorn's access log included, ever holds the token."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import websockets

from ghostgames.server.logs import redact
from tests.server.harness import Client, ServerProcess


def test_review_3_the_token_never_appears_in_the_server_logs(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, log_level="trace").start()  # uvicorn at its most talkative: frames too
    try:
        status, me = server.post("/api/guest", {"name": "Tokenholder"})
        assert status == 200
        token = me["token"]

        async def scenario() -> None:
            # the old way: the token in the URL, still honoured, with a note that it is going away
            async with websockets.connect(f"{server.ws_url}?token={token}", open_timeout=10) as old_way:
                welcome = json.loads(await asyncio.wait_for(old_way.recv(), 10))
                assert welcome["type"] == "welcome" and welcome["user"]["name"] == "Tokenholder"
                assert "?token=" in welcome["deprecated"] and "hello" in welcome["deprecated"]
            # a token in any other URL, and a bad one in the WebSocket URL, are not logged either
            async with httpx.AsyncClient(base_url=server.http_url) as http:
                assert (await http.get(f"/api/games?token={token}")).status_code == 200
                assert (await http.get(f"/api/nothing?a=1&token={token}")).status_code == 404
            async with websockets.connect(f"{server.ws_url}?token={token}x", open_timeout=10) as bad:
                answer = json.loads(await asyncio.wait_for(bad.recv(), 10))
                assert answer["code"] == "bad_token"
            # the new ways: the first message, or a header on the upgrade request
            first_message = await Client.connect(server, token=token)
            assert first_message.name == "Tokenholder"
            welcomed = next(m for m in first_message.received if m["type"] == "welcome")
            assert "deprecated" not in welcomed
            await first_message.close()
            async with websockets.connect(server.ws_url, open_timeout=10,
                                          additional_headers={"Authorization": f"Bearer {token}"}) as header:
                welcome = json.loads(await asyncio.wait_for(header.recv(), 10))
                assert welcome["user"]["name"] == "Tokenholder" and "deprecated" not in welcome

        asyncio.run(scenario())
    finally:
        server.stop()
    log = server.log()
    assert "/ws?token=[redacted]" in log and "/api/games?token=[redacted]" in log  # the lines are there
    assert "sent its session token in the WebSocket URL" in log  # the deprecation warning
    assert token not in log and token[:20] not in log


def test_review_3_redaction_keeps_everything_but_the_token() -> None:
    """The shapes a token takes in uvicorn's lines: a query string, a scope at trace level, a frame, a header."""
    assert redact('"GET /ws?token=abc.DEF-ghi_1 HTTP/1.1"') == '"GET /ws?token=[redacted] HTTP/1.1"'
    assert redact("/x?a=1&Token=s3cr3t&b=2") == "/x?a=1&Token=[redacted]&b=2"
    assert redact("/ws?tokens=fine") == "/ws?tokens=fine"
    assert redact("'query_string': b'token=abc.def'") == "'query_string': b'token=[redacted]'"
    assert redact('< TEXT \'{"type":"hello","token":"abc.def"}\'') == '< TEXT \'{"type":"hello","token":"[redacted]"}\''
    assert redact("(b'authorization', b'Bearer abc.def')") == "(b'authorization', b'Bearer [redacted]')"
