"""Analysis jobs run here, in processes of their own (`ghostgames analyse-worker`), never in a web process:
an analysis is tens of seconds of search, and the web process's event loop and its bot workers (whose moves
run against a clock) must not wait for one. `ghostgames serve` starts one such process beside itself
(`start_children`, at a lower priority, ending with the server); more may run anywhere that reaches the
database. They meet only through the queue (storage/analysis_jobs.py).

A worker claims the oldest job, judges the decisions one by one and writes its progress after each (which
is also its heartbeat), then stores the result. A worker asked to stop gives its job back to the queue; a
worker that died holds its job until the heartbeat is `stale_after` seconds old, when another claims it.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from ghostgames.analysis import analyse
from ghostgames.storage import Repository
from ghostgames.storage.analysis_jobs import Job

log = logging.getLogger(__name__)
STALE_AFTER = 120.0  # seconds without a heartbeat before a running job counts as abandoned
POLL = 1.0  # seconds between looks at an empty queue
UNREACHABLE_WAIT = 5.0  # seconds before trying again when the database could not be reached
CHILD_NICE = 10  # the workers `serve` starts yield the CPU to the web process and its bots
STOP_WAIT = 10.0  # seconds a stopping server waits for its analysis workers to give their jobs back


class Stopping(Exception):
    """The worker was asked to stop: its job goes back to the queue."""


class LostClaim(Exception):
    """Another worker took the job over (this one was presumed dead), or the database could not be reached
    to say how far it is: drop it without writing; when the claim is still ours it goes stale and is
    taken again."""


class AnalysisWorker:
    def __init__(self, repo: Repository, stale_after: float = STALE_AFTER, max_budget: int | None = None,
                 name: str | None = None) -> None:
        self.repo = repo
        self.stale_after = stale_after
        self.max_budget = max_budget
        self.name = name or f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        self.stop = threading.Event()

    def run(self, once: bool = False, poll: float = POLL) -> int:
        """Run jobs until asked to stop (or, `once`, until the queue is empty); the number finished."""
        finished = 0
        while not self.stop.is_set():
            try:
                job = self.repo.claim_analysis(self.name, self.stale_after, self.max_budget)
                if job is not None:
                    finished += self.run_job(job)
                    continue
            except Exception:  # the database is away (a restart, the network): look again later
                log.exception("the analysis queue could not be read or written")
                self.stop.wait(UNREACHABLE_WAIT)
                continue
            if once:
                break
            self.stop.wait(poll)
        return finished

    def run_job(self, job: Job) -> bool:
        """Run a job this worker has claimed; whether it ended here (done or failed)."""
        started = time.monotonic()
        stored = self.repo.get_record(job.record_id)
        if stored is None:
            return self.repo.finish_analysis(job.id, self.name, error={
                "code": "no_such_record", "message": f"there is no record {job.record_id}"})

        def report(done: int, total: int) -> None:
            if self.stop.is_set():
                raise Stopping
            try:
                written = self.repo.analysis_progress(job.id, self.name, done, total)
            except Exception as err:
                raise LostClaim(f"progress not written: {err}") from err
            if not written:
                raise LostClaim("taken over by another worker")

        try:
            analysis = analyse(stored.record, job.seat, job.budget, progress=report)
        except Stopping:
            self.repo.release_analysis(job.id, self.name)
            log.info("gave analysis job %d back to the queue", job.id)
            return False
        except LostClaim as lost:
            log.warning("analysis job %d dropped: %s", job.id, lost)
            return False
        except Exception as err:  # a bad record, a bug: the job fails with the reason, the worker goes on
            log.exception("analysis job %d failed", job.id)
            return self.repo.finish_analysis(job.id, self.name, error={
                "code": "analysis_failed", "message": f"the analysis stopped: {type(err).__name__}: {err}"[:300]})
        result: dict[str, Any] = {**analysis.to_json(), "plies": len(stored.record.actions)}
        ended = self.repo.finish_analysis(job.id, self.name, result=result)
        log.info("analysed record %d for %s at %d iterations: %d decisions in %.1f s", job.record_id, job.reader,
                 job.budget, len(analysis.decisions), time.monotonic() - started)
        return ended


def stop_on_signals(worker: AnalysisWorker) -> None:
    """SIGTERM and SIGINT ask the worker to stop after giving its job back (within one decision)."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: worker.stop.set())


def start_children(db_url: str, count: int, stale_after: float) -> list[subprocess.Popen[bytes]]:
    """`count` analysis worker processes on `db_url`, niced, that end with this process. The URL goes by
    the environment: a command line (and the password in it) is visible to every local user."""
    command = [sys.executable, "-m", "ghostgames", "analyse-worker", "--stale", str(stale_after),
               "--parent", str(os.getpid())]
    nice = shutil.which("nice")  # niced from the start, so that even its imports yield to the server's work
    command = [nice, "-n", str(CHILD_NICE), *command] if nice else [*command, "--nice", str(CHILD_NICE)]
    env = {**os.environ, "GHOSTGAMES_DB": db_url}
    return [subprocess.Popen(command, env=env) for _ in range(max(0, count))]


def stop_children(children: list[subprocess.Popen[bytes]]) -> None:
    """Ask each to stop (they give their jobs back), then wait; kill what is still there."""
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + STOP_WAIT
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(5)
