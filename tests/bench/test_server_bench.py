"""`ghostgames bench server` really plays: a tiny run against servers it starts, figures in its JSON."""

from __future__ import annotations

import json
import os
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
    # CPU per acknowledged action, per process: the worker, the load client and their sum all spent some
    per_action = figures["cpu_ms_per_action"]
    assert {"worker 1", "worker 1 bots", "load client", "server total"} <= set(per_action)
    assert per_action["worker 1"] > 0 and per_action["load client"] > 0
    assert per_action["server total"] >= per_action["worker 1"]
    assert figures["cpu_seconds"]["worker 1"] <= figures["seconds_measured"] * (os.cpu_count() or 1)
    assert figures["cpu_not_measured"] == []
    assert len(figures["load_average"]["after"]) == 3
    assert "CPU ms per action: worker 1" in result.stdout
    # the machine's share of a round trip: each event loop's wait for a CPU, the load client's lateness
    waits = figures["waiting_for_cpu_share"]
    assert set(waits) == {"worker 1", "load client"} and all(0 <= share <= 1.01 for share in waits.values())
    lag = figures["load_client_loop_lag_ms"]
    assert lag["samples"] >= 20 and lag["max"] >= lag["p99"] >= lag["p50"]  # one sample per 20 ms or more
    assert "load client's event loop late by" in result.stdout


def test_bench_server_refuses_several_workers_without_a_shared_database(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ghostgames", "bench", "server", "--tables", "1", "--seconds", "1", "--workers", "2"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert result.returncode != 0
    assert "--redis" in result.stdout + result.stderr
