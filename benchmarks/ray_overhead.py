"""What Ray costs a tournament: the same games on the local backend (2 processes) and on a Ray cluster of 2
nodes of 1 CPU each on this machine (head + a second node, on loopback), side by side: wall-clock seconds,
seconds a game, Ray's overhead a game and the ratio. The games are checked to be the same on both.

    PYTHONPATH=src:. .venv/bin/python benchmarks/ray_overhead.py --bots expert:2000,rules --games 200 \\
        --json benchmarks/results/ray-overhead.json

Starting the cluster is timed apart (a real cluster is started once, not per run); the Ray run includes
connecting to it and its workers' first imports. The load average is printed with the figures: on a shared
machine compare the ratio of one run, not seconds of different runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ghostgames.executor import LocalExecutor
from ghostgames.tournament import TournamentSpec, run_tournament


def loopback_cluster() -> tuple[Any, str]:
    """A head node and a second node of 1 CPU each on 127.0.0.1, in a private temporary folder."""
    os.environ["RAY_TMPDIR"] = tempfile.mkdtemp(prefix="rb", dir="/tmp")
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # keep every address on loopback
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    root = Path(__file__).resolve().parents[1]
    os.environ["PYTHONPATH"] = os.pathsep.join([str(root / "src"), str(root), os.environ.get("PYTHONPATH", "")])
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1",
                                                            "include_dashboard": False})
    cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
    cluster.wait_for_nodes()
    return cluster, str(cluster.address)


def timed(spec: TournamentSpec, executor: Any) -> tuple[float, list[dict[str, Any]]]:
    start = time.perf_counter()
    games = run_tournament(spec, executor=executor)
    seconds = time.perf_counter() - start
    return seconds, [{k: v for k, v in g.to_json().items() if k != "think_seconds"} for g in games]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="expert:2000,rules")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    spec = TournamentSpec("geister", tuple(args.bots.split(",")), args.games, 2, None, args.seed,
                          {"exit": "escape", "max_plies": 300})
    load_before = os.getloadavg()
    with LocalExecutor(2) as local:
        local_seconds, local_games = timed(spec, local)
    start = time.perf_counter()
    cluster, address = loopback_cluster()
    cluster_seconds = time.perf_counter() - start
    try:
        from ghostgames.executor.on_ray import RayExecutor

        with RayExecutor(address) as on_ray:
            ray_seconds, ray_games = timed(spec, on_ray)
            nodes = on_ray.nodes
    finally:
        cluster.shutdown()
        shutil.rmtree(os.environ["RAY_TMPDIR"], ignore_errors=True)
    load_after = os.getloadavg()
    assert ray_games == local_games, "Ray played other games than the local backend"
    result = {
        "spec": spec.to_json(), "games": args.games, "cluster_start_seconds": round(cluster_seconds, 2),
        "local": {"workers": 2, "seconds": round(local_seconds, 2), "seconds_per_game": local_seconds / args.games},
        "ray": {"nodes": nodes, "cpus_per_node": 1, "seconds": round(ray_seconds, 2),
                "seconds_per_game": ray_seconds / args.games},
        "overhead_per_game_seconds": (ray_seconds - local_seconds) / args.games,
        "ratio_ray_to_local": ray_seconds / local_seconds,
        "same_games": True, "load_average_before": load_before, "load_average_after": load_after,
        "cpus": os.cpu_count(),
    }
    table = Table(title=f"{' vs '.join(spec.bots)}, {args.games} games (load {load_before[0]:.1f} before, "
                        f"{load_after[0]:.1f} after, {os.cpu_count()} CPUs)")
    for column in ("backend", "wall s", "s / game", "overhead / game", "ratio"):
        table.add_column(column, justify="right")
    table.add_row("local, 2 processes", f"{local_seconds:.1f}", f"{local_seconds / args.games:.3f}", "-", "1.00")
    table.add_row(f"ray, {nodes} nodes x 1 CPU", f"{ray_seconds:.1f}", f"{ray_seconds / args.games:.3f}",
                  f"{result['overhead_per_game_seconds']:+.3f} s", f"{result['ratio_ray_to_local']:.2f}")
    console = Console(width=120)
    console.print(table)
    console.print(f"starting the two-node cluster: {cluster_seconds:.1f} s (not in the Ray row); the same games: yes")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1))
        console.print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
