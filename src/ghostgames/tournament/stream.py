"""A tournament's results file: JSON lines, the run's spec first, then one game per line written as the
game ends, so that a run cut short (a killed node, a shared machine, a deadline) keeps every finished game
and `--resume FILE` plays only the others. The format is benchmarks/stream_tournament.py's, which
benchmarks/how_games_end.py reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from ghostgames.tournament.runner import GameResult, TournamentSpec


def same_run(first: dict[str, Any], spec: TournamentSpec) -> bool:
    """Whether a file's first line names this run; the number of games may differ (game i does not
    depend on it), so a run may be continued with more games."""
    def run(line: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in line.get("spec", {}).items() if k != "games"}

    return run(first) == run(json.loads(json.dumps({"spec": spec.to_json()})))


def read_results(path: Path, spec: TournamentSpec) -> list[GameResult]:
    """The finished games in `path`, each game number once (the first line that holds it); a line cut off
    mid-write by an interruption is left out (that game is played again). ValueError if the file belongs to
    another run."""
    games: dict[int, GameResult] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == 0:
                raise ValueError(f"{path} does not start with a tournament's spec") from None
            continue
        if number == 0:
            if not same_run(row, spec):
                raise ValueError(f"{path} holds games of another run ({json.dumps(row.get('spec'))}); give the "
                                 "same game, bots, players, seed and options to resume it")
            continue
        games.setdefault(int(row["index"]), GameResult.from_json(row))
    return [games[index] for index in sorted(games)]


class ResultsFile:
    """Appends each game to the file as it ends (flushed at once); writes the spec first if it is new."""

    def __init__(self, path: Path, spec: TournamentSpec) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh and not path.read_bytes().endswith(b"\n"):
            with path.open("a", encoding="utf-8") as out:
                out.write("\n")  # end the line an interruption cut short, so the next game starts its own
        self._file: IO[str] = path.open("a", encoding="utf-8")
        if fresh:
            self._write({"spec": spec.to_json()})

    def _write(self, row: dict[str, Any]) -> None:
        self._file.write(json.dumps(row) + "\n")
        self._file.flush()

    def add(self, game: GameResult) -> None:
        self._write(game.to_json())

    def close(self) -> None:
        self._file.close()
