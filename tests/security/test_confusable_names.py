"""A name that looks like a taken one is refused (review point 6: `аlice` with a Cyrillic а and `ａlice`
in full width were accepted while `alice` was logged in)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ghostgames.server.confusables import skeleton
from ghostgames.storage import Repository
from tests.server.harness import Client, ServerError, ServerProcess


def test_review_6_names_confusable_with_a_taken_one_are_refused(server: ServerProcess) -> None:
    status, alice = server.post("/api/guest", {"name": "alicelook"})
    assert status == 200
    for lookalike in ("\u0430licelook",  # Cyrillic а
                      "\uff41licelook",  # full-width a
                      "a1icelook", "ALICEL00K", "alicel\u043eok"):  # digits 1 and 0, a Cyrillic о
        status, refused = server.post("/api/guest", {"name": lookalike})
        assert status == 409 and refused["code"] == "name_confusable", (lookalike, refused)
        assert refused["args"] == {"name": refused["args"]["name"], "existing": "alicelook"}
        assert "looks like 'alicelook'" in refused["message"] and "add a word or digits" in refused["message"]
        status, refused = server.post("/api/register", {"name": lookalike, "password": "long-enough"})
        assert status == 409 and refused["code"] == "name_confusable"
    # what the error suggests works
    assert server.post("/api/guest", {"name": "alicelook2"})[0] == 200
    # an account's name is guarded the same way, and over the WebSocket too
    assert server.post("/api/register", {"name": "Roomkeeper", "password": "long-enough"})[0] == 200

    async def over_the_websocket() -> None:
        client = await Client.connect(server)
        try:
            await client.hello(guest="Roomkeeper".replace("m", "rn"))
        except ServerError as err:
            assert err.code == "name_confusable"
        else:
            raise AssertionError("a look-alike guest name was accepted")
        finally:
            await client.close()

    asyncio.run(over_the_websocket())
    assert alice["name"] == "alicelook"


def test_review_6_names_stored_before_skeletons_are_compared_too(tmp_path: Path) -> None:
    """A database from before the migration: its names get their skeletons when the server starts."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    repo = Repository(url)
    with repo.engine.begin() as connection:
        connection.exec_driver_sql("INSERT INTO users (name, name_key, guest, created_at) "
                                   "VALUES ('Veteran', 'veteran', 0, '2026-01-01 00:00:00')")
    repo.close()
    server = ServerProcess(tmp_path, db_url=url).start()
    try:
        status, refused = server.post("/api/guest", {"name": "V\u0435teran"})  # Cyrillic е
        assert status == 409 and refused["code"] == "name_confusable" and refused["args"]["existing"] == "Veteran"
    finally:
        server.stop()
    assert skeleton("Veteran") == skeleton("VETERAN") == skeleton("V\u0435teran") != skeleton("Veterans")
