"""Replays are cheap on PostgreSQL + Redis with two workers too (issue 31, hole 6): the long Ghooost!
record comes in bounded pages from either worker, byte for byte the same, rebuilding every view, and each
worker limits replay requests per address."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from ghostgames.storage import save_record
from tests.infra.services import Postgres, Redis
from tests.scaling.workers import start_workers, stop_all
from tests.server.test_replays import check_bounded_and_exact, long_record

pytestmark = pytest.mark.timeout(600)
LIMIT = 12  # replay requests per address and worker: a burst of 12, then 12 a minute


def test_review_6_long_replays_are_paged_and_limited_on_two_workers(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    first, second = start_workers(tmp_path, postgres, redis_server,
                                  env={"GHOSTGAMES_REPLAYS_PER_ADDRESS": str(LIMIT)})
    try:
        record = long_record()
        record_id = save_record(first.db_url, record, "table", ["bot A", "bot B"])
        path = f"/api/records/{record_id}/replay"
        with httpx.Client(base_url=first.http_url, timeout=120) as one, \
                httpx.Client(base_url=second.http_url, timeout=120) as other:
            answers = []
            start: int | None = 0
            while start is not None:  # the pages taken from the two workers in turn
                worker = one if len(answers) % 2 == 0 else other
                answers.append(worker.get(path, params={"from": start}))
                assert answers[-1].status_code == 200, answers[-1].text
                start = answers[-1].json()["next"]
            check_bounded_and_exact(answers, record, None)
            for index, answer in enumerate(answers):  # the other worker builds the same bytes
                worker = other if index % 2 == 0 else one
                assert worker.get(path, params={"from": answer.json()["from"]}).content == answer.content
            used = len(answers)  # on each worker, counting both rounds
            served = 0
            refused = one.get(path)
            while refused.status_code == 200 and served < 3 * LIMIT:  # a token comes back every 5 s
                served += 1
                refused = one.get(path)
            assert refused.status_code == 429 and LIMIT - used <= served < 3 * LIMIT
            assert refused.json()["code"] == "replays_limited" and int(refused.headers["Retry-After"]) >= 1
    finally:
        stop_all([first, second])
    for worker in (first, second):
        assert "Traceback" not in worker.log()
