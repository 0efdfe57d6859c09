"""Issue 32 below the browser: two bots of one level told apart (point 5), a finished table's address
that outlives the table (point 6) with the rating changes of its game (point 8). Each failed before."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ghostgames.rules.contract import Outcome
from ghostgames.server.auth import check_name
from ghostgames.storage.replay import rebuild_views
from ghostgames.tables import Context, Table, TableError, creation_event, parse_command
from ghostgames.tables.decisions import finished_event
from tests.server.harness import Client, ServerProcess


def ctx() -> Context:
    seeds = iter(range(1000, 2000))
    return Context(now=0.0, new_seed=lambda: next(seeds))


def _do(table: Table, user: str | None, text: str) -> list[dict[str, Any]]:
    decision = table.decide(user, parse_command(text), None, ctx())
    lines = []
    for event in decision.events:
        lines += [line.for_reader(None) for line in table.apply(event, 0.0)]
    return lines


# --- 5: two bots of one level ----------------------------------------------------------------------------
def test_5_two_bots_of_one_level_carry_their_seat_numbers_in_labels_log_and_result() -> None:
    table = Table(creation_event("t", "thelast", 4, None, None, "alice"))
    _do(table, "alice", "/join")
    _do(table, "alice", "/bot add easy")
    assert table.seats[1].label == "easy bot"  # one of its level: no number needed
    for _ in range(2):
        _do(table, "alice", "/bot add easy")
    assert [s.label for s in table.seats] == ["alice", "easy bot 2", "easy bot 3", "easy bot 4"]
    _do(table, "alice", "/start")
    # the third seat wins (the table's own finished event, as the game's end makes it)
    results = [{"result": "win" if seat == 2 else "loss", "rank": 1 if seat == 2 else 2, "score": 0.0}
               for seat in range(4)]
    event = finished_event(table, Outcome.from_json({"results": results, "reason": "lowest penalty: 3"}).to_json())
    finished = next(line.for_reader(None) for line in table.apply(event, 0.0))
    assert table.result is not None and table.result["names"] == ["alice", "easy bot 2", "easy bot 3", "easy bot 4"]
    # the winner by seat, so a reader never looks a label up among equal ones
    assert finished["args"]["winner_seats"] == [2] and finished["args"]["winners"] == ["easy bot 3"]
    assert [n["name"] for n in finished["names"]] == ["alice", "easy bot 2", "easy bot 3", "easy bot 4"]


def test_5_nobody_may_take_a_bot_label_as_a_name() -> None:
    for name in ("easy bot", "Easy Bot 2", "hard bot 13"):
        with pytest.raises(TableError):
            check_name(name)
    assert check_name("Bot 2") == "Bot 2" and check_name("robot") == "robot"


# --- 6 and 8: a finished table's address after the table closed ---------------------------------------------
@pytest.fixture(scope="module")
def closing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("closing"),
                            env={"GHOSTGAMES_IDLE_CLOSE": "0.5", "GHOSTGAMES_SWEEP_EVERY": "0.3"}).start()
    yield process
    process.stop()


async def _finished_geister(server: ServerProcess, token: str, level: str = "easy", moves: int = 1) -> str:
    """Alice sets up, makes `moves - 1` moves, and resigns on her next turn (the bot has as many moves)."""
    async with await Client.connect(server, token=token) as alice:
        table_id = await alice.create("geister", 2, {"first": 0})
        await alice.command(table_id, f"/bot add {level}", version=None)
        await alice.command(table_id, "/start", version=None)
        for _ in range(moves):
            state = await alice.until_table(
                table_id, lambda m: m["view"] is not None and 0 in m["table"]["to_act"] and m["view"]["legal"])
            await alice.act(table_id, state["view"]["legal"][0])
            await alice.until_table(table_id, lambda m: 0 not in m["table"]["to_act"]
                                    or m["table"]["status"] != "started")
        await alice.until_table(table_id, lambda m: 0 in m["table"]["to_act"] or m["table"]["status"] != "started")
        await alice.command(table_id, "/resign", version=None)
        await alice.until_table(table_id, lambda m: m["table"]["status"] == "finished")
    return table_id


def _wait_closed(server: ServerProcess, table_id: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if server.fetch(f"/api/tables/{table_id}")[0] == 404:
            return
        time.sleep(0.2)
    raise AssertionError("the finished table did not close")


def test_6_a_closed_tables_address_shows_the_result_and_the_position_its_reader_may_see(
        closing_server: ServerProcess) -> None:
    status, account = closing_server.post("/api/register", {"name": "Closer", "password": "secret-pw"})
    assert status == 200
    table_id = asyncio.run(_finished_geister(closing_server, account["token"]))
    _wait_closed(closing_server, table_id)
    status, spectator = closing_server.fetch(f"/api/tables/{table_id}/final")
    assert status == 200
    assert spectator["table"]["status"] == "closed" and spectator["table"]["id"] == table_id
    assert spectator["seat"] is None and spectator["table"]["result"]["outcome"]["reason"] == "seat 0 resigned"
    assert spectator["table"]["seats"][1] == {"seat": 1, "kind": "bot", "name": "easy bot", "bot": "easy",
                                              "takeover": None, "connected": True}
    assert isinstance(spectator["record"], int)
    replay = closing_server.get(f"/api/records/{spectator['record']}/replay")
    assert replay["table"] == table_id
    # the spectator's view is the replay's last step (no disclose vote: no colours of ghosts on the board)
    assert spectator["view"]["ghosts"] == rebuild_views(replay)[-1]["ghosts"]
    assert spectator["view"]["phase"] == "over"  # conceded, as the live table showed it
    on_board = [g for g in spectator["view"]["ghosts"] if g["status"] == "board"]
    assert on_board and all(g.get("colour") in (None, "unknown") for g in on_board), on_board
    # the player reads their own seat: their own ghosts' colours
    status, mine = closing_server.fetch(f"/api/tables/{table_id}/final", account["token"])
    assert status == 200 and mine["seat"] == 0
    own = [g for g in mine["view"]["ghosts"] if g["owner"] == 0 and g["status"] == "board"]
    assert own and all(g.get("colour") in ("good", "bad") for g in own), own
    # somebody else's token reads the spectator's view
    status, other = closing_server.post("/api/guest", {"name": "Nosy"})
    status, nosy = closing_server.fetch(f"/api/tables/{table_id}/final", other["token"])
    assert nosy["seat"] is None and nosy["view"] == spectator["view"]
    # a table where no game finished has nothing to show
    status, missing = closing_server.fetch("/api/tables/nosuch/final")
    assert status == 404 and missing["code"] == "no_such_table"


def test_8_a_rated_games_rating_changes_come_with_the_finished_table(closing_server: ServerProcess) -> None:
    status, account = closing_server.post("/api/register", {"name": "Rater", "password": "secret-pw"})
    # enough moves of each side for the game to count (docs/server.md, "Fair play in ratings")
    table_id = asyncio.run(_finished_geister(closing_server, account["token"], "hard", moves=3))
    status, final = closing_server.fetch(f"/api/tables/{table_id}/final")
    assert status == 200 and final["table"]["rated"] is True
    change = final["ratings"]["0"]
    assert change["before"]["rating"] == 1000 and change["after"]["rating"] < 1000  # resigned: lost
    assert set(final["ratings"]) == {"0", "1"}


def test_5_a_numbered_bot_label_leads_to_its_levels_profile() -> None:
    from ghostgames.server.players_api import _key

    assert _key("easy bot 2") == _key("easy bot") == "bot:easy"
    assert _key("Alice") == "alice"
