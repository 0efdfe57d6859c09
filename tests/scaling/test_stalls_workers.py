"""Issue 31, hole 5 on PostgreSQL + Redis with two workers: the stalling loser on one worker, the other
player on the other; the rated game still ends on its clock and counts, and a claim at a table without a
clock works across workers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.infra.services import Postgres, Redis
from tests.ratings.test_players_api import get
from tests.scaling.workers import start_workers, stop_all
from tests.server.players import record_of
from tests.server.test_stalls import STALL_ENV, account, claimed_idle_game, stalled_rated_game

pytestmark = pytest.mark.timeout(300)


def test_hole_5_on_two_workers_a_stalling_loser_cannot_keep_a_rated_game_from_ending_nor_an_idle_one(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server, env=STALL_ENV)
    try:
        ann, ben = account(first, "WStallAnn"), account(second, "WStallBen")
        table_id = asyncio.run(stalled_rated_game(first, second, ann, ben))
        stored = record_of(first.db_url, table_id)
        assert stored.rated and stored.outcome is not None
        for worker, name in ((second, "wstallann"), (first, "wstallben")):
            status, profile = get(worker, f"/api/players/{name}")
            assert status == 200 and profile["ratings"][0]["games"] == 1, profile
        claimed = asyncio.run(claimed_idle_game(first, second, "W"))
        assert second.get(f"/api/tables/{claimed}")["status"] == "finished"
    finally:
        stop_all([first, second])
