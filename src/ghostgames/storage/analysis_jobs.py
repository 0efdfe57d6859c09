"""The queue of post-game analyses, kept in the database so that the web processes that take the requests
and the worker processes that run them (server/analysis_worker.py) need nothing else to meet.

A job is keyed by (record, reader, budget): asking twice finds the same job, and its result, once stored,
answers every later reader. A worker claims a job with one conditional UPDATE (still queued, or running
with a heartbeat older than `stale_before`), so two workers never both run it; SQLite takes one writer at a
time and PostgreSQL re-reads the row's condition after the first claimer's commit, so the second UPDATE
changes nothing. Progress, the result and a failure are written only while the writer still holds the claim:
a worker that was presumed dead and lost its job cannot overwrite the work of the one that took it over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from ghostgames.storage.models import AnalysisJobRow

STATUSES = ("queued", "running", "done", "failed")
SPECTATOR = "spectator"  # the reader of a spectator's analysis; a seat's reader is its number from 0
MAX_ATTEMPTS = 3  # claims whose worker died before a job counts as failed ("worker_died")
CANDIDATES = 8  # jobs looked at per claim: others may take the first ones meanwhile


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back the UTC times it was given without their zone."""
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Job:
    id: int
    record_id: int
    reader: str
    budget: int
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: dict[str, Any] | None
    worker: str | None
    attempts: int
    created_at: datetime
    heartbeat_at: datetime | None

    @property
    def seat(self) -> int | None:
        """The reader as `analyse` takes it: a seat from 0, or None for a spectator."""
        return None if self.reader == SPECTATOR else int(self.reader)


def _job(row: AnalysisJobRow) -> Job:
    created = _aware(row.created_at)
    assert created is not None
    return Job(int(row.id), int(row.record_id), row.reader, int(row.budget), row.status, int(row.done),
               int(row.total), row.result, row.error, row.worker, int(row.attempts), created,
               _aware(row.heartbeat_at))


def find(session: Session, record_id: int, reader: str, budget: int) -> Job | None:
    row = session.scalar(select(AnalysisJobRow).where(
        AnalysisJobRow.record_id == record_id, AnalysisJobRow.reader == reader, AnalysisJobRow.budget == budget))
    return None if row is None else _job(row)


def add(session: Session, record_id: int, reader: str, budget: int, now: datetime) -> Job:
    """A new queued job (the unique key refuses a second one with an IntegrityError)."""
    row = AnalysisJobRow(record_id=record_id, reader=reader, budget=budget, status="queued", done=0, total=0,
                         attempts=0, created_at=now)
    session.add(row)
    session.flush()
    return _job(row)


def waiting(session: Session) -> int:
    """Jobs queued and not yet claimed: the server refuses new ones above a bound."""
    return int(session.scalar(select(func.count()).select_from(AnalysisJobRow)
                              .where(AnalysisJobRow.status == "queued")) or 0)


def claim(session: Session, worker: str, now: datetime, stale_before: datetime,
          max_budget: int | None = None) -> Job | None:
    """The oldest job `worker` may run, now claimed by it: a queued one, or a running one whose worker has
    not written since `stale_before` (it died). A job whose workers died MAX_ATTEMPTS times is failed
    instead of claimed again: it may be what kills them."""
    takeable = or_(AnalysisJobRow.status == "queued",
                   (AnalysisJobRow.status == "running") & (AnalysisJobRow.heartbeat_at < stale_before))
    query = select(AnalysisJobRow.id, AnalysisJobRow.attempts).where(takeable).order_by(AnalysisJobRow.id)
    if max_budget is not None:
        query = query.where(AnalysisJobRow.budget <= max_budget)
    for job_id, attempts in session.execute(query.limit(CANDIDATES)).all():
        still = update(AnalysisJobRow).where(AnalysisJobRow.id == job_id, takeable)
        if attempts >= MAX_ATTEMPTS:
            session.execute(still.values(status="failed", finished_at=now, error={
                "code": "worker_died", "message": f"the analysis stopped {attempts} times without finishing"}))
            continue
        taken = session.execute(still.values(status="running", worker=worker, started_at=now, heartbeat_at=now,
                                             attempts=AnalysisJobRow.attempts + 1))
        if taken.rowcount == 1:  # type: ignore[attr-defined]
            row = session.get(AnalysisJobRow, job_id, populate_existing=True)
            assert row is not None
            return _job(row)
    return None


def _mine(job_id: int, worker: str) -> Any:
    return update(AnalysisJobRow).where(AnalysisJobRow.id == job_id, AnalysisJobRow.worker == worker,
                                        AnalysisJobRow.status == "running")


def progress(session: Session, job_id: int, worker: str, done: int, total: int, now: datetime) -> bool:
    """Write how far the job is (and that its worker lives); False when `worker` no longer holds it."""
    written = session.execute(_mine(job_id, worker).values(done=done, total=total, heartbeat_at=now))
    return bool(written.rowcount == 1)  # type: ignore[attr-defined]


def finish(session: Session, job_id: int, worker: str, now: datetime, result: dict[str, Any] | None = None,
           error: dict[str, Any] | None = None) -> bool:
    """Store the result (done) or the error (failed); False when `worker` no longer holds the job."""
    values: dict[str, Any] = {"finished_at": now, "heartbeat_at": now}
    if error is None:
        values.update(status="done", result=result, done=AnalysisJobRow.total)
    else:
        values.update(status="failed", error=error)
    written = session.execute(_mine(job_id, worker).values(**values))
    return bool(written.rowcount == 1)  # type: ignore[attr-defined]


def release(session: Session, job_id: int, worker: str) -> bool:
    """Give a job back to the queue (its worker is stopping): the next worker takes it at once, and this
    claim does not count as a death."""
    written = session.execute(_mine(job_id, worker).values(
        status="queued", worker=None, done=0, total=0, heartbeat_at=None, attempts=AnalysisJobRow.attempts - 1))
    return bool(written.rowcount == 1)  # type: ignore[attr-defined]
