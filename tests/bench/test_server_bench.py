"""`ghostgames bench server` really plays: a tiny run against servers it starts, figures in its JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_bench_server_plays_tables_over_websockets_and_writes_the_figures(tmp_path: Path) -> None:
    out = tmp_path / "server.json"
    result = subprocess.run(
        [sys.executable, "-m", "ghostgames", "bench", "server", "--tables", "3", "--seconds", "2",
         "--json", str(out)],
        capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "actions/s" in result.stdout
    figures = json.loads(out.read_text())
    assert figures["tables"] == 3 and figures["connections"] == 6
    assert figures["actions"] > 0
    assert figures["errors"] == 0, figures["errors_by_code"]
    assert figures["round_trip_ms"]["p50"] <= figures["round_trip_ms"]["p99"]
    assert figures["server_rss_mb"] > 10
    assert figures["echo"]["messages"] > 0
    assert figures["fraction_of_echo"] > 0


def test_bench_server_refuses_several_workers_without_a_shared_database(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ghostgames", "bench", "server", "--tables", "1", "--seconds", "1", "--workers", "2"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert result.returncode != 0
    assert "--redis" in result.stdout + result.stderr
