"""Issue 31, holes 5 and 8, on the real server (SQLite): a loser who stays connected and never moves cannot
keep a rated game from ending; at a table without a clock the others claim against an idle player; a seat
whose person is away is handed to a bot whatever way they left; a rematch starts only under settings
everybody agreed to."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest

from tests.ratings.test_players_api import get
from tests.server.harness import Client, ServerProcess
from tests.server.players import my_turn_or_over, play_until_over, record_of

pytestmark = pytest.mark.timeout(240)

# Every table's default clock is 3 s a move here (the games' own defaults are minutes), and a player to move
# at a table without a clock may be claimed against after 1 s: short enough to see both in a test.
STALL_ENV = {"GHOSTGAMES_DEFAULT_CLOCK": "3", "GHOSTGAMES_IDLE_CLAIM": "1"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("stalls"), env=STALL_ENV).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with the games' own default clocks."""
    process = ServerProcess(tmp_path_factory.mktemp("plain")).start()
    yield process
    process.stop()


def account(server: ServerProcess, name: str) -> str:
    status, answer = server.post("/api/register", {"name": name, "password": "secret-pw"})
    assert status == 200, answer
    return str(answer["token"])


async def own_moves(client: Client, table_id: str, count: int, seed: int) -> None:
    """Make `count` moves of one's own (so that the game is a real one by any fair-play rule), then stop."""
    rng = random.Random(seed)
    for _ in range(count):
        message = await client.until_table(table_id, my_turn_or_over, timeout=30)
        assert message["table"]["status"] == "started", "the game ended before the stalling began"
        answer = await client.act(table_id, rng.choice(message["view"]["legal"]), version=None)
        assert answer["type"] == "ack", answer


async def stalled_rated_game(for_ann: ServerProcess, for_ben: ServerProcess, ann: str, ben: str) -> str:
    """Ann makes a rated Geister table with the defaults; Ben plays a few moves, then stays connected and
    never moves again. Returns the table once the game is over."""
    ann_client = await Client.connect(for_ann, token=ann)
    ben_client = await Client.connect(for_ben, token=ben)
    table_id = await ann_client.create("geister", 2)  # no clock chosen, rated by default: the attack's table
    table = ann_client.state(table_id)["table"]
    assert table["rated"] is True
    assert table["clock"]["mode"] != "none", "a rated table got no clock: a loser could stall it for ever"
    await ben_client.watch(table_id)
    assert (await ben_client.command(table_id, "/join", version=None))["type"] == "ack"
    assert (await ann_client.command(table_id, "/start", version=None))["type"] == "ack"
    await asyncio.gather(own_moves(ann_client, table_id, 4, 1), own_moves(ben_client, table_id, 4, 2))
    # Ben stops here and stays connected; Ann plays on. The game must end without him.
    await play_until_over(ann_client, table_id, seed=3)
    finished = await ben_client.until_table(table_id, lambda m: m["table"]["status"] == "finished", timeout=60)
    assert not ben_client.closed
    assert finished["table"]["seats"][1]["takeover"] == "timeouts"  # his clock ran out; a bot played on
    await ann_client.close()
    await ben_client.close()
    return table_id


def test_hole_5_a_loser_who_stays_connected_and_never_moves_cannot_keep_a_rated_game_from_ending(
        server: ServerProcess) -> None:
    ann, ben = account(server, "StallAnn"), account(server, "StallBen")
    table_id = asyncio.run(stalled_rated_game(server, server, ann, ben))
    stored = record_of(server.db_url, table_id)
    assert stored.rated and stored.outcome is not None
    for name in ("stallann", "stallben"):  # both ratings moved: the game counted
        status, profile = get(server, f"/api/players/{name}")
        assert status == 200 and profile["ratings"][0]["games"] == 1, profile


