"""Every numeric option has a range a player would expect, and a value outside it is refused with an error
that names the range (review point 4: `clock 0.000000001` handed the seat to a bot within 2.5 s)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from ghostgames.tables import ClockLimits, ClockSpec
from tests.server.harness import Client, ServerProcess

_names = itertools.count(1)
CLOCK_WORDS = "bank+increment such as 300+5 (bank 10-7200, increment 0-60)"

# (game, seats, option, hostile value, words the refusal must hold)
OUT_OF_RANGE = [
    ("geister", 2, "clock", "0.000000001", CLOCK_WORDS),
    ("geister", 2, "clock", "1e308", CLOCK_WORDS),
    ("geister", 2, "clock", "nan", CLOCK_WORDS),
    ("thelast", 2, "clock", "99999+5", CLOCK_WORDS),
    ("thelast", 2, "clock", "300+3600", CLOCK_WORDS),
    ("geister", 2, "max_plies", "99999999999999999999999999", "from 1 to 1000 or none"),
    ("geister", 2, "max_plies", "0", "from 1 to 1000 or none"),
    ("ghooost", 3, "max_turns", str(10**12), "from 1 to 5000"),
    ("ghooost", 3, "max_rounds", "1000", "from 1 to 100"),
    ("thelast", 2, "rounds", "101", "from 1 to 100"),
]


def test_review_4_numeric_options_outside_their_range_are_refused_naming_it(server: ServerProcess) -> None:
    async def scenario() -> None:
        alice = await Client.connect(server, f"ranger{next(_names)}")
        tables = {game: await alice.create(game, seats) for game, seats in {("geister", 2), ("ghooost", 3),
                                                                               ("thelast", 2)}}
        for game, _seats, option, value, words in OUT_OF_RANGE:
            answer = await alice.command(tables[game], f"/option {option} {value}", version=None)
            assert answer["type"] == "error" and answer["code"] == "bad_option", (option, value, answer)
            assert words in answer["message"] and answer["args"]["name"] == option, answer["message"]
            assert f"option '{option}' takes" in answer["message"]
        # the table kept its defaults: nothing of the refused values got in
        settings = alice.tables[tables["geister"]]["table"]
        assert settings["clock"]["mode"] == "bank" and settings["settings"] == {}
        # values inside the ranges are taken
        taken = [("geister", "/option clock 3600"), ("thelast", "/option clock 7200+60"),
                 ("ghooost", "/option max_turns 5000"), ("geister", "/option max_plies 1000")]
        for game, text in taken:
            assert (await alice.command(tables[game], text, version=None))["type"] == "ack", text
        await alice.close()

    asyncio.run(scenario())
    # a table made over HTTP is checked the same way
    status, me = server.post("/api/guest", {"name": f"ranger{next(_names)}"})
    assert status == 200
    for body in ({"game": "geister", "seats": 2, "clock": "1e308"},
                 {"game": "ghooost", "seats": 3, "options": {"max_turns": 10**12}}):
        status, refused = server.post("/api/tables", body, token=me["token"])
        assert status == 400 and refused["code"] == "bad_option", refused


def test_review_4_the_shortest_clock_per_move_is_five_seconds_unless_the_server_lowers_it(tmp_path: Path) -> None:
    """A server with default settings (no test override) refuses a clock under 5 s per move."""
    assert ClockSpec.parse("5", ClockLimits()).seconds == 5.0
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_CLOCK_MIN": ""}).start()
    try:
        status, me = server.post("/api/guest", {"name": "Clocky"})
        status, refused = server.post("/api/tables", {"game": "geister", "seats": 2, "clock": "4"}, token=me["token"])
        assert status == 400 and "seconds per move from 5 to 3600" in refused["message"]
        status, made = server.post("/api/tables", {"game": "geister", "seats": 2, "clock": "5"}, token=me["token"])
        assert status == 200 and made["clock"]["seconds"] == 5
    finally:
        server.stop()
