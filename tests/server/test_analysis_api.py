"""The post-game analysis over HTTP against the real server and the analysis worker process it starts:
a person plays Geister against a bot, asks for their seat's analysis, watches its progress and gets the
result, which the next ask returns at once; nobody else may ask for that seat; anyone may ask for the
spectator's (in the games that have one); the server's worker is niced and ends with the server."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ghostgames.analysis.estimate import SPECTATOR_GAMES
from ghostgames.bench.records import random_record
from ghostgames.storage import Repository, save_record
from tests.ratings.test_players_api import play_against_bot
from tests.server.harness import ServerProcess
from tests.server.players import record_of

BUDGET = 200  # small, so a game is analysed in seconds; large enough that progress can be seen on the way
WITH_WORKER = {"GHOSTGAMES_ANALYSIS_WORKERS": "1", "GHOSTGAMES_ANALYSIS_BUDGET": str(BUDGET)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("analysis"), env=WITH_WORKER).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> dict[str, Any]:
    """A Geister game Ana (a guest) played against the easy bot: its record id, her seat and token."""
    status, ana = server.post("/api/guest", {"name": "Ana"})
    assert status == 200
    table_id = asyncio.run(play_against_bot(server, ana["token"], None, "geister", seed=3))
    stored = record_of(server.db_url, table_id)
    assert stored.seat_keys is not None
    return {"id": stored.id, "seat": stored.seat_keys.index("ana"), "token": ana["token"],
            "actions": stored.record.actions}


def guest(server: ServerProcess, name: str) -> str:
    status, answer = server.post("/api/guest", {"name": name})
    assert status == 200
    return str(answer["token"])


def poll_until_done(server: ServerProcess, path: str, token: str | None = None,
                    timeout: float = 300.0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """GET `path` until the analysis is done (every status document seen on the way)."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, document = server.fetch(path, token)
        assert status == 200, document
        seen.append(document)
        assert document["status"] in ("queued", "running", "done"), document
        if document["status"] == "done":
            return document, seen
        time.sleep(0.02)
    raise AssertionError(f"not done in {timeout} s: {seen[-1]}")


def test_only_the_seats_player_may_ask_for_its_analysis_and_anyone_for_the_spectators(
        server: ServerProcess, game: dict[str, Any]) -> None:
    record_id, seat, token = game["id"], game["seat"], game["token"]
    mine = f"/api/records/{record_id}/analysis/{seat}"
    status, answer = server.fetch(mine)
    assert status == 401 and answer["code"] == "auth_required"
    nosy = guest(server, "Nosy")
    for path in (mine, f"/api/records/{record_id}/analysis/{1 - seat}"):
        status, answer = server.fetch(path, nosy)
        assert status == 403 and answer["code"] == "not_seated"
        status, answer = server.post(path, {}, nosy)
        assert status == 403 and answer["code"] == "not_seated"
    status, answer = server.post(f"/api/records/{record_id}/analysis/{1 - seat}", {}, token)  # the bot's seat
    assert status == 403 and answer["code"] == "not_seated"

    status, never = server.fetch(mine, token)
    assert status == 200 and never == {"record": str(record_id), "reader": seat, "budget": BUDGET, "status": "none",
                                       "progress": {"done": 0, "total": 0}, "analysis": None, "error": None}
    status, watcher = server.fetch(f"/api/records/{record_id}/analysis/spectator")  # no token needed
    assert status == 200 and watcher["reader"] == "spectator" and watcher["status"] == "none"

    for reader in ("x", "16", "-1", "0x1", "%EF%BC%91", "spectators"):  # %EF%BC%91: a full-width 1
        status, answer = server.fetch(f"/api/records/{record_id}/analysis/{reader}", token)
        assert status == 404 and answer["code"] == "no_such_reader", reader
    for record in ("abc", "0", "99999999", "9223372036854775808"):
        status, answer = server.fetch(f"/api/records/{record}/analysis/spectator")
        assert status == 404 and answer["code"] == "no_such_record", record

    # The Last: its seat's analysis to its player; the spectator's to anyone, if its game is among those whose
    # spectator analysis is sound (the server reads the library's set), else refused with the games that are
    record, outcome = random_record("thelast", 2, 4)
    repo = Repository(server.db_url)
    card_game = repo.save_record(record, "table", ["Ana", "easy bot"], outcome.to_json(), seat_keys=["ana", "bot:easy"])
    repo.close()
    status, answer = server.fetch(f"/api/records/{card_game}/analysis/spectator")
    if "thelast" in SPECTATOR_GAMES:
        assert status == 200 and answer["status"] == "none"
    else:
        assert status == 409 and answer["code"] == "no_spectator_analysis"
        assert answer["args"]["games"] == sorted(SPECTATOR_GAMES)
    status, answer = server.fetch(f"/api/records/{card_game}/analysis/0", token)
    assert status == 200 and answer["status"] == "none"