def test_hole_5_quick_play_and_new_tables_get_the_games_default_clock_and_no_rated_table_goes_without(
        plain: ServerProcess) -> None:
    games = {g["name"]: g for g in plain.get("/api/games")}
    assert {name: g["table_options"]["clock"]["default"] for name, g in games.items()} == \
        {"geister": "300+5", "ghooost": "30", "thelast": "30"}
    tokens = [account(plain, name) for name in ("QuickUna", "QuickVic", "QuickWes")]
    assert plain.post("/api/quick/thelast", {}, tokens[0])[1]["status"] == "waiting"
    status, seated = plain.post("/api/quick/thelast", {}, tokens[1])
    assert status == 200 and seated["status"] == "seated"
    table = plain.get(f"/api/tables/{seated['table']}")
    assert table["status"] == "started" and table["rated"] is True
    assert table["clock"]["mode"] == "move" and table["clock"]["seconds"] == 30
    status, bot_table = plain.post("/api/quick/geister/bot", {}, tokens[2])
    assert status == 200, bot_table
    table = plain.get(f"/api/tables/{bot_table['table']}")
    assert table["clock"] == {**table["clock"], "mode": "bank", "seconds": 300, "increment": 5}

    # rated asked for without a clock is refused, saying what works; an unrated table may go without one
    body = {"game": "geister", "seats": 2, "clock": "none", "options": {"rated": True}}
    status, refused = plain.post("/api/tables", body, token=tokens[0])
    assert status == 400 and refused["code"] == "rated_needs_clock"
    assert "300+5" in refused["message"] and "rated off" in refused["message"]
    status, casual = plain.post("/api/tables", {"game": "geister", "seats": 2, "clock": "none"}, token=tokens[0])
    assert status == 200 and casual["clock"]["mode"] == "none" and casual["rated"] is False

    async def typed() -> None:
        client = await Client.connect(plain, token=tokens[1])
        table_id = await client.create("thelast", 2)
        assert client.state(table_id)["table"]["rated"] is True
        answer = await client.command(table_id, "/option clock none", version=None)
        assert answer["type"] == "ack", answer
        log = await client.wait_for(lambda m: m.get("type") == "log" and len(m["lines"]) == 2)
        assert log["lines"][1]["text"] == "option rated is now off: a rated game needs a clock, so that every game ends"
        table = await client.until_table(table_id, lambda m: m["table"]["version"] >= answer["version"])
        assert table["table"]["rated"] is False and table["table"]["clock"]["mode"] == "none"
        answer = await client.command(table_id, "/option rated on", version=None)
        assert answer["type"] == "error" and answer["code"] == "rated_needs_clock", answer
        await client.close()

    asyncio.run(typed())


async def claimed_idle_game(for_cleo: ServerProcess, for_dan: ServerProcess, prefix: str) -> str:
    """Cleo and Dan at an unrated Geister table without a clock; Cleo sets up, Dan stays connected and idle,
    Cleo claims the win once the server allows it. Returns the table."""
    cleo = await Client.connect(for_cleo, f"{prefix}Cleo")
    dan = await Client.connect(for_dan, f"{prefix}Dan")
    table_id = await cleo.create("geister", 2, {"rated": False, "first": 0}, clock="none")
    await dan.watch(table_id)
    assert (await dan.command(table_id, "/join", version=None))["type"] == "ack"
    assert (await cleo.command(table_id, "/start", version=None))["type"] == "ack"
    await own_moves(cleo, table_id, 1, 4)  # Cleo sets up; Dan, connected, never does
    answer = await cleo.command(table_id, "/claim win", version=None)
    while answer.get("code") == "cannot_claim" and answer["args"].get("reason") == "too_soon":
        await asyncio.sleep(answer["args"]["wait"])  # the server says when
        answer = await cleo.command(table_id, "/claim win", version=None)
    assert answer["type"] == "ack", answer
    over = await dan.until_table(table_id, lambda m: m["table"]["status"] == "finished")
    assert [r["result"] for r in over["table"]["result"]["outcome"]["results"]] == ["win", "loss"]
    log = await dan.wait_for(lambda m: m.get("type") == "log" and any(line["kind"] == "claimed"
                                                                       for line in m["lines"]))
    claimed = [line for line in log["lines"] if line["kind"] == "claimed"]
    assert claimed[0]["args"]["against"] == f"{prefix}Dan" and claimed[0]["args"]["name"] == f"{prefix}Cleo"
    await cleo.close()
    await dan.close()
    return table_id


