"""The command line as a person uses it: real processes, real stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

GHOSTGAMES = [sys.executable, "-m", "ghostgames"]


def run(args: list[str], stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GHOSTGAMES, *args], input=stdin, capture_output=True, text=True, timeout=timeout)


def test_python_dash_m_lists_the_commands() -> None:
    result = run(["--help"])
    assert result.returncode == 0
    for command in ("play", "bench"):
        assert command in result.stdout


def test_terminal_geister_explains_bad_input_and_plays_to_the_end() -> None:
    lines = ["setup b1 c1 x9", "f4 n", "legal", "setup b1 c1 d2 e2", "b2 b4", "help"] + ["random"] * 400
    result = run(["play", "geister", "--seed", "3", "--max-plies", "60"], stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "is not a square" in out  # x9
    assert "first place your ghosts" in out  # a move before the setup
    assert "setup b1 c1 d1 e1" in out  # the legal list
    assert "not next to" in out  # b2 b4
    assert any(f"You {word}" in out for word in ("win", "lose", "draw"))


def test_terminal_geister_refuses_a_bad_option_with_what_would_work() -> None:
    result = run(["play", "geister", "--exit", "fly"])
    assert result.returncode == 2
    assert "'reach' or 'escape'" in result.stdout


def test_bench_engine_prints_a_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "engine.json"
    result = run(["bench", "engine", "--game", "geister", "--seconds", "2.5", "--json", str(out)])
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout and "best second" in result.stdout
    data = json.loads(out.read_text())
    assert data[0]["game"] == "geister" and data[0]["games"] > 0
    assert data[0]["options"] == {"exit": "escape", "max_plies": 300}
    # The best whole second holds some of the games, never more than all of them (two whole seconds ran).
    assert 0 < data[0]["best_second_games"] < data[0]["games"]


def test_bench_engine_names_the_games_for_an_unknown_one() -> None:
    result = run(["bench", "engine", "--game", "chess", "--seconds", "0.1"])
    assert result.returncode != 0
    assert "geister" in result.stdout + result.stderr


def test_bench_engine_measures_python_and_fast_side_by_side_with_a_ratio(tmp_path: Path) -> None:
    out = tmp_path / "engines.json"
    result = run(["bench", "engine", "--game", "geister", "--engine", "python", "--engine", "fast",
                  "--seconds", "1", "--json", str(out)], timeout=300)
    assert result.returncode == 0, result.stderr
    assert "fast" in result.stdout and "x python" in result.stdout
    data = json.loads(out.read_text())
    assert [r["engine"] for r in data] == ["python", "fast"]
    assert all(r["games"] > 0 and r["options"] == {"exit": "escape", "max_plies": 300} for r in data)


def test_bench_engine_measures_the_last_python_and_fast_side_by_side(tmp_path: Path) -> None:
    out = tmp_path / "thelast.json"
    result = run(["bench", "engine", "--game", "thelast", "--players", "4", "--engine", "python", "--engine",
                  "fast", "--seconds", "1", "--json", str(out)], timeout=300)
    assert result.returncode == 0, result.stderr
    assert "x python" in result.stdout
    data = json.loads(out.read_text())
    assert [(r["game"], r["engine"], r["players"]) for r in data] == [("thelast", "python", 4), ("thelast", "fast", 4)]
    # Both count the same actions: a round of 4 players is 9 tricks of 4 cards and 8 keep-or-swap decisions
    # (the last trick's winner has no card left to swap).
    assert all(r["games"] > 0 and r["mean_actions_per_game"] == 44 for r in data)


def test_bench_engine_measures_ghooosts_python_and_fast_engines_side_by_side(tmp_path: Path) -> None:
    out = tmp_path / "ghooost.json"
    result = run(["bench", "engine", "--game", "ghooost", "--players", "3", "--engine", "python", "--engine",
                  "fast", "--seconds", "1", "--json", str(out)], timeout=300)
    assert result.returncode == 0, result.stderr
    assert "3 players, median of 1 run(s): python" in result.stdout and "x python" in result.stdout
    data = json.loads(out.read_text())
    assert [(r["game"], r["engine"], r["players"]) for r in data] == [("ghooost", "python", 3), ("ghooost", "fast", 3)]
    assert all(r["games"] > 0 and r["actions"] > r["games"] and r["options"] == {"match": False} for r in data)
    refused = run(["bench", "engine", "--game", "ghooost", "--engine", "fast", "--batch", "8", "--seconds", "0.1"])
    assert refused.returncode == 2 and "one game at a time" in refused.stdout + refused.stderr


def test_bench_engine_steps_a_batch_and_refuses_what_cannot_be_measured(tmp_path: Path) -> None:
    out = tmp_path / "batch.json"
    result = run(["bench", "engine", "--engine", "fast", "--batch", "64", "--threads", "1", "--seconds", "1",
                  "--json", str(out)], timeout=300)
    assert result.returncode == 0, result.stderr
    [row] = json.loads(out.read_text())
    assert row["batch"] == 64 and row["threads"] == 1 and row["actions"] % 64 == 0
    refused = run(["bench", "engine", "--game", "thelast", "--engine", "fast", "--batch", "8", "--seconds", "0.1"])
    assert refused.returncode == 2 and "one game at a time" in refused.stdout + refused.stderr
    refused = run(["bench", "engine", "--engine", "python", "--batch", "8", "--seconds", "0.1"])
    assert refused.returncode == 2 and "--engine fast" in refused.stdout + refused.stderr
