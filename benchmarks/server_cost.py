"""What an action costs in each setup, side by side in one run (issue 17): `ghostgames bench server` per setup,
setups taken in turns for several rounds, medians printed as a Markdown table and written as JSON.

    .venv/bin/python benchmarks/server_cost.py --rounds 2 --seconds 25 --json /tmp/server-cost.json
    .venv/bin/python benchmarks/server_cost.py --no-shared        # SQLite setups only
    .venv/bin/python benchmarks/server_cost.py --no-shared --rounds 3 --before /tmp/old/src --setups think0,2000
    .venv/bin/python benchmarks/server_cost.py --table-from /tmp/server-cost.json   # the table again

`--before SRC` runs every setup also with the servers of another source tree (e.g. `git archive <commit> src |
tar -x -C /tmp/old`), the same load client, the two alternating (before first in odd rounds, after first in
even ones), and prints the medians of each side.

The setups: one worker on SQLite at `--think 0` (the most it answers), one worker on SQLite with 500 tables
at think 2 s (people's pace), and two workers on PostgreSQL + Redis with 200 tables at think 2 s. The shared
setup uses a private PostgreSQL and Redis on free loopback ports, started as the tests start them
(tests/infra/services.py; a fresh database per round), so their CPU is found and counted by the benchmark.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
from pathlib import Path
from typing import Any

from ghostgames.bench import server, server_figures

REPO = Path(__file__).resolve().parents[1]

SETUPS: dict[str, tuple[str, dict[str, Any]]] = {
    "think0": ("1 worker, SQLite, 200 tables, think 0", {"tables": 200, "think": 0.0}),
    "think2": ("1 worker, SQLite, 500 tables, think 2 s", {"tables": 500, "think": 2.0}),
    "2000": ("1 worker, SQLite, 2,000 tables, think 5 s", {"tables": 2000, "think": 5.0}),
}
DEFAULT_SETUPS = "think0,think2"
SHARED = ("2 workers, PostgreSQL + Redis, 200 tables, think 2 s", {"tables": 200, "think": 2.0, "workers": 2})


def _median(results: list[dict[str, Any]], pick: Any) -> float:
    return statistics.median(pick(r) for r in results)


def markdown(results: dict[str, list[dict[str, Any]]]) -> str:
    """One row per setup: medians of actions/s, round trips, CPU ms per action per process, load average."""
    names: list[str] = []
    for runs in results.values():
        for name in runs[0]["cpu_ms_per_action"]:
            if name not in names:
                names.append(name)
    # the workers, then the services, then the server's sum and the client
    order = ["worker", "postgresql", "redis", server_figures.SERVER_TOTAL, server_figures.LOAD_CLIENT]
    names = sorted(names, key=lambda n: (next(i for i, p in enumerate(order) if n.startswith(p)), n))
    head = ["setup", "runs", "actions/s", "p50 ms", "p95 ms", "p99 ms", *(f"CPU ms/action: {n}" for n in names),
            "worker 1 waits for a CPU", "client loop lag p99 ms", "RSS MB", "load (1 min)"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for setup, runs in results.items():
        cells = [setup, str(len(runs)), f"{_median(runs, lambda r: r['actions_per_second']):,.0f}"]
        cells += [f"{_median(runs, lambda r, q=q: r['round_trip_ms'][q]):,.1f}" for q in ("p50", "p95", "p99")]
        for name in names:
            present = [r for r in runs if name in r["cpu_ms_per_action"]]
            cells.append(f"{_median(present, lambda r, n=name: r['cpu_ms_per_action'][n]):.2f}" if present else "–")
        waits = [r["waiting_for_cpu_share"].get("worker 1", 0.0) for r in runs if "waiting_for_cpu_share" in r]
        cells.append(f"{statistics.median(waits):.0%}" if waits else "–")
        lags = [r["load_client_loop_lag_ms"]["p99"] for r in runs if "load_client_loop_lag_ms" in r]
        cells.append(f"{statistics.median(lags):,.0f}" if lags else "–")
        cells.append(f"{_median(runs, lambda r: r['server_rss_mb']):,.0f}")
        loads = [r["load_average"]["after"][0] for r in runs]
        cells.append(f"{min(loads):.1f}–{max(loads):.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every setup's table count (tiny runs)")
    parser.add_argument("--no-shared", action="store_true", help="skip the PostgreSQL + Redis setup")
    parser.add_argument("--setups", default=DEFAULT_SETUPS,
                        help=f"SQLite setups, comma-separated, of {', '.join(SETUPS)} (default {DEFAULT_SETUPS})")
    parser.add_argument("--before", type=Path, default=None, help="another version's src/ to run beside")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--table-from", type=Path, default=None, help="print the table of a saved --json, run nothing")
    args = parser.parse_args()
    if args.table_from is not None:
        print(markdown(json.loads(args.table_from.read_text())))
        return
    unknown = [key for key in args.setups.split(",") if key not in SETUPS]
    if unknown:
        parser.error(f"unknown setups {', '.join(unknown)}; choose from {', '.join(SETUPS)}")
    setups = [SETUPS[key] for key in args.setups.split(",")]
    services: list[Any] = []
    if not args.no_shared:
        sys.path.insert(0, str(REPO))
        from tests.infra.services import Postgres, Redis

        services = [Postgres().start(), Redis().start()]
        setups.append(SHARED)
    sides: list[tuple[str, Path | None]] = [("", None)]
    if args.before is not None:
        sides = [("before: ", args.before.resolve()), ("after: ", None)]
    results: dict[str, list[dict[str, Any]]] = {side + name: [] for name, _ in setups for side, _ in sides}
    try:
        for round_no in range(1, args.rounds + 1):
            for name, setup in setups:
                for side, source in sides if round_no % 2 else sides[::-1]:
                    options = {**setup, "tables": max(1, round(setup["tables"] * args.scale))}
                    if options.get("workers", 1) > 1:
                        postgres, redis = services
                        options["db"] = postgres.fresh_database(f"cost{round_no}_{secrets.token_hex(3)}")
                        options["redis"] = redis.url
                    result = server.run(seconds=args.seconds, echo=False, server_src=source, **options)
                    results[side + name].append(result)
                    per_action = ", ".join(f"{k} {v:.2f}" for k, v in result["cpu_ms_per_action"].items())
                    print(f"round {round_no}, {side}{name}: {result['actions_per_second']:,.0f} actions/s, "
                          f"p99 {result['round_trip_ms']['p99']:,.1f} ms, {result['errors']} errors; "
                          f"CPU ms per action: {per_action}; load {result['load_average']['after'][0]:.1f}",
                          flush=True)
    finally:
        for service in reversed(services):
            service.stop()
    print(markdown(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
