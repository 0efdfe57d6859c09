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
