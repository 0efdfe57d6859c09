"""Issue 14, point 2: new tables come at a bounded pace (per person and per address, over HTTP and the
WebSocket alike), a person owns a bounded number of tables, and tables nobody sits at or watches close
by a sweep, through an event in their log, so a restart does not bring them back."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ghostgames.storage import Repository
from tests.server.harness import Client, ServerProcess

TRY_AGAIN = re.compile(r"try again in (\d+) s")


def guest_token(server: ServerProcess, name: str) -> str:
    status, answer = server.post("/api/guest", {"name": name})
    assert status == 200, answer
    return str(answer["token"])


def post_table(server: ServerProcess, token: str, game: str = "thelast", seats: int = 2
               ) -> tuple[int, dict[str, Any], dict[str, str]]:
    """POST /api/tables; the status, the JSON body and the headers."""
    request = urllib.request.Request(server.http_url + "/api/tables", method="POST",
                                     data=json.dumps({"game": game, "seats": seats}).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


def assert_says_when(body: dict[str, Any], headers: dict[str, str] | None = None) -> int:
    """A creation refused for its pace: the code, `retry_after` in whole seconds, and a sentence saying it."""
    assert body["code"] == "create_limited", body
    retry = body["args"]["retry_after"]
    assert isinstance(retry, int) and retry >= 1
    said = TRY_AGAIN.search(body["message"])
    assert said is not None and int(said.group(1)) == retry, body["message"]
    if headers is not None:
        assert {k.lower(): v for k, v in headers.items()}.get("retry-after") == str(retry)
    return retry


def test_review_2_table_creation_is_rate_limited_per_person(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_CREATE_PER_PERSON": "3"}).start()
    try:
        token = guest_token(server, "Flooder")
        answers = [post_table(server, token) for _ in range(3)]
        assert [status for status, _, _ in answers] == [200, 200, 200]
        status, body, headers = post_table(server, token)
        assert status == 429
        assert_says_when(body, headers)
        assert body["args"]["per"] == "person"
        assert len(server.get("/api/tables")) == 3  # the refused one was not made

        async def over_the_websocket() -> None:
            async with await Client.connect(server, token=token) as same_person:
                refused = await same_person.request({"type": "create", "game": "geister", "seats": 2})
                assert refused["type"] == "error"
                assert_says_when(refused)
            async with await Client.connect(server, "Patient") as other:  # someone else is not held up
                assert (await other.request({"type": "create", "game": "geister", "seats": 2}))["type"] == "ack"

        asyncio.run(over_the_websocket())
        assert len(server.get("/api/tables")) == 4
    finally:
        server.stop()


def test_review_2_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_CREATE_PER_ADDRESS": "4"}).start()
    try:
        made = []
        for name in ("First", "Second"):  # two names from one address share its allowance
            token = guest_token(server, name)
            made += [post_table(server, token)[0] for _ in range(2)]
        assert made == [200, 200, 200, 200]
        status, body, headers = post_table(server, guest_token(server, "Third"))
        assert status == 429
        assert_says_when(body, headers)
        assert body["args"]["per"] == "address"

        async def over_the_websocket() -> None:
            async with await Client.connect(server, "Fourth") as fourth:
                refused = await fourth.request({"type": "create", "game": "geister", "seats": 2})
                assert refused["type"] == "error" and refused["args"]["per"] == "address"
                assert_says_when(refused)

        asyncio.run(over_the_websocket())
    finally:
        server.stop()


def test_review_2_a_person_owns_a_bounded_number_of_open_tables(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={"GHOSTGAMES_MAX_OPEN_TABLES": "2"}).start()
    try:
        token = guest_token(server, "Hoarder")
        made = [post_table(server, token) for _ in range(2)]
        assert [status for status, _, _ in made] == [200, 200]
        status, body, _ = post_table(server, token)
        assert status == 409 and body["code"] == "too_many_tables"
        assert body["args"]["open"] == 2 and body["args"]["limit"] == 2
        assert "2 open tables" in body["message"]

        async def play_one_out() -> None:  # a finished game no longer counts
            async with await Client.connect(server, token=token) as hoarder:
                table_id = made[0][1]["id"]
                await hoarder.watch(table_id)
                for text in ("/join", "/bot add random", "/start", "/resign"):
                    assert (await hoarder.command(table_id, text, version=None))["type"] == "ack", text
                await hoarder.until_table(table_id, lambda m: m["table"]["status"] == "finished")

        asyncio.run(play_one_out())
        assert post_table(server, token)[0] == 200
    finally:
        server.stop()


def wait_until(check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.1)


def test_review_2_empty_tables_are_swept_even_after_a_restart(tmp_path: Path) -> None:
    sweep = {"GHOSTGAMES_SWEEP_EVERY": "0.2"}
    server = ServerProcess(tmp_path, env={**sweep, "GHOSTGAMES_IDLE_CLOSE": "3600"}).start()
    token = guest_token(server, "Leaver")
    empty = [post_table(server, token)[1]["id"] for _ in range(3)]
    watched = post_table(server, token)[1]["id"]

    async def seated_then_gone() -> str:
        async with await Client.connect(server, "Sitter") as sitter:
            return await sitter.create("geister", 2)  # seated; the connection then ends

    seated = asyncio.run(seated_then_gone())
    assert {t["id"] for t in server.get("/api/tables")} == {*empty, watched, seated}
    server.kill()  # tables made before a crash come back from the log...

    server.env.update(GHOSTGAMES_IDLE_CLOSE="3")
    server.start()
    assert {t["id"] for t in server.get("/api/tables")} == {*empty, watched, seated}

    async def watch_while_others_are_swept() -> None:
        async with await Client.connect(server) as spectator:
            assert (await spectator.watch(watched))["type"] == "table"
            # ...and the sweep closes them: the seated person's grace period frees the seat first
            await asyncio.to_thread(wait_until, lambda: {t["id"] for t in server.get("/api/tables")} == {watched})
        # the spectator leaves a table nobody sits at: it closes too
        await asyncio.to_thread(wait_until, lambda: server.get("/api/tables") == [])

    asyncio.run(watch_while_others_are_swept())
    repo = Repository(server.db_url)
    try:
        for table_id in [*empty, watched, seated]:
            events = repo.events(table_id)
            assert events[-1]["kind"] == "closed", events[-1]
            assert repo.table_status(table_id) == "closed"
    finally:
        repo.close()

    server.kill()
    server.start()  # closed stays closed
    try:
        assert server.get("/api/tables") == []

        async def gone() -> None:
            async with await Client.connect(server) as late:
                answer = await late.watch(empty[0])
                assert answer["type"] == "error" and answer["code"] == "no_such_table"

        asyncio.run(gone())
    finally:
        server.stop()
