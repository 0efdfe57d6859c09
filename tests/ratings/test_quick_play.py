"""Quick play: the queue pairs people of close rating at once and widens its window as they wait; over
the real server two people meet at a new started table, and a person may take a bot of their strength."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from ghostgames.storage import Repository
from ghostgames.storage.models import QuickQueueRow, RatingRow
from tests.infra.services import Postgres
from tests.ratings.test_players_api import get
from tests.server.harness import Client, ServerProcess


def check_pairing(repo: Repository) -> None:
    with repo.sessions.begin() as session:  # a strong player: shown rating 1000 + 40 * (40 - 3 * 2) = 2360
        session.add(RatingRow(game="geister", player="star", name="Star", mu=40.0, sigma=2.0, ordinal=34.0,
                              games=50, wins=45, last_record=0))
    repo.quick_join("geister", "star", "Star")
    repo.quick_join("geister", "newbie", "Newbie")
    assert repo.quick_claim("newbie") is None  # 1360 points apart: not yet
    repo.quick_join("ghooost", "other", "Other")
    repo.quick_join("geister", "fresh", "Fresh")
    claimed = repo.quick_claim("fresh")
    assert claimed is not None and claimed[2].player == "newbie"  # both newcomers: paired at once
    repo.quick_settle(claimed[0], "t-1")
    assert repo.quick_look("newbie").table_id == "t-1"  # type: ignore[union-attr]
    assert repo.quick_claim("star") is None  # nobody free in geister now
    repo.quick_join("geister", "late", "Late")
    with repo.sessions.begin() as session:  # Late has waited a minute: the window is wide now
        session.execute(update(QuickQueueRow).where(QuickQueueRow.player == "late")
                        .values(since=datetime.now(UTC) - timedelta(seconds=70)))
    claimed = repo.quick_claim("star")
    assert claimed is not None and claimed[2].player == "late"
    assert repo.quick_claim("other") is None  # the only one waiting for Ghooost!
    repo.close()


def test_close_ratings_pair_at_once_far_ones_only_after_waiting(tmp_path: Path) -> None:
    check_pairing(Repository(str(tmp_path / "q.db")))


def test_the_queue_pairs_the_same_way_on_postgres(postgres: Postgres) -> None:
    check_pairing(Repository(postgres.fresh_database("quick_queue")))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("quick")).start()
    yield process
    process.stop()


def delete(server: ServerProcess, path: str, token: str) -> int:
    import urllib.request

    request = urllib.request.Request(server.http_url + path, method="DELETE",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return int(answer.status)


def test_two_people_meet_at_a_started_table_and_a_third_takes_a_bot(server: ServerProcess) -> None:
    tokens = {name: server.post("/api/guest", {"name": name})[1]["token"] for name in ("Quinn", "Ruth", "Sam")}
    status, first = server.post("/api/quick/geister", {}, tokens["Quinn"])
    assert status == 200 and first["status"] == "waiting" and first["rating"] == 1000
    status, second = server.post("/api/quick/geister", {}, tokens["Ruth"])
    assert second["status"] == "seated"
    assert get(server, "/api/quick", tokens["Quinn"])[1] == second
    table = server.get(f"/api/tables/{second['table']}")
    assert table["status"] == "started" and [s["name"] for s in table["seats"]] == ["Quinn", "Ruth"]

    async def both_play() -> None:  # each sees their own seat at the table the queue made
        for name, seat in (("Quinn", 0), ("Ruth", 1)):
            client = await Client.connect(server, token=tokens[name])
            message = await client.watch(second["table"])
            assert message["seat"] == seat and message["view"]["seat"] == seat
            await client.close()

    asyncio.run(both_play())

    assert server.post("/api/quick/chess", {}, tokens["Sam"])[0] == 400
    assert server.post("/api/quick/thelast", {}, tokens["Sam"])[1]["status"] == "waiting"
    status, bot = server.post("/api/quick/thelast/bot", {}, tokens["Sam"])
    assert status == 200 and bot["status"] == "seated" and bot["bot"] in ("easy", "medium", "hard")
    table = server.get(f"/api/tables/{bot['table']}")
    assert table["status"] == "started" and [s["kind"] for s in table["seats"]] == ["human", "bot"]
    assert get(server, "/api/quick", tokens["Sam"])[1] == {"status": "idle"}
    assert delete(server, "/api/quick", tokens["Quinn"]) == 200
    assert get(server, "/api/quick", tokens["Quinn"])[1] == {"status": "idle"}
    assert get(server, "/api/quick")[0] == 401


def test_a_person_paired_who_never_comes_is_played_by_a_bot_after_the_grace_period(server: ServerProcess) -> None:
    tokens = {name: server.post("/api/guest", {"name": name})[1]["token"] for name in ("Tess", "Uma")}
    server.post("/api/quick/thelast", {}, tokens["Tess"])
    seated = server.post("/api/quick/thelast", {}, tokens["Uma"])[1]
    assert seated["status"] == "seated"

    async def only_uma_comes() -> None:
        client = await Client.connect(server, token=tokens["Uma"])
        await client.watch(seated["table"])
        # the harness's grace period is 1 s: then a bot plays Tess's seat; Uma's stays hers
        message = await client.until_table(seated["table"], lambda m: m["table"]["seats"][0]["takeover"] is not None)
        assert message["table"]["seats"][0]["takeover"] == "disconnected"
        assert message["table"]["seats"][1]["takeover"] is None
        await client.close()

    asyncio.run(only_uma_comes())
