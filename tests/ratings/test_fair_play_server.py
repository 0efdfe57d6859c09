"""Fair play in ratings through the real server (a real SQLite file): the two attacks of issue 31 as they
were made, and a pair's repeats. Hole 3: two accounts, one resigning every game before any move, no longer
move a rating (each game is aborted for ratings, and the games list says so). Hole 4: one-ply Geister
against the hard bot is an unrated table from the start, and rated cannot be asked for at those settings.
A person's sixth game against the same bot within a day does not count. A rebuild equals the live ratings."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from ghostgames.tables.fair_play import NONSTANDARD, PAIR, PAIR_LIMIT, TOO_FEW_MOVES
from tests.ratings.test_players_api import get, play_against_bot
from tests.server.harness import Client, ServerProcess
from tests.server.players import play_until_over

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("fair_play")).start()
    yield process
    process.stop()


def register(server: ServerProcess, name: str) -> str:
    status, account = server.post("/api/register", {"name": name, "password": "secret-pw"})
    assert status == 200, account
    return str(account["token"])


async def instant_resignations(farmer_server: ServerProcess, feeder_server: ServerProcess, farmer: str,
                               feeder: str, games: int) -> str:
    """The attack of hole 3: the farmer's rated Geister table, the feeder resigns each game before any move,
    both ask for a rematch, again and again (each person may talk to a different worker)."""
    winner = await Client.connect(farmer_server, token=farmer)
    loser = await Client.connect(feeder_server, token=feeder)
    table_id = await winner.create("geister", 2)
    await loser.watch(table_id)
    assert (await loser.command(table_id, "/join", None))["type"] == "ack"
    assert (await winner.command(table_id, "/start", None))["type"] == "ack"
    for game in range(1, games + 1):
        await loser.until_table(table_id, lambda m, g=game: m["table"]["status"] == "started"
                                and m["table"]["round"] == g)
        answer = await loser.command(table_id, "/resign", None)
        assert answer["type"] == "ack", answer
        for client in (winner, loser):
            await client.until_table(table_id, lambda m, g=game: m["table"]["status"] == "finished"
                                     and m["table"]["round"] == g)
        if game < games:
            for client in (winner, loser):
                assert (await client.command(table_id, "/rematch", None))["type"] == "ack"
    assert winner.state(table_id)["table"]["rated"] is True  # a rated table: only fair play stops it
    await winner.close()
    await loser.close()
    return table_id


def games_of(server: ServerProcess, name: str) -> list[dict[str, Any]]:
    """Every game in the player's list, newest first."""
    items: list[dict[str, Any]] = []
    before = ""
    while True:
        status, page = get(server, f"/api/players/{name}/games?limit=100{before}")
        assert status == 200, page
        items += page["items"]
        if page["next"] is None:
            return items
        before = f"&before={page['next']}"


def check_farming_moved_nothing(server: ServerProcess, games: int) -> None:
    """After `games` instant resignations between Farmer and Feeder: no rating anywhere, each game listed
    as aborted for ratings, and why."""
    for name in ("Farmer", "Feeder"):
        status, profile = get(server, f"/api/players/{name}")
        assert status == 200 and profile["games"] == {"geister": games}
        assert profile["ratings"] == []  # the farm of hole 3 took Farmer from 1000 to 2014
    assert [row["player"] for row in get(server, "/api/ratings/geister")[1]["items"]
            if row["player"] in ("farmer", "feeder")] == []
    listed = games_of(server, "Farmer")
    assert len(listed) == games
    for item in listed:
        assert item["rated"] is False and item["aborted"] is True and item["rating"] is None
        assert item["reason"].endswith("resigned")
        assert [(p["code"], p["args"]) for p in item["unrated_because"]] == [
            (TOO_FEW_MOVES, {"seat": 0, "moves": 0, "needed": 3}),
            (TOO_FEW_MOVES, {"seat": 1, "moves": 0, "needed": 3})]
        assert item["unrated_because"][0]["message"] == (
            "aborted: seat 1 made 0 of its own moves, and a rated game needs 3 from every seat")


def test_hole_3_instant_resignations_between_two_accounts_move_no_rating(server: ServerProcess) -> None:
    farmer, feeder = register(server, "Farmer"), register(server, "Feeder")
    asyncio.run(instant_resignations(server, server, farmer, feeder, 40))
    check_farming_moved_nothing(server, 40)


