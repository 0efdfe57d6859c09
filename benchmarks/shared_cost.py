"""The shared path (PostgreSQL + Redis) before and after a change, side by side in one run (issue 17).

    git archive <commit> src | tar -x -C /tmp/old      # the code to compare against
    .venv/bin/python benchmarks/shared_cost.py --before /tmp/old/src --rounds 3 --seconds 25 \\
        --json /tmp/shared-cost.json

Each round runs, in turns, one worker on SQLite (the yardstick of the 2x target), then for the "before" and
the "after" code one worker on PostgreSQL and two workers on PostgreSQL + Redis, all with 500 tables at
think 2 s. The servers of "before" run from the given source tree (PYTHONPATH); the load client is always this
tree's. PostgreSQL and Redis are private instances (tests/infra/services.py), a fresh database per run, so
their CPU is found and counted. Prints the medians as a Markdown table (benchmarks/server_cost.py's) and the
load average; a run that fails (a player that never hears of a change times out) is listed, not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from ghostgames.bench import server

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.server_cost import markdown  # noqa: E402

SQLITE = ("1 worker, SQLite, 500 tables, think 2 s", {"tables": 500, "think": 2.0})
SHARED: list[tuple[str, dict[str, Any]]] = [
    ("1 worker, PostgreSQL, 500 tables, think 2 s", {"tables": 500, "think": 2.0, "workers": 1, "redis": False}),
    ("2 workers, PostgreSQL + Redis, 500 tables, think 2 s", {"tables": 500, "think": 2.0, "workers": 2}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="the other version's src/ directory")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every setup's table count (tiny runs)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    from tests.infra.services import Postgres, Redis

    postgres, redis = Postgres().start(), Redis().start()
    codes = {"before": str(args.before.resolve()), "after": str(REPO / "src")}
    results: dict[str, list[dict[str, Any]]] = {}
    failures: dict[str, list[str]] = {}
    saved = os.environ.get("PYTHONPATH")
    try:
        for round_no in range(1, args.rounds + 1):
            runs: list[tuple[str, str, dict[str, Any]]] = [("after", *SQLITE)]
            order = ["before", "after"] if round_no % 2 else ["after", "before"]
            runs += [(code, name, setup) for name, setup in SHARED for code in order]
            for code, name, setup in runs:
                options = {**setup, "tables": max(1, round(setup["tables"] * args.scale))}
                use_redis = options.pop("redis", True)
                if "workers" in options:
                    options["db"] = postgres.fresh_database(f"shared{round_no}_{secrets.token_hex(3)}")
                    if use_redis:
                        options["redis"] = redis.url
                os.environ["PYTHONPATH"] = codes[code]  # the servers started below import this tree
                label = name if code == "after" and name == SQLITE[0] else f"{name} ({code})"
                try:
                    result = server.run(seconds=args.seconds, echo=False, **options)
                except Exception as err:  # e.g. a player who never heard of a change: count it, go on
                    failures.setdefault(label, []).append(f"round {round_no}: {type(err).__name__}: {err}")
                    print(f"round {round_no}, {label}: FAILED ({type(err).__name__}: {err})", flush=True)
                    continue
                finally:
                    if saved is None:
                        os.environ.pop("PYTHONPATH", None)
                    else:
                        os.environ["PYTHONPATH"] = saved
                result["code"] = code
                results.setdefault(label, []).append(result)
                per_action = ", ".join(f"{k} {v:.2f}" for k, v in result["cpu_ms_per_action"].items())
                print(f"round {round_no}, {label}: {result['actions_per_second']:,.0f} actions/s, "
                      f"p99 {result['round_trip_ms']['p99']:,.1f} ms, {result['errors']} errors; "
                      f"CPU ms per action: {per_action}; load {result['load_average']['after'][0]:.1f}",
                      flush=True)
    finally:
        redis.stop()
        postgres.stop()
    print(markdown(results))
    for label, reasons in failures.items():
        print(f"failed runs of {label}: {'; '.join(reasons)}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": results, "failed": failures}, indent=2) + "\n")


if __name__ == "__main__":
    main()
