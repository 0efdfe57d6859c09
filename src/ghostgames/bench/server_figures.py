"""The server load benchmark's figures: percentiles of round trips, CPU seconds turned into milliseconds per
action, the table printed for people and the JSON kept for the docs.

bench/server.py measures; this file only summarises what it measured, so a reader changing what is shown
never touches the load itself (and benchmarks/server_cost.py reads the same names).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from ghostgames.bench import cpu

# the names of two rows of CPU figures: this process, and the sum of every server process measured
LOAD_CLIENT = "load client"
SERVER_TOTAL = "server total"


def cpu_figures(seconds: dict[str, float], actions: int) -> dict[str, Any]:
    """Seconds per process -> the JSON's CPU figures: ms per action per process, the server's sum (workers,
    bots, PostgreSQL, Redis) and what the rest of the machine spent meanwhile."""
    machine = seconds.pop(cpu.CpuMeter.MACHINE, 0.0)
    server = sum(spent for name, spent in seconds.items() if name != LOAD_CLIENT)
    spent = {**seconds, SERVER_TOTAL: server}
    return {
        "cpu_seconds": spent,
        "cpu_ms_per_action": cpu.per_action_ms(spent, actions),
        "machine_cpu_seconds": machine,
        "other_processes_cpu_seconds": max(0.0, machine - server - seconds.get(LOAD_CLIENT, 0.0)),
    }


def percentiles(samples: list[float]) -> dict[str, float]:
    """Seconds -> milliseconds at the 50th, 95th and 99th percentiles, the largest and the mean."""
    if not samples:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0, "mean": 0.0}
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {"p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": ordered[-1] * 1000,
            "mean": statistics.fmean(ordered) * 1000}


def safe_url(url: str) -> str:
    """A URL without its password, for printing and JSON."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}@{host}"
    return url


def write_json(result: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")


def summary_rows(result: dict[str, Any]) -> list[tuple[str, str]]:
    rtt = result["round_trip_ms"]
    rows = [
        ("tables / connections / workers", f"{result['tables']} / {result['connections']} / {result['workers']}"),
        ("mean think time per action (s)", f"{result['think_seconds']:g}"),
        ("actions acknowledged", f"{result['actions']:,} in {result['seconds_measured']:.1f} s"),
        ("actions/s", f"{result['actions_per_second']:,.0f}"),
        ("round trip p50 / p95 / p99 (ms)", f"{rtt['p50']:.1f} / {rtt['p95']:.1f} / {rtt['p99']:.1f}"),
        ("round trip max (ms)", f"{rtt['max']:.1f}"),
        ("errors", f"{result['errors']} {result['errors_by_code'] or ''}".strip()),
        ("stale versions (retried)", str(result["stale_versions"])),
        ("games finished", str(result["games_finished"])),
        ("server memory (RSS, MB)", f"{result['server_rss_mb']:.0f}"),
    ]
    for name, value in result["cpu_ms_per_action"].items():
        rows.append((f"CPU ms per action: {name}", f"{value:.3f}"))
    if result["cpu_not_measured"]:
        rows.append(("CPU not measured (not found here)", ", ".join(result["cpu_not_measured"])))
    if result["actions"]:
        rows.append(("CPU ms per action: rest of the machine",
                     f"{result['other_processes_cpu_seconds'] * 1000 / result['actions']:.3f}"))
    for name, share in result.get("waiting_for_cpu_share", {}).items():
        rows.append((f"{name}: event loop waiting for a CPU", f"{share:.0%} of the time"))
    lag = result.get("load_client_loop_lag_ms")
    if lag:
        rows.append(("load client's event loop late by p50 / p99 / max (ms)",
                     f"{lag['p50']:.1f} / {lag['p99']:.1f} / {lag['max']:.1f}"))
    before, after = result["load_average"]["before"], result["load_average"]["after"]
    rows.append(("load average 1 min (before / after)", f"{before[0]:.2f} / {after[0]:.2f}"))
    echo = result.get("echo")
    if echo:
        rows.append(("bare echo: messages/s", f"{echo['messages_per_second']:,.0f}"))
        rows.append(("bare echo p99 (ms)", f"{echo['round_trip_ms']['p99']:.1f}"))
        rows.append(("our rate / echo rate", f"{result['fraction_of_echo']:.3f}"))
    return rows