async def one_ply_games(server: ServerProcess, token: str, games: int) -> str:
    """The attack of hole 4: Geister at max_plies=1 against the hard bot, a rematch after each game."""
    client = await Client.connect(server, token=token)
    refused = await client.request({"type": "create", "game": "geister", "seats": 2,
                                    "options": {"max_plies": 1, "rated": "on"}})
    assert refused["type"] == "error" and refused["code"] == "bad_option"
    assert "standard settings (max_plies none or at least 300), not max_plies 1" in refused["message"]
    table_id = await client.create("geister", 2, {"max_plies": 1})
    assert client.state(table_id)["table"]["rated"] is False  # told before the game: it will not count
    assert (await client.command(table_id, "/bot add hard", None))["type"] == "ack"
    assert (await client.command(table_id, "/start", None))["type"] == "ack"
    for game in range(1, games + 1):
        await client.until_table(table_id, lambda m, g=game: m["table"]["round"] == g)
        await play_until_over(client, table_id, seed=game)
        if game < games:
            assert (await client.command(table_id, "/rematch", None))["type"] == "ack"
    await client.close()
    return table_id


def test_hole_4_one_ply_games_against_a_bot_are_unrated_from_the_start(server: ServerProcess) -> None:
    token = register(server, "Plyfarmer")
    asyncio.run(one_ply_games(server, token, 30))
    status, profile = get(server, "/api/players/Plyfarmer")
    assert status == 200 and profile["games"] == {"geister": 30} and profile["ratings"] == []
    assert get(server, "/api/players/bot:hard")[1]["ratings"] == []  # quick play offers others this bot
    assert all(item["rated"] is False for item in games_of(server, "Plyfarmer"))

    async def rated_then_shortened() -> tuple[dict[str, Any], dict[str, Any]]:
        """A rated table whose ply cap is then set to 1 turns unrated at once, and its log says why."""
        client = await Client.connect(server, token=token)
        table_id = await client.create("geister", 2)
        assert client.state(table_id)["table"]["rated"] is True
        assert (await client.command(table_id, "/option max_plies 1", None))["type"] == "ack"
        await client.until_table(table_id, lambda m: m["table"]["rated"] is False)
        log = await client.wait_for(lambda m: m.get("type") == "log" and any(
            line["args"].get("because") for line in m["lines"]))
        answer = await client.command(table_id, "/option rated on", None)
        await client.close()
        return log, answer

    log, answer = asyncio.run(rated_then_shortened())
    (line,) = [line for line in log["lines"] if line["args"].get("because")]
    assert line["text"] == ("option rated is now off: max_plies 1 is not a standard setting; rated games use "
                            "max_plies none or at least 300")
    assert [p["code"] for p in line["args"]["because"]] == [NONSTANDARD]
    assert answer["type"] == "error" and answer["code"] == "bad_option"
    assert "not max_plies 1" in answer["message"] and answer["args"]["standard"] == "max_plies none or at least 300"


def test_a_pairs_games_beyond_the_daily_limit_do_not_count(server: ServerProcess) -> None:
    token = register(server, "Pat")
    for seed in range(PAIR_LIMIT + 2):
        asyncio.run(play_against_bot(server, token, None, "geister", seed=seed))
    listed = list(reversed(games_of(server, "Pat")))  # oldest first
    assert [item["rated"] for item in listed] == [True] * PAIR_LIMIT + [False, False]
    for item in listed[PAIR_LIMIT:]:
        assert item["aborted"] is False and item["rating"] is None
        ((code, args),) = [(p["code"], p["args"]) for p in item["unrated_because"]]
        assert code == PAIR and args == {"players": ["bot:easy", "pat"], "games": PAIR_LIMIT, "hours": 24}
    (rating,) = get(server, "/api/players/Pat")[1]["ratings"]
    assert rating["games"] == PAIR_LIMIT


def test_the_rebuild_applies_the_rules_and_equals_the_live_ratings(server: ServerProcess) -> None:
    """After the games above (aborted, unrated, over the pair's limit, counted), a rebuild from nothing."""
    done = subprocess.run([sys.executable, "-m", "ghostgames", "ratings", "rebuild", "--db", server.db_url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "identical to the live ratings" in done.stdout
    assert f"folded {PAIR_LIMIT} of {40 + PAIR_LIMIT + 2} rated records" in done.stdout
