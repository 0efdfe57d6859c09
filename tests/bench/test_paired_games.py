"""benchmarks/paired_games.py pairs two tournaments game by game: it counts the games where the bots' results
differ, takes the common first games of a longer and a shorter run, and refuses files of different games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ghostgames.cli import app

ROOT = Path(__file__).resolve().parents[2]


def _tournament(tmp_path: Path, bots: str, games: int, seed: int) -> Path:
    out = tmp_path / f"{bots.replace(',', '-').replace(':', '')}-{games}-{seed}.json"
    result = CliRunner().invoke(app, ["tournament", "--game", "geister", "--bots", bots, "--games", str(games),
                                      "--seed", str(seed), "--json", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _paired(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "benchmarks")]))
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "paired_games.py"), *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_two_runs_are_compared_on_their_common_games(tmp_path: Path) -> None:
    candidate = _tournament(tmp_path, "rules,random", 6, 3)
    baseline = _tournament(tmp_path, "random,random", 4, 3)
    out = tmp_path / "paired.json"
    assert _paired("--pair", "x", str(candidate), str(baseline), "--json", str(out)).returncode == 0
    (row,) = json.loads(out.read_text())
    a, b = row["candidate"]["results"], row["baseline"]["results"]
    assert len(a) == len(b) == 4  # the longer run's first four games
    rank = {"win": 2, "draw": 1, "loss": 0}
    assert row["paired"]["candidate_better"] == sum(rank[x] > rank[y] for x, y in zip(a, b, strict=True))
    assert row["paired"]["baseline_better"] == sum(rank[x] < rank[y] for x, y in zip(a, b, strict=True))
    assert row["candidate"]["won"] == a.count("win") and row["candidate"]["bot"] == "rules"
    other_seed = _tournament(tmp_path, "random,random", 4, 4)
    refused = _paired("--pair", "x", str(candidate), str(other_seed))
    assert refused.returncode != 0 and "not the same games" in refused.stderr
