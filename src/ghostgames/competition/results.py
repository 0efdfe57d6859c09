"""Keeping and showing finished competition games: a JSON line per game and a Rich table."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.table import Table

from ghostgames.competition.server import GameResult

SOURCE = "competition"


def result_line(result: GameResult) -> dict[str, Any]:
    """What the records file keeps per game: the replayable record plus how it really ended.

    A game can end outside the rules engine (an illegal move, time, a disconnect), so the end is kept
    beside the record. The record holds both setups: the file is for the server's operator.
    """
    return {
        "source": SOURCE,
        "game_number": result.number,
        "players": list(result.players),
        "winner": result.winner,
        "reason": result.reason,
        "outcome": result.outcome().to_json(),
        "plies": result.plies,
        "record": result.record.to_json(),
    }


def append_jsonl(path: Path, result: GameResult) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(result_line(result)) + "\n")


def save_to_database(db_url: str, result: GameResult) -> int:
    """Store the game where the table server lists records for replay in the browser; returns its id."""
    from ghostgames.storage import save_record

    names = [f"first {result.players[0]}", f"second {result.players[1]}"]
    return save_record(db_url, result.record, SOURCE, names, result.outcome().to_json())


def outcome_words(result: GameResult) -> str:
    if result.winner is None:
        return "draw"
    return "first won" if result.winner == 0 else "second won"


def results_table(results: Iterable[GameResult], title: str = "Geister competition games") -> Table:
    table = Table(title=title)
    for column in ("game", "first (port P)", "second (port P+1)", "result", "reason", "plies"):
        table.add_column(column, justify="right" if column in ("game", "plies") else "left")
    wins = [0, 0]
    draws = 0
    count = 0
    for r in results:
        count += 1
        if r.winner is None:
            draws += 1
        else:
            wins[r.winner] += 1
        table.add_row(str(r.number), r.players[0], r.players[1], outcome_words(r), r.reason, str(r.plies))
    if count:
        table.caption = f"{count} games: first won {wins[0]}, second won {wins[1]}, draws {draws}"
    return table
