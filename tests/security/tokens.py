"""Steps the token tests share (tests/security/test_token_lifetime.py and tests/scaling): reconnecting
with a token as a client that keeps whatever token the server hands back, and asking who a token is."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

from tests.server.harness import Client, ServerProcess


async def reconnect_until_refused(servers: list[ServerProcess], token: str, pause: float = 0.4,
                                  tries: int = 40) -> tuple[list[str], dict[str, Any] | None]:
    """Say hello with `token` on a new connection again and again (round the servers), each time keeping
    the token the welcome hands back, as the browser does. The tokens handed back, in order, and the
    refusal that ended it (None if none came in `tries`: the token was renewed as long as we tried)."""
    handed_back: list[str] = []
    for attempt in range(tries):
        client = await Client.connect(servers[attempt % len(servers)])
        try:
            answer = await client.request({"type": "hello", "token": token})
        finally:
            await client.close()
        if answer["type"] == "error":
            return handed_back, answer
        token = answer["token"]
        handed_back.append(token)
        await asyncio.sleep(pause)
    return handed_back, None


async def hello_answer(server: ServerProcess, token: str) -> dict[str, Any]:
    """What a new connection is told when it says hello with `token`."""
    client = await Client.connect(server)
    try:
        return await client.request({"type": "hello", "token": token})
    finally:
        await client.close()


def me(server: ServerProcess, token: str) -> tuple[int, Any]:
    """GET /api/me with the token: the status and the body."""
    request = urllib.request.Request(server.http_url + "/api/me", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def refused_because(answer: dict[str, Any]) -> str | None:
    """The reason of a `bad_token` refusal (`expired`, `replaced`, `logged_out`, `invalid`), else None."""
    if answer.get("code") != "bad_token":
        return None
    reason = answer.get("args", {}).get("reason")
    return str(reason) if reason is not None else "?"
