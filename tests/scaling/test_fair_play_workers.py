"""Hole 3 of issue 31 on PostgreSQL + Redis with two workers: the farmer on one worker, the feeder on the
other, 40 instant resignations; no rating moves, every game is listed as aborted for ratings on both
workers, and a rebuild from the shared database equals the live ratings."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from tests.infra.services import Postgres, Redis
from tests.ratings.test_fair_play_server import check_farming_moved_nothing, instant_resignations, register
from tests.scaling.workers import start_workers, stop_all

pytestmark = pytest.mark.timeout(300)


def test_instant_resignations_across_two_workers_move_no_rating(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server)
    try:
        farmer, feeder = register(first, "Farmer"), register(second, "Feeder")
        asyncio.run(instant_resignations(first, second, farmer, feeder, 40))
        for worker in (first, second):
            check_farming_moved_nothing(worker, 40)
        done = subprocess.run([sys.executable, "-m", "ghostgames", "ratings", "rebuild", "--db", first.db_url],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "folded 0 of 40 rated records" in done.stdout and "identical to the live ratings" in done.stdout
    finally:
        stop_all([first, second])
