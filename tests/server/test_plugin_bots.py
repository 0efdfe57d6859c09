"""`/bot add NAME` seats an installed plug-in bot only on a server started with `--plugin-bots`."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests import plugin_package
from tests.server.harness import Client, ServerProcess
from tests.server.players import play_until_over, record_of


def test_an_installed_plugin_bot_is_seated_only_when_the_operator_allows_it(tmp_path: Path) -> None:
    folder = plugin_package.build(tmp_path / "site")
    env = plugin_package.environment(folder)

    async def refused(server: ServerProcess) -> None:
        alice = await Client.connect(server, "alice")
        table_id = await alice.create("thelast", 2)
        answer = await alice.command(table_id, "/bot add firstmove")
        assert answer["code"] == "no_such_bot" and "firstmove" not in answer["message"].split(": ")[-1]
        await alice.close()

    async def seated(server: ServerProcess) -> None:
        alice = await Client.connect(server, "bob")
        table_id = await alice.create("thelast", 2)
        assert (await alice.command(table_id, "/bot add FirstMove"))["type"] == "ack"
        seats = alice.tables[table_id]["table"]["seats"]
        assert seats[1]["kind"] == "bot" and seats[1]["bot"] == "firstmove"
        assert (await alice.command(table_id, "/start"))["type"] == "ack"
        await play_until_over(alice, table_id, 2)
        assert 1 in {seat for seat, _ in record_of(server.db_url, table_id).record.actions}
        await alice.close()

    for allowed, scenario in ((False, refused), (True, seated)):
        (tmp_path / str(allowed)).mkdir()
        server = ServerProcess(tmp_path / str(allowed), env=env,
                               extra_args=["--plugin-bots"] if allowed else []).start(timeout=180)
        try:
            asyncio.run(scenario(server))
        finally:
            server.stop()
