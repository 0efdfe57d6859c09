"""Issue 31, hole 1, with two workers on PostgreSQL and Redis: a newcomer at a finished table on the other
worker reads the spectator's view, not the view of the seat it sits down in."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.infra.services import Postgres, Redis
from tests.scaling.workers import start_workers, stop_all
from tests.security.test_finished_table_views import finished_table_scenario

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize("game", ["geister", "thelast"])
def test_a_newcomer_on_another_worker_reads_no_seat_it_did_not_play(
        tmp_path: Path, postgres: Postgres, redis_server: Redis, game: str) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server)
    try:
        options = {"first": 0, "disclose": False} if game == "geister" else {}
        asyncio.run(finished_table_scenario(game, options, first, second, "W" + game[:2]))
    finally:
        stop_all([first, second])
