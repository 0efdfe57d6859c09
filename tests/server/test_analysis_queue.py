"""The analysis queue in the database (storage/analysis_jobs.py), on a real SQLite file and on PostgreSQL:
asking twice is one job; two workers never hold one job, even claiming at the same moment from two
connections; a job whose worker stopped writing is taken over, and the worker that lost it can no longer
write; a job that kept killing its workers fails; a stopping worker gives its job back; the queue is bounded.
And the worker process itself: killed in the middle of a job, another worker process finishes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ghostgames.bench.records import random_record
from ghostgames.storage import Repository
from ghostgames.storage.analysis_jobs import MAX_ATTEMPTS, Job
from tests.infra.services import Postgres

STALE = 60.0


def stored_game(repo: Repository, seed: int = 1) -> int:
    record, outcome = random_record("geister", 2, seed)
    return repo.save_record(record, "table", ["Ana", "easy bot"], outcome.to_json(), seat_keys=["ana", "bot:easy"])


def check_claims(repo: Repository) -> None:
    record_id = stored_game(repo)
    mine = repo.ask_analysis(record_id, "0", 50)
    assert mine is not None and mine.status == "queued" and (mine.done, mine.total) == (0, 0)
    again = repo.ask_analysis(record_id, "0", 50)
    assert again is not None and again.id == mine.id  # the same (record, reader, budget): the same job
    watcher = repo.ask_analysis(record_id, "spectator", 50)
    assert watcher is not None and watcher.id != mine.id and watcher.seat is None and mine.seat == 0

    t0 = datetime.now(UTC)
    a = repo.claim_analysis("worker-a", STALE, now=t0)
    b = repo.claim_analysis("worker-b", STALE, now=t0)
    assert a is not None and b is not None and (a.id, b.id) == (mine.id, watcher.id)  # oldest first
    assert a.status == "running" and a.worker == "worker-a" and a.attempts == 1
    assert repo.claim_analysis("worker-c", STALE, now=t0 + timedelta(seconds=STALE / 2)) is None  # both alive
    assert repo.analysis_progress(a.id, "worker-a", 3, 40, now=t0 + timedelta(seconds=10))
    assert not repo.analysis_progress(a.id, "worker-b", 4, 40)  # not b's job: nothing written
    job = repo.analysis_job(record_id, "0", 50)
    assert job is not None and (job.done, job.total, job.worker) == (3, 40, "worker-a")

    # worker-b keeps writing, worker-a falls silent: once a's heartbeat is STALE old, c takes a's job, only
    later = t0 + timedelta(seconds=10 + STALE + 1)
    assert repo.analysis_progress(b.id, "worker-b", 1, 80, now=later)
    c = repo.claim_analysis("worker-c", STALE, now=later)
    assert c is not None and c.id == a.id and c.worker == "worker-c" and c.attempts == 2
    assert repo.claim_analysis("worker-d", STALE, now=later) is None
    assert not repo.analysis_progress(a.id, "worker-a", 5, 40)  # a was only slow: it lost the job anyway
    assert not repo.finish_analysis(a.id, "worker-a", result={"from": "a"})
    assert repo.finish_analysis(c.id, "worker-c", result={"from": "c"})
    done = repo.analysis_job(record_id, "0", 50)
    assert done is not None and done.status == "done" and done.result == {"from": "c"} and done.done == done.total
    assert repo.claim_analysis("worker-a", STALE, now=later + timedelta(days=1)) is not None  # b's, now stale
    assert repo.analysis_job(record_id, "0", 50) == done  # a finished job is never claimed again

    # a stopping worker gives its job back; it is claimed again at once, and that was no death
    released = repo.ask_analysis(stored_game(repo, 2), "1", 50)
    assert released is not None
    taken = repo.claim_analysis("worker-e", STALE)
    assert taken is not None and taken.id == released.id
    assert repo.release_analysis(taken.id, "worker-e")
    back = repo.claim_analysis("worker-f", STALE)
    assert back is not None and back.id == released.id and back.attempts == 1
    assert repo.finish_analysis(back.id, "worker-f", error={"code": "analysis_failed", "message": "x"})
    failed = repo.analysis_job(back.record_id, "1", 50)
    assert failed is not None and failed.status == "failed" and failed.error == {"code": "analysis_failed",
                                                                                  "message": "x"}
    repo.close()


def check_deaths_budget_and_bound(repo: Repository) -> None:
    record_id = stored_game(repo)
    deadly = repo.ask_analysis(record_id, "spectator", 50)
    assert deadly is not None
    moment = datetime.now(UTC)
    for attempt in range(1, MAX_ATTEMPTS + 1):  # each claimer dies: the job is claimed again...
        claimed = repo.claim_analysis(f"doomed-{attempt}", STALE, now=moment)
        assert claimed is not None and claimed.id == deadly.id and claimed.attempts == attempt
        moment += timedelta(seconds=STALE + 1)
    assert repo.claim_analysis("survivor", STALE, now=moment) is None  # ...until it is given up
    given_up = repo.analysis_job(record_id, "spectator", 50)
    assert given_up is not None and given_up.status == "failed" and given_up.error is not None
    assert given_up.error["code"] == "worker_died"

    costly = repo.ask_analysis(record_id, "0", 5000)
    assert costly is not None
    assert repo.claim_analysis("small", STALE, max_budget=1000) is None  # beyond this worker's bound
    cheap = repo.ask_analysis(record_id, "1", 200)
    found = repo.claim_analysis("small", STALE, max_budget=1000)
    assert cheap is not None and found is not None and found.id == cheap.id

    # at most `max_waiting` queued jobs: one more is refused, one that exists is still found
    assert repo.ask_analysis(record_id, "0", 5000, max_waiting=1) == costly
    assert repo.ask_analysis(record_id, "0", 6000, max_waiting=1) is None
    assert repo.ask_analysis(record_id, "0", 6000, max_waiting=2) is not None
    repo.close()


def check_racing_workers(url: str) -> None:
    """Two workers, each with its own connection, claim as fast as they can from the same 30 jobs."""
    setup = Repository(url)
    record_id = stored_game(setup)
    wanted = {job.id for job in (setup.ask_analysis(record_id, "0", budget) for budget in range(1, 31))
              if job is not None}
    setup.close()
    claimed: dict[str, list[int]] = {"one": [], "two": []}
    repos = {name: Repository(url) for name in claimed}  # two engines: two connections, two write turns
    start = threading.Barrier(2)

    def work(name: str) -> None:
        start.wait()
        while (job := repos[name].claim_analysis(name, STALE)) is not None:
            claimed[name].append(job.id)
        repos[name].close()

    threads = [threading.Thread(target=work, args=(name,)) for name in claimed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not set(claimed["one"]) & set(claimed["two"])  # never both
    assert sorted(claimed["one"] + claimed["two"]) == sorted(wanted)  # and every job once


def test_claims_progress_takeover_and_release_on_sqlite(tmp_path: Path) -> None:
    check_claims(Repository(str(tmp_path / "jobs.db")))


def test_deaths_budget_bound_and_queue_bound_on_sqlite(tmp_path: Path) -> None:
    check_deaths_budget_and_bound(Repository(str(tmp_path / "jobs.db")))


def test_two_racing_workers_never_claim_one_job_on_sqlite(tmp_path: Path) -> None:
    check_racing_workers(f"sqlite:///{tmp_path / 'race.db'}")


def test_claims_progress_takeover_and_release_on_postgres(postgres_db: Postgres) -> None:
    check_claims(Repository(postgres_db.fresh_database("analysis_claims")))


def test_deaths_budget_bound_and_queue_bound_on_postgres(postgres_db: Postgres) -> None:
    check_deaths_budget_and_bound(Repository(postgres_db.fresh_database("analysis_deaths")))


def test_two_racing_workers_never_claim_one_job_on_postgres(postgres_db: Postgres) -> None:
    check_racing_workers(postgres_db.fresh_database("analysis_race"))


# --- the worker process ----------------------------------------------------------------------------------
def start_worker(url: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ghostgames", "analyse-worker", "--db", url, "--poll", "0.05",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(repo: Repository, record_id: int, reader: str, budget: int, ready: Callable[[Job], bool],
             timeout: float = 120.0) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = repo.analysis_job(record_id, reader, budget)
        if job is not None and ready(job):
            return job
        time.sleep(0.02)
    raise AssertionError(f"the job did not get there: {repo.analysis_job(record_id, reader, budget)}")


def test_a_killed_worker_process_job_is_finished_by_another(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'workers.db'}"
    repo = Repository(url)
    record_id = stored_game(repo, 5)
    budget = 150
    assert repo.ask_analysis(record_id, "spectator", budget) is not None
    first = start_worker(url)
    try:
        running = wait_for(repo, record_id, "spectator", budget, lambda job: job.status == "running" and job.done >= 2)
        first.send_signal(signal.SIGKILL)  # dies mid-job: no chance to give it back
        first.wait(10)
        held = repo.analysis_job(record_id, "spectator", budget)
        assert held is not None and held.status == "running" and held.worker == running.worker
        assert held.done < held.total  # it did not get to finish
        # `--once` stops at the first empty poll: let the dead claim's heartbeat pass `--stale 1` before asking,
        # or a quick start finds the job still held and finishes nothing.
        time.sleep(1.5)
        second = start_worker(url, "--stale", "1", "--once")
        out, _ = second.communicate(timeout=300)
        assert second.returncode == 0, out
        assert "1 analyses finished" in out
    finally:
        if first.poll() is None:
            first.kill()
    done = repo.analysis_job(record_id, "spectator", budget)
    assert done is not None and done.status == "done" and done.attempts == 2
    assert done.worker != running.worker and str(first.pid) in str(running.worker)
    assert done.result is not None and len(done.result["decisions"]) == done.total == done.done
    assert {d["seat"] for d in done.result["decisions"]} == {0, 1}  # a spectator's: both seats judged
    repo.close()


def test_a_worker_asked_to_stop_gives_its_job_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stop.db'}"
    repo = Repository(url)
    record_id = stored_game(repo, 6)
    budget = 400
    assert repo.ask_analysis(record_id, "0", budget) is not None
    worker = start_worker(url)
    try:
        wait_for(repo, record_id, "0", budget, lambda job: job.status == "running" and job.done >= 1)
        os.kill(worker.pid, signal.SIGTERM)
        out, _ = worker.communicate(timeout=60)
        assert worker.returncode == 0, out
    finally:
        if worker.poll() is None:
            worker.kill()
    back = repo.analysis_job(record_id, "0", budget)
    assert back is not None and back.status == "queued" and back.worker is None and back.attempts == 0
    assert "back to the queue" in out
    repo.close()
