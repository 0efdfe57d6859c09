"""Hole 2 of issue 31, on the real server and an SQLite file: a guest's token outlived the guest name.
Every `welcome` renewed it, so reconnecting kept it alive past the day the name was free again, and it
then spoke for the next guest of that name (their seat, their view, their resignation). A token now
names one creation of a name, lives a fixed time from signing in, and ends when its holder logs out."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.security.tokens import hello_answer, me, reconnect_until_refused, refused_because
from tests.server.harness import Client, ServerProcess

LIFETIME = 2.0  # seconds: GHOSTGAMES_TOKEN_DAYS as a fraction of a day, as test_seat_ownership does
SHORT = {"GHOSTGAMES_TOKEN_DAYS": str(LIFETIME / 86400)}
SETUP = "/setup b1 c1 d1 e1"


async def _game_against_a_bot(client: Client) -> str:
    """A Geister table where `client` sits in seat 0 against a bot, started, with a secret setup made."""
    table = await client.create("geister", 2, {"first": 0})
    for text in ("/bot add random", "/start"):
        assert (await client.command(table, text, version=None))["type"] == "ack", text
    await client.until_table(table, lambda m: m["table"]["status"] == "started")
    assert (await client.command(table, SETUP, version=None))["type"] == "ack"
    return table


def _no_seat_view(client: Client, table: str, since: int) -> None:
    """From message `since` on, `client` got only spectator views of `table`: no seat, no colours."""
    for message in client.received[since:]:
        if message.get("type") == "table" and message["table"]["id"] == table:
            assert message["seat"] is None, message
            for ghost in (message.get("view") or {}).get("ghosts", []):
                assert ghost["colour"] is None or ghost["status"] != "board", ghost


def test_review_2_a_guest_token_kept_alive_by_reconnecting_never_speaks_for_the_next_guest(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env=SHORT).start()
    try:
        async def scenario() -> None:
            keeper = await Client.connect(server, "Xeno")  # the first guest, connected all along
            assert keeper.token is not None
            status, account = server.post("/api/register", {"name": "Acco", "password": "long enough"})
            assert status == 200
            # both reconnect as a browser does, keeping the token each welcome hands back, until refused
            (guest_tokens, guest_end), (account_tokens, account_end) = await asyncio.gather(
                reconnect_until_refused([server], keeper.token), reconnect_until_refused([server], account["token"]))
            kept = guest_tokens[-1] if guest_tokens else keeper.token  # the newest token the old guest holds
            since = len(keeper.received)

            status, newcomer = server.post("/api/guest", {"name": "xeno"})  # the name is free: a new guest
            assert status == 200, newcomer
            new = await Client.connect(server, token=newcomer["token"])
            table = await _game_against_a_bot(new)

            # the old guest's token: refused on a new connection and over HTTP, saying what works
            answer = await hello_answer(server, kept)
            assert refused_because(answer) == "replaced" and "guest name" in answer["message"], answer
            assert me(server, kept)[0] == 401
            # the old connection (and a new anonymous one) can neither see the seat nor act for it
            attacker = await Client.connect(server)
            for client in (keeper, attacker):
                assert (await client.watch(table))["seat"] is None
                for text in ("/resign", "/b1 n"):
                    assert (await client.command(table, text, version=None))["type"] == "error", text
            fresh = await new.watch(table)  # the game goes on, the new guest in their seat
            assert fresh["table"]["status"] == "started" and fresh["seat"] == 0
            assert fresh["table"]["seats"][0]["name"] == "xeno"
            _no_seat_view(keeper, table, since)
            _no_seat_view(attacker, table, 0)

            # reconnecting renewed nothing: the welcome handed back the same token, which ended a fixed
            # time after signing in, for the guest and the account alike
            assert set(guest_tokens) == {keeper.token} and set(account_tokens) == {account["token"]}
            assert guest_end is not None and refused_because(guest_end) == "expired", guest_end
            assert account_end is not None and refused_because(account_end) == "expired", account_end
            assert "log in again" in guest_end["message"]
            # the connection that stayed open was told when its session ended
            ended = await keeper.wait_for(lambda m: m.get("type") == "error" and m.get("code") == "bad_token")
            assert refused_because(ended) == "expired"
            for client in (keeper, new, attacker):
                await client.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_logging_out_ends_the_token_everywhere_and_a_new_login_works(tmp_path: Path) -> None:
    # a seat is held a minute for its person after they go: long enough for them to log in again
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_GRACE": "60"}).start()
    try:
        async def scenario() -> list[str]:
            status, account = server.post("/api/register", {"name": "Lena", "password": "long enough"})
            assert status == 200
            token = account["token"]
            player = await Client.connect(server, token=token)
            assert player.token == token  # the welcome hands the same token back
            table = await _game_against_a_bot(player)
            since = len(player.received)

            status, answer = server.post("/api/logout", {}, token=token)
            assert status == 200 and answer == {"name": "Lena", "guest": False, "logged_out": True}
            # the open connection is told, and only watches from then on
            ended = await player.wait_for(lambda m: m.get("code") == "bad_token", start=since)
            assert refused_because(ended) == "logged_out"
            await player.until_table(table, lambda m: m["seat"] is None)
            assert (await player.command(table, "/resign", version=None))["type"] == "error"
            # the token is refused on new connections, over HTTP, and for a second logout
            assert refused_because(await hello_answer(server, token)) == "logged_out"
            status, body = me(server, token)
            assert status == 401 and refused_because(body) == "logged_out"
            assert server.post("/api/logout", {}, token=token)[0] == 401
            _no_seat_view(player, table, since + 1)

            # a new login works; the WebSocket `logout` ends it the same way
            status, again = server.post("/api/login", {"name": "Lena", "password": "long enough"})
            assert status == 200 and again["token"] != token
            second = await Client.connect(server, token=again["token"])
            assert (await second.watch(table))["seat"] == 0  # the seat is the account's, not the token's
            answer = await second.request({"type": "logout"})
            assert answer["type"] == "welcome" and answer["user"] is None and answer["token"] is None
            assert (await second.watch(table))["seat"] is None
            assert refused_because(await hello_answer(server, again["token"])) == "logged_out"
            not_signed_in = await second.request({"type": "logout"})
            assert not_signed_in["code"] == "auth_required"
            for client in (player, second):
                await client.close()
            return [token, again["token"]]

        logged_out = asyncio.run(scenario())
        # the logouts are stored: another server process on the same file refuses those tokens too
        server.stop()
        server.start()
        for token in logged_out:
            status, body = me(server, token)
            assert status == 401 and refused_because(body) == "logged_out"
        status, fresh = server.post("/api/login", {"name": "Lena", "password": "long enough"})
        assert status == 200 and me(server, fresh["token"]) == (200, {"name": "Lena", "guest": False})
    finally:
        server.stop()
