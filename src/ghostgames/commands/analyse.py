"""`ghostgames analyse`: judge one seat's decisions in a finished game, from that seat's knowledge only
(docs/analysis.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer

from ghostgames.analysis import DEFAULT_BUDGET, analyse
from ghostgames.analysis.report import table
from ghostgames.rules.record import GameRecord


def register(app: typer.Typer) -> None:
    @app.command("analyse")
    def analyse_command(
        record_file: Path | None = typer.Argument(None, help="a record as GameRecord.to_json writes it"),
        record: int | None = typer.Option(None, help="a stored record's id instead of a file"),
        seat: int = typer.Option(1, help="the seat whose decisions are judged, counted from 1"),
        spectator: bool = typer.Option(False, help="judge every seat from the public view only"),
        budget: int = typer.Option(DEFAULT_BUDGET, help="search iterations per decision"),
        json_out: Path | None = typer.Option(None, "--json", help="also write the analysis here as JSON"),
        db: str | None = typer.Option(None, help="database URL for --record (default: $GHOSTGAMES_DB)"),
    ) -> None:
        """Label each decision of a seat best / good / inaccuracy / mistake / blunder by how much the
        seat's expected result dropped, as a search from that seat's own knowledge estimates it."""
        game = _load(record_file, record, db)
        if not 1 <= seat <= game.players:
            raise typer.BadParameter(f"seats are 1 to {game.players}", param_hint="--seat")
        if budget < 1:
            raise typer.BadParameter("at least 1", param_hint="--budget")
        try:
            result = analyse(game, None if spectator else seat - 1, budget)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from error
        typer.echo(table(result))
        if json_out is not None:
            json_out.write_text(json.dumps(result.to_json(), indent=1))

    @app.command("analyse-worker")
    def analyse_worker(
        db: str | None = typer.Option(None, help="database URL (default: $GHOSTGAMES_DB, else ghostgames.db here)"),
        once: bool = typer.Option(False, "--once", help="run the jobs queued now, then exit"),
        max_budget: int | None = typer.Option(None, min=1, help="take only jobs of at most this many iterations "
                                                                "per decision (default: any)"),
        stale: float | None = typer.Option(None, min=1.0, help="seconds without progress after which another "
                                                               "worker's running job counts as abandoned (120)"),
        poll: float | None = typer.Option(None, min=0.05, help="seconds between looks at an empty queue (1)"),
        nice: int = typer.Option(0, min=0, max=19, help="lower this process's priority by this much"),
        parent: int | None = typer.Option(None, hidden=True, help="stop when this process ends (serve's own)"),
    ) -> None:
        """Run the analyses people ask for on the server (POST /api/records/{id}/analysis/{reader}), queued
        in the database; any number of these may run on one database. `ghostgames serve` starts one."""
        import logging
        import signal

        from ghostgames.server.analysis_worker import POLL, STALE_AFTER, AnalysisWorker, stop_on_signals
        from ghostgames.server.bots import end_with_parent
        from ghostgames.storage import DEFAULT_URL, Repository

        logging.basicConfig(level=logging.WARNING, format="analyse-worker %(levelname)s %(message)s")
        logging.getLogger("ghostgames").setLevel(logging.INFO)  # each job's line; not the migrations' chatter
        if nice:
            os.nice(nice)
        repo = Repository(db or os.environ.get("GHOSTGAMES_DB") or DEFAULT_URL)
        worker = AnalysisWorker(repo, STALE_AFTER if stale is None else stale, max_budget)
        stop_on_signals(worker)
        if parent is not None:
            end_with_parent(parent, signal.SIGTERM, worker.stop.set)
        try:
            finished = worker.run(once, POLL if poll is None else poll)
        finally:
            repo.close()
        if once:
            typer.echo(f"{finished} analyses finished")


def _load(path: Path | None, record_id: int | None, db: str | None) -> GameRecord:
    if (path is None) == (record_id is None):
        raise typer.BadParameter("give a record file or --record ID (one of them)")
    if path is not None:
        return GameRecord.from_json(json.loads(path.read_text()))
    from ghostgames.storage import DEFAULT_URL, Repository

    repo = Repository(db or os.environ.get("GHOSTGAMES_DB") or DEFAULT_URL)
    try:
        stored = repo.get_record(int(record_id or 0))
    finally:
        repo.close()
    if stored is None:
        raise typer.BadParameter(f"no record {record_id}", param_hint="--record")
    return stored.record
