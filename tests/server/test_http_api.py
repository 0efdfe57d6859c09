"""The HTTP JSON API: games and their options, names and tokens, tables, records and replays that show
only what a spectator may see."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request

from ghostgames.games import get_game
from ghostgames.rules.record import GameRecord
from ghostgames.storage import get_record, save_record
from ghostgames.storage.replay import rebuild_views
from tests.server.harness import Client, ServerProcess
from tests.server.players import record_of

SETUP_TEXT = re.compile(r"setup [a-f][1-6]")  # a secret Geister setup action

def test_games_lists_each_game_with_player_counts_and_the_vote_options(server: ServerProcess) -> None:
    games = {g["name"]: g for g in server.get("/api/games")}
    assert set(games) == {"geister", "ghooost", "thelast"}
    assert games["geister"]["options"]["disclose"]["vote"] is True
    assert games["geister"]["options"]["exit"]["vote"] is False
    assert (games["ghooost"]["min_players"], games["ghooost"]["max_players"]) == (2, 6)
    assert "clock" in games["thelast"]["table_options"]
    schema = server.get("/api/openapi.json")
    assert "/api/games" in schema["paths"] and "/api/records/{record_id}/replay" in schema["paths"]


def test_accounts_are_hashed_with_argon2_and_guest_names_are_unique(server: ServerProcess) -> None:
    status, account = server.post("/api/register", {"name": "Registered", "password": "secret-pw"})
    assert status == 200 and account["guest"] is False
    status, again = server.post("/api/register", {"name": "registered", "password": "other-pw"})
    assert status == 409 and again["code"] == "name_taken"
    status, wrong = server.post("/api/login", {"name": "Registered", "password": "nope-nope"})
    assert status == 401 and wrong["code"] == "bad_login"
    status, login = server.post("/api/login", {"name": "Registered", "password": "secret-pw"})
    assert status == 200 and login["name"] == "Registered"
    request = urllib.request.Request(server.http_url + "/api/me", headers={"Authorization": f"Bearer {login['token']}"})
    with urllib.request.urlopen(request) as answer:
        assert json.loads(answer.read()) == {"name": "Registered", "guest": False}
    status, guest = server.post("/api/guest", {"name": "Registered"})
    assert status == 409 and guest["code"] == "name_taken"
    status, bad = server.post("/api/guest", {"name": "<b>x</b>"})
    assert status == 400 and bad["code"] == "bad_name"
    from ghostgames.storage import open_repository

    user = open_repository(server.db_url).get_user("Registered")
    assert user is not None and user.password_hash is not None
    assert user.password_hash.startswith("$argon2") and "secret-pw" not in user.password_hash


def test_a_table_made_over_http_is_joined_by_link_over_the_websocket(server: ServerProcess) -> None:
    status, me = server.post("/api/guest", {"name": "HttpHost"})
    assert status == 200
    status, table = server.post("/api/tables", {"game": "ghooost", "seats": 4, "options": {"deck": "original"},
                                                "clock": "300+5"}, token=me["token"])
    assert status == 200 and table["status"] == "open" and table["clock"]["mode"] == "bank"
    assert server.get(f"/api/tables/{table['id']}")["settings"] == {"deck": "original"}
    status, refused = server.post("/api/tables", {"game": "chess", "seats": 2}, token=me["token"])
    assert status == 400 and refused["code"] == "unknown_game"
    status, refused = server.post("/api/tables", {"game": "geister", "seats": 3}, token=me["token"])
    assert refused["code"] == "bad_seats"
    status, refused = server.post("/api/tables", {"game": "geister", "seats": 2})
    assert status == 401
    with urllib.request.urlopen(server.http_url + f"/table/{table['id']}") as page:
        assert page.status == 200 and b"<html" in page.read().lower()

    async def join() -> None:
        client = await Client.connect(server, token=me["token"])
        watched = await client.watch(table["id"])
        assert watched["seat"] is None
        assert (await client.command(table["id"], "/join 4"))["type"] == "ack"  # typed from 1
        assert client.tables[table["id"]]["seat"] == 3  # the wire's index, from 0
        await client.close()

    asyncio.run(join())


def test_a_replay_shows_only_what_a_spectator_may_see(server: ServerProcess) -> None:
    async def play() -> str:
        host = await Client.connect(server, "ReplayHost")
        table_id = await host.create("geister", 2, join=False)
        await host.command(table_id, "/bot add")
        await host.command(table_id, "/bot add")
        await host.command(table_id, "/start")
        await host.until_table(table_id, lambda m: m["table"]["status"] == "finished", timeout=90)
        await host.close()
        return table_id

    table_id = asyncio.run(play())
    stored = record_of(server.db_url, table_id)
    listed = [r for r in server.get("/api/records?game=geister") if r["id"] == stored.id]
    assert listed and "seed" not in listed[0] and "actions" not in listed[0]
    replay = server.get(f"/api/records/{stored.id}/replay")
    expected = [state.view(None) for state in stored.record.states()]
    assert replay["total"] == len(expected) and replay["next"] is None  # a Geister game fits in one page
    views = rebuild_views(replay)
    assert views == expected
    text = json.dumps(replay)
    assert str(stored.record.seed) not in text and not SETUP_TEXT.search(text)
    assert all(g["colour"] is None for g in views[2]["ghosts"])


def test_another_program_stores_a_record_and_the_server_replays_it(server: ServerProcess) -> None:
    game = get_game("geister")
    state = game.new(2, {"disclose": False}, 99)
    record = GameRecord("geister", 2, {"disclose": False}, 99)
    for seat, text in [(0, "setup b1 c1 d1 e1"), (1, "setup b6 c6 d6 e6"), (0, "b2 n")]:
        state.apply(seat, text)
        record.actions.append((seat, text))
    record_id = save_record(server.db_url, record, "competition", ["bot A", "bot B"])
    stored = get_record(server.db_url, record_id)
    assert stored is not None and stored.record.to_json() == record.to_json() and stored.source == "competition"
    replay = server.get(f"/api/records/{record_id}/replay")
    assert replay["names"] == ["bot A", "bot B"] and len(replay["steps"]) == replay["total"] == 4
    assert rebuild_views(replay)[-1] == state.view(None)
    assert not SETUP_TEXT.search(json.dumps(replay))
    assert [r["id"] for r in server.get("/api/records?source=competition")] == [record_id]


def test_the_lobby_hears_of_new_tables_and_of_abandoned_ones_closing(server: ServerProcess) -> None:
    async def scenario() -> None:
        watcher = await Client.connect(server)
        lobby = await watcher.request({"type": "lobby"})
        assert lobby["type"] == "lobby" and {g["name"] for g in lobby["games"]} == {"geister", "ghooost", "thelast"}
        host = await Client.connect(server, "LobbyHost")
        table_id = await host.create("thelast", 2)
        listed = await watcher.wait_for(lambda m: m.get("type") == "lobby_update"
                                        and table_id in [t["id"] for t in m["tables"]])
        assert next(t for t in listed["tables"] if t["id"] == table_id)["status"] == "open"
        await host.command(table_id, "just chatting")
        await host.command(table_id, "/leave")
        await host.command(table_id, "/leave")  # no seat any more: stops watching
        await watcher.wait_for(lambda m: m.get("type") == "lobby_update" and table_id in m["removed"])
        assert table_id not in [t["id"] for t in server.get("/api/tables")]
        await host.close()
        await watcher.close()

    asyncio.run(scenario())
