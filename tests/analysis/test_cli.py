"""`ghostgames analyse` as a person runs it: a real process, a record file, seats counted from 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.analysis.test_analysis import random_record


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ghostgames", "analyse", *args], capture_output=True, text=True,
                          timeout=120)


def test_analyse_prints_one_row_per_decision_and_writes_the_same_as_json(tmp_path: Path) -> None:
    record = random_record("thelast", 2, {}, seed=5, limit=200)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()))
    out = tmp_path / "analysis.json"
    result = run([str(path), "--seat", "2", "--budget", "20", "--json", str(out)])
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    assert data["seat"] == 1 and data["budget"] == 20
    rows = [line.split() for line in result.stdout.splitlines() if line.split() and line.split()[0].isdigit()]
    assert len(rows) == len(data["decisions"]) > 0
    for row, decision in zip(rows, data["decisions"], strict=True):
        assert int(row[0]) == decision["ply"] + 1
        assert record.actions[decision["ply"]] == (1, decision["played"])
    assert "seat 2" in result.stdout and "accuracy" in result.stdout


def test_analyse_refuses_a_seat_the_game_does_not_have(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_record("thelast", 2, {}, seed=5, limit=4).to_json()))
    result = run([str(path), "--seat", "3"])
    assert result.returncode == 2
    assert "seats are 1 to 2" in result.stdout + result.stderr


def test_analyse_reads_a_stored_record_by_id(tmp_path: Path) -> None:
    from ghostgames.storage import Repository

    url = f"sqlite:///{tmp_path / 'games.db'}"
    record = random_record("thelast", 2, {}, seed=7, limit=200)
    repo = Repository(url)
    try:
        record_id = repo.save_record(record, "table", ["a", "b"])
    finally:
        repo.close()
    out = tmp_path / "analysis.json"
    result = run(["--record", str(record_id), "--db", url, "--budget", "20", "--json", str(out)])
    assert result.returncode == 0, result.stderr
    data = json.loads(out.read_text())
    assert data["seat"] == 0 and data["decisions"]
    assert all(record.actions[d["ply"]] == (0, d["played"]) for d in data["decisions"])
    missing = run(["--record", str(record_id + 1), "--db", url])
    assert missing.returncode == 2
