"""Ratings, profiles and leaderboards through the real server: a person with an account plays rated
games against a bot; the HTTP API shows the ratings, the games (paged), the leaderboard, the person's
own records to download, and a replay from their own seat; a rebuild equals the live ratings."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghostgames.rules.record import GameRecord
from tests.server.harness import Client, ServerProcess
from tests.server.players import play_until_over


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("players")).start()
    yield process
    process.stop()


def get(server: ServerProcess, path: str, token: str | None = None) -> tuple[int, Any]:
    return server.fetch(path, token)


async def play_against_bot(server: ServerProcess, token: str | None, guest: str | None, game: str,
                           options: dict[str, Any] | None = None, seed: int = 1) -> str:
    client = await Client.connect(server, guest, token)
    table_id = await client.create(game, 2, options)
    assert (await client.command(table_id, "/bot add easy"))["type"] == "ack"
    assert (await client.command(table_id, "/start"))["type"] == "ack"
    await play_until_over(client, table_id, seed)
    await client.close()
    return table_id


def test_rated_games_against_a_bot_show_on_the_profile_games_and_leaderboard(server: ServerProcess) -> None:
    status, account = server.post("/api/register", {"name": "Rita", "password": "secret-pw"})
    assert status == 200
    token = account["token"]
    for seed in (1, 2):
        asyncio.run(play_against_bot(server, token, None, "geister", seed=seed))
    asyncio.run(play_against_bot(server, token, None, "geister", {"rated": "off"}, seed=3))
    asyncio.run(play_against_bot(server, None, "Gus", "geister", seed=4))  # a guest: unrated

    status, profile = get(server, "/api/players/rita")
    assert status == 200 and profile["name"] == "Rita" and profile["games"] == {"geister": 3}
    (rating,) = profile["ratings"]
    assert rating["game"] == "geister" and rating["games"] == 2
    assert len(rating["history"]) == 2 and rating["history"][-1]["rating"] == rating["rating"]
    assert rating["rating"] != 1000 and rating["uncertainty"] < 1000  # it moved, and it is surer

    status, page = get(server, "/api/players/Rita/games?limit=2")
    assert status == 200 and len(page["items"]) == 2 and page["next"] is not None
    status, rest = get(server, f"/api/players/Rita/games?limit=2&before={page['next']}")
    assert len(rest["items"]) == 1 and rest["next"] is None
    games = page["items"] + rest["items"]
    assert [g["rated"] for g in games] == [False, True, True]
    assert games[1]["rating"]["after"]["rating"] == rating["rating"]
    assert games[2]["rating"]["before"] == {"rating": 1000, "uncertainty": 1000}

    status, board = get(server, "/api/ratings/geister")
    assert status == 200
    assert {row["player"] for row in board["items"]} == {"rita", "bot:easy"}
    assert [row["place"] for row in board["items"]] == [1, 2]
    assert board["items"][0]["rating"] >= board["items"][1]["rating"]
    assert get(server, "/api/players/bot:easy")[1]["ratings"][0]["games"] == 2
    assert get(server, "/api/players/gus")[0] == 404  # guests have no profile
    assert get(server, "/api/ratings/chess")[0] == 404  # tests below say more

    # the person's own records, which replay to the outcome the server kept
    assert get(server, "/api/players/Rita/records")[0] == 401
    status, download = get(server, "/api/players/Rita/records", token)
    assert status == 200 and len(download["records"]) == 3 and download["withheld"] == 0
    for item in download["records"]:
        state = GameRecord.from_json(item["record"]).replay()
        outcome = state.outcome()
        assert outcome is not None and outcome.to_json() == item["outcome"]

    # a replay from the person's own seat; nobody else may ask for that seat
    record_id, seat = games[0]["id"], games[0]["seat"]
    status, mine = get(server, f"/api/records/{record_id}/replay/{seat}", token)
    assert status == 200 and mine["viewer"] == seat and len(mine["steps"]) > 2
    status, guest = server.post("/api/guest", {"name": "Nosy"})
    assert get(server, f"/api/records/{record_id}/replay/{seat}", guest["token"])[0] == 403
    assert get(server, f"/api/records/{record_id}/replay/{1 - seat}", token)[0] == 403


def test_the_rebuild_command_gives_the_live_ratings(server: ServerProcess, tmp_path: Path) -> None:
    _, account = server.post("/api/register", {"name": "Reb", "password": "secret-pw"})
    asyncio.run(play_against_bot(server, account["token"], None, "thelast", seed=7))
    done = subprocess.run([sys.executable, "-m", "ghostgames", "ratings", "rebuild", "--db", server.db_url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "identical to the live ratings" in done.stdout
    assert get(server, "/api/players/reb")[1]["ratings"][0]["games"] == 1


def test_an_unknown_game_in_the_address_is_404_naming_the_games_but_in_a_new_tables_body_400(
        server: ServerProcess) -> None:
    """A leaderboard or a game filter of a game there is not names no resource (404); a table asked for
    with such a game is a bad request (400). Each answer names the games there are."""
    games = ["geister", "ghooost", "thelast"]
    for path in ("/api/ratings/chess", "/api/players/Rita/games?game=chess", "/api/players/nobody/games?game=chess"):
        status, refused = get(server, path)
        assert status == 404, path
        assert refused["code"] == "unknown_game" and refused["args"] == {"game": "chess", "games": games}
        assert "geister, ghooost, thelast" in refused["message"]
    assert get(server, "/api/ratings/geister")[0] == 200
    status, guest = server.post("/api/guest", {"name": "Chessy"})
    status, refused = server.post("/api/tables", {"game": "chess", "seats": 2}, token=guest["token"])
    assert status == 400 and refused["code"] == "unknown_game" and refused["args"]["games"] == games
