"""The post-game analysis over HTTP (docs/analysis.md): ask for a finished game's analysis for one reader
(the seat you sat in, or the spectator), then read its progress and, once done, the result.

The web process only reads and writes the queue (storage/analysis_jobs.py); analysis worker processes do
the searching (server/analysis_worker.py). Access is that of replays: a seat's analysis only to the person
who sat there, since it is built from that seat's knowledge; the spectator's to anyone, for the games whose
spectator analysis is sound (analysis.estimate.SPECTATOR_GAMES). A record exists only once its whole game
(every round of a match) has ended, so nothing here can show a running game's position.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse

from ghostgames.analysis.estimate import SPECTATOR_GAMES
from ghostgames.server.api import _address, _hub, _identity, error_response, record_number
from ghostgames.server.config import ServerConfig
from ghostgames.server.players_api import MAX_SEAT, check_own_seat
from ghostgames.server.ratelimit import PerAddress
from ghostgames.storage import StoredRecord
from ghostgames.storage.analysis_jobs import SPECTATOR, Job
from ghostgames.tables import TableError

router = APIRouter(prefix="/api")


class AnalysisLimits:
    """Per address: new asks (each may cost a worker tens of seconds) and status reads (a page polls)."""

    def __init__(self, config: ServerConfig) -> None:
        self.asks = PerAddress(config.analyses_per_address, 3600.0, lambda retry: TableError(
            "analyses_limited", f"too many analyses asked for from your address lately; try again in {retry} s",
            retry_after=retry))
        self.reads = PerAddress(config.analysis_reads_per_address, 60.0, lambda retry: TableError(
            "analyses_limited", f"too many analysis requests from your address in a short time; try again in "
            f"{retry} s", retry_after=retry))


def _limits(request: Request) -> AnalysisLimits:
    found: AnalysisLimits = request.app.state.analysis_limits
    return found


def reader_of(text: str) -> str:
    """A path's reader: a seat counted from 0 (0 to MAX_SEAT) as plain digits, or "spectator"."""
    if text == SPECTATOR or (text.isascii() and text.isdigit() and len(text) <= 2 and int(text) <= MAX_SEAT):
        return text if text == SPECTATOR else str(int(text))
    raise TableError("no_such_reader", f"{text[:20]!r} is no reader: give a seat counted from 0 (0 to {MAX_SEAT}) "
                     f"or '{SPECTATOR}'", reader=text[:20])


async def _allowed(request: Request, record_id: str, reader_text: str, authorization: str | None
                   ) -> tuple[StoredRecord, str]:
    """The stored game and the reader, when this request may read that reader's analysis (raises otherwise)."""
    number = record_number(record_id)
    reader = reader_of(reader_text)
    stored = await asyncio.to_thread(_hub(request).repo.get_record, number)
    if stored is None:
        raise TableError("no_such_record", f"there is no record {number}", record=number)
    if reader == SPECTATOR:
        if stored.record.game not in SPECTATOR_GAMES:
            raise TableError("no_spectator_analysis", f"a spectator's analysis of {stored.record.game} is not "
                             "available; the players may each analyse their own seat", game=stored.record.game,
                             games=sorted(SPECTATOR_GAMES))
    else:
        identity = await _identity(request, authorization)
        await check_own_seat(request, stored, int(reader), identity, "ask for the spectator's analysis instead")
    return stored, reader


def status_document(record_id: int, reader: str, budget: int, job: Job | None) -> dict[str, Any]:
    """What GET and POST answer (docs/analysis.md): the status, the progress, the analysis once done, the
    error once failed."""
    return {
        "record": str(record_id), "reader": reader if reader == SPECTATOR else int(reader), "budget": budget,
        "status": "none" if job is None else job.status,
        "progress": {"done": 0 if job is None else job.done, "total": 0 if job is None else job.total},
        "analysis": job.result if job is not None and job.status == "done" else None,
        "error": job.error if job is not None and job.status == "failed" else None,
    }


@router.get("/records/{record_id}/analysis/{reader}")
async def analysis_status(record_id: str, reader: str, request: Request,
                          authorization: str | None = Header(None)) -> Any:
    """The analysis of a finished game for `reader` (a seat counted from 0, with your token; or `spectator`):
    its status (`none` when never asked for), progress in decisions judged, and the analysis once done."""
    hub = _hub(request)
    budget = hub.config.analysis_budget
    try:
        _limits(request).reads.take(_address(request))
        stored, who = await _allowed(request, record_id, reader, authorization)
    except TableError as err:
        return error_response(err)
    job = await asyncio.to_thread(hub.repo.analysis_job, stored.id, who, budget)
    return status_document(stored.id, who, budget, job)


@router.post("/records/{record_id}/analysis/{reader}")
async def ask_analysis(record_id: str, reader: str, request: Request,
                       authorization: str | None = Header(None)) -> Any:
    """Queue the analysis of a finished game for `reader` unless it is queued or made already (asking again
    changes nothing): 202 with the status document while it waits or runs, 200 once it is done or failed."""
    hub = _hub(request)
    config = hub.config
    try:
        _limits(request).asks.take(_address(request))
        stored, who = await _allowed(request, record_id, reader, authorization)
        job = await asyncio.to_thread(hub.repo.ask_analysis, stored.id, who, config.analysis_budget,
                                      config.analysis_queue)
        if job is None:
            raise TableError("analysis_busy", f"{config.analysis_queue} analyses are waiting already; ask again in "
                             "a few minutes", waiting=config.analysis_queue, retry_after=60)
    except TableError as err:
        return error_response(err)
    document = status_document(stored.id, who, config.analysis_budget, job)
    return JSONResponse(document, status_code=202 if job.status in ("queued", "running") else 200)