def test_a_seats_analysis_shows_progress_and_is_kept_for_the_next_reader(
        server: ServerProcess, game: dict[str, Any]) -> None:
    record_id, seat, token, actions = game["id"], game["seat"], game["token"], game["actions"]
    path = f"/api/records/{record_id}/analysis/{seat}"
    status, asked = server.post(path, {}, token)
    assert status == 202 and asked["status"] in ("queued", "running") and asked["analysis"] is None
    done, seen = poll_until_done(server, path, token)
    running = [d["progress"] for d in seen if d["status"] == "running"]
    assert any(0 < p["done"] < p["total"] for p in running), seen  # "move 12 of 40" was there to see
    assert [p["done"] for p in running] == sorted(p["done"] for p in running)  # it only goes forward

    analysis = done["analysis"]
    assert done["progress"]["done"] == done["progress"]["total"] == len(analysis["decisions"]) > 0
    assert analysis["game"] == "geister" and analysis["seat"] == seat and analysis["budget"] == BUDGET
    assert analysis["plies"] == len(actions)
    for decision in analysis["decisions"]:
        assert decision["seat"] == seat and actions[decision["ply"]] == (seat, decision["played"])
    assert set(analysis["accuracy"]) == {str(seat)}

    # asked again (another tab, later): the stored result at once, no new job
    status, again = server.post(path, {}, token)
    assert status == 200 and again == done
    assert server.fetch(path, token) == (200, done)


def test_the_spectators_analysis_asked_by_one_is_read_by_another_at_once(
        server: ServerProcess, game: dict[str, Any]) -> None:
    path = f"/api/records/{game['id']}/analysis/spectator"
    status, asked = server.post(path, {}, guest(server, "Watcher"))
    assert status == 202 and asked["reader"] == "spectator"
    done, _ = poll_until_done(server, path)
    assert {d["seat"] for d in done["analysis"]["decisions"]} == {0, 1}  # every seat judged, from public view
    assert done["analysis"]["seat"] is None and done["reader"] == "spectator"
    status, other = server.fetch(path)  # somebody else, no token
    assert status == 200 and other == done
    status, other = server.post(path, {})
    assert status == 200 and other == done


def test_asks_are_limited_per_address_and_the_servers_worker_is_niced_and_ends_with_it(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, env={**WITH_WORKER, "GHOSTGAMES_ANALYSES_PER_ADDRESS": "3"}).start()
    try:
        record, outcome = random_record("geister", 2, 8)
        record_id = save_record(server.db_url, record, "competition", ["a", "b"], outcome.to_json())
        path = f"/api/records/{record_id}/analysis/spectator"
        answers = [server.post(path, {}) for _ in range(4)]
        assert answers[0][0] == 202 and all(status in (200, 202) for status, _ in answers[1:3])
        status, refused = answers[3]
        assert status == 429 and refused["code"] == "analyses_limited" and refused["args"]["retry_after"] >= 1
        poll_until_done(server, path)
        repo = Repository(server.db_url, run_migrations=False)
        job = repo.analysis_job(record_id, "spectator", BUDGET)
        repo.close()
        assert job is not None and job.worker is not None
        pid = int(job.worker.rsplit(":", 2)[1])  # host:pid:tag
        assert os.path.exists(f"/proc/{pid}")
        # it runs at a lower priority than the server (which has ours)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    finally:
        server.stop()
    deadline = time.monotonic() + 20
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{pid}")
