"""A tournament's results file and `--resume` on the local backend: games are appended as they end, a run
cut short is continued without playing its finished games again, a line cut mid-write is played again, and
a file of another run is refused. Also what `--backend ray` says when Ray is not installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ghostgames.cli import app
from ghostgames.tournament import TournamentSpec, run_tournament
from ghostgames.tournament.stream import ResultsFile, read_results

ROOT = Path(__file__).resolve().parents[2]
SPEC = TournamentSpec("thelast", ("random", "rules"), 6, 2, None, 9)


def test_a_run_cut_short_is_resumed_without_playing_its_games_again(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    stream = ResultsFile(path, SPEC)
    first = run_tournament(TournamentSpec("thelast", ("random", "rules"), 3, 2, None, 9), on_result=stream.add)
    stream.close()
    with path.open("a") as out:
        out.write('{"index": 4, "seed": 1')  # a write the interruption cut short
    held = read_results(path, SPEC)
    assert [g.index for g in held] == [0, 1, 2]
    played: list[int] = []
    stream = ResultsFile(path, SPEC)
    resumed = run_tournament(SPEC, on_result=lambda g: (played.append(g.index), stream.add(g)), finished=held)
    stream.close()
    assert sorted(played) == [3, 4, 5]
    whole = run_tournament(SPEC)
    assert [g.to_json() | {"think_seconds": 0} for g in resumed] == [g.to_json() | {"think_seconds": 0}
                                                                     for g in whole]
    assert resumed[:3] == [type(g).from_json(g.to_json()) for g in first]
    assert [g.index for g in read_results(path, SPEC)] == list(range(6))


def test_the_command_resumes_its_file_and_refuses_another_runs(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    base = ["tournament", "--game", "thelast", "--bots", "random,rules", "--seed", "9"]
    assert CliRunner().invoke(app, [*base, "--games", "2", "--results", str(path)]).exit_code == 0
    result = CliRunner().invoke(app, [*base, "--games", "5", "--resume", str(path), "--json", str(tmp_path / "a.json")])
    assert result.exit_code == 0, result.output
    assert "2 games already played" in result.output
    assert [json.loads(line).get("index") for line in path.read_text().splitlines()] == [None, 0, 1, 2, 3, 4]
    assert len(json.loads((tmp_path / "a.json").read_text())["games"]) == 5
    other = CliRunner().invoke(app, ["tournament", "--game", "thelast", "--bots", "rules,random", "--games", "5",
                                     "--resume", str(path)])
    assert other.exit_code == 2 and "another run" in other.output


def test_without_ray_the_local_backend_works_and_the_ray_backend_says_how_to_install_it(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['ray'] = None\n"  # as if Ray were not installed
            "from ghostgames.cli import main; sys.argv = ['ghostgames', *sys.argv[1:]]; main()")
    args = ["tournament", "--game", "thelast", "--bots", "random,rules", "--games", "2"]
    env = {"PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "PATH": "/usr/bin:/bin", "COLUMNS": "200"}
    works = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120)
    assert works.returncode == 0, works.stderr
    refused = subprocess.run([sys.executable, "-c", code, *args, "--backend", "ray"], capture_output=True, text=True,
                             env=env, timeout=120)
    assert refused.returncode == 2
    assert "pip install 'ghostgames[ray]'" in refused.stderr
    wrong = CliRunner().invoke(app, [*args, "--address", "127.0.0.1:1"])
    assert wrong.exit_code == 2 and "--backend ray" in wrong.output
