"""Steps the token tests share (tests/security/test_token_lifetime.py and tests/scaling): reconnecting
with a token as a client that keeps whatever token the server hands back, and asking who a token is."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from datetime import UTC, datetime
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import insert, select

from ghostgames.storage import Repository
from ghostgames.storage.models import UserRow
from ghostgames.storage.repository import MIGRATIONS, make_engine
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


def migrate_from_0003_and_back(url: str) -> None:
    """A database at revision 0003 with an account: migration 0004 counts no logouts for it, a logout
    then counts one, and going back down to 0003 keeps the names."""
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        connection.execute(insert(UserRow.__table__), [  # type: ignore[arg-type]
            {"name": "Olga", "name_key": "olga", "guest": False, "password_hash": "x",
             "created_at": datetime(2026, 11, 1, 10, tzinfo=UTC)}])
    engine.dispose()
    repo = Repository(url)  # migrates to the head
    try:
        olga = repo.get_user("olga")
        assert olga is not None and olga.logouts == 0
        assert repo.log_out(olga.id, olga.created_at) == 1
    finally:
        repo.close()
    engine = make_engine(url)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")
        assert connection.execute(select(UserRow.__table__.c.name)).scalars().all() == ["Olga"]
    engine.dispose()