def test_hole_5_at_a_table_without_a_clock_the_other_claims_the_win_from_an_idle_player_and_a_restart_keeps_it(
        server: ServerProcess) -> None:
    table_id = asyncio.run(claimed_idle_game(server, server, "Claim"))
    assert record_of(server.db_url, table_id).outcome is not None
    server.kill()
    server.start()
    table = server.get(f"/api/tables/{table_id}")
    assert table["status"] == "finished" and table["result"]["outcome"]["reason"] == "claimed win: idle"


def test_hole_5_a_rematch_accepted_before_leaving_gives_the_absent_persons_seat_to_a_bot(
        server: ServerProcess) -> None:
    """Eve accepts a rematch at a finished table and goes; Finn's acceptance starts the game without her.
    Nothing started her grace period before (she left a finished table): the game waited on her for ever."""
    async def scenario() -> None:
        eve = await Client.connect(server, "GoneEve")
        finn = await Client.connect(server, "GoneFinn")
        table_id = await eve.create("thelast", 2, {"rated": False}, clock="none")
        await finn.watch(table_id)
        assert (await finn.command(table_id, "/join", version=None))["type"] == "ack"
        assert (await eve.command(table_id, "/start", version=None))["type"] == "ack"
        assert (await finn.command(table_id, "/resign", version=None))["type"] == "ack"
        assert (await eve.command(table_id, "/rematch", version=None))["type"] == "ack"
        await eve.close()  # gone from a finished table
        assert (await finn.command(table_id, "/rematch", version=None))["type"] == "ack"
        try:  # the grace period here is 1 s
            taken = await finn.until_table(table_id, lambda m: m["table"]["status"] != "started"
                                           or m["table"]["seats"][0]["takeover"] is not None, timeout=15)
        except TimeoutError:
            raise AssertionError("no bot took the seat of Eve, who is gone: the game waits on her for ever") from None
        assert taken["table"]["seats"][0]["takeover"] == "disconnected"
        await finn.close()

    asyncio.run(scenario())


def test_hole_8_a_rematch_does_not_start_under_settings_the_proposer_never_agreed_to(
        server: ServerProcess) -> None:
    """Bob proposes a rematch; Alice changes rated, the clock and max_plies, then accepts. Before the fix
    the game started at once with her settings."""
    async def scenario() -> None:
        alice = await Client.connect(server, "RematchAlice")
        bob = await Client.connect(server, "RematchBob")
        table_id = await alice.create("geister", 2)
        await bob.watch(table_id)
        assert (await bob.command(table_id, "/join", version=None))["type"] == "ack"
        assert (await alice.command(table_id, "/start", version=None))["type"] == "ack"
        assert (await alice.command(table_id, "/resign", version=None))["type"] == "ack"
        assert (await bob.command(table_id, "/rematch", version=None))["type"] == "ack"
        for text in ("/option rated off", "/option clock 60", "/option max_plies 2", "/rematch"):
            answer = await alice.command(table_id, text, version=None)
            assert answer["type"] == "ack", (text, answer)
        seen = int(answer["version"])  # Alice's acceptance stored: Bob's table is at least that far
        table = (await bob.until_table(table_id, lambda m: m["table"]["version"] >= seen))["table"]
        assert table["status"] == "finished", "the rematch started under settings Bob never agreed to"
        assert table["rematch"] == [0]  # Alice's acceptance is a new proposal, waiting for Bob
        log = await bob.wait_for(lambda m: m.get("type") == "log" and any(line["kind"] == "rematch_withdrawn"
                                                                           for line in m["lines"]))
        withdrawn = [line for line in log["lines"] if line["kind"] == "rematch_withdrawn"]
        assert len(withdrawn) == 1 and withdrawn[0]["args"]["names"] == ["RematchBob"]
        assert "/rematch again" in withdrawn[0]["text"]
        # Bob agrees to the new settings: now it starts with them
        assert (await bob.command(table_id, "/rematch", version=None))["type"] == "ack"
        started = (await bob.until_table(table_id, lambda m: m["table"]["status"] == "started"))["table"]
        assert started["options"]["max_plies"] == 2 and started["rated"] is False
        assert started["clock"]["mode"] == "move" and started["clock"]["seconds"] == 60
        await alice.close()
        await bob.close()

    asyncio.run(scenario())
