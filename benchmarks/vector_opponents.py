"""Learner steps a second of a batched environment (GeisterVectorEnv, TheLastVectorEnv, GhooostVectorEnv)
against each of its compiled opponents and in self-play, on one thread.

A learner step is one decision of the learner with everything the environment does for it: its action, the
opponents' replies (compiled: `ghostgames.bots.geister.fast_opponents`, the card games' `random` and
`bots/<game>/fast_rules.py`), the reset of finished games and the learner's next observation. The learner's
actions come from `env.random_actions()` (compiled), so the figure is the environment's cost alone. The
opponents take turns within each round, so a change in the machine's load touches all of them alike; the
table gives the median of the rounds and its ratio to the `random` opponent's median, and self-play's
environment steps for comparison (each of its steps is one seat's move).

    PYTHONPATH=src:. .venv/bin/python benchmarks/vector_opponents.py [--game geister] [--players 3 ...]
        [--batch 1024] [--rounds 5] [--seconds 1.0] [--json benchmarks/results/vector-opponents.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from ghostgames.envs.batched import BatchedVectorEnv

OPPONENTS: dict[str, tuple[str | None, ...]] = {
    "geister": ("random", "charge", "rules", "defender", None),
    "thelast": ("random", "rules", None),
    "ghooost": ("random", "rules", None),
}
DEFAULT_OPTIONS = {"geister": {"exit": "escape", "max_plies": 300}, "thelast": {}, "ghooost": {}}


def make(game: str, players: int, batch: int, options: dict[str, Any], opponent: str | None) -> BatchedVectorEnv:
    """The environment of one row: one thread, the environment's own arrays, seats alternating."""
    seat = "alternate" if opponent else 0
    if game == "geister":
        from ghostgames.envs.vector import GeisterVectorEnv

        return GeisterVectorEnv(batch, options, seed=1, threads=1, copy=False, opponent=opponent, learner_seat=seat)
    from ghostgames.envs.ghooost_vector import GhooostVectorEnv
    from ghostgames.envs.thelast_vector import TheLastVectorEnv

    kind = TheLastVectorEnv if game == "thelast" else GhooostVectorEnv
    return kind(batch, players, options, seed=1, copy=False, opponent=opponent, learner_seat=seat)


def _rate(env: BatchedVectorEnv, seconds: float) -> tuple[float, float]:
    """Learner steps per wall-clock second and per CPU second of this process (what a free core gives)."""
    steps = 0
    cpu = time.process_time()
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        env.step(env.random_actions())
        steps += env.num_envs
    return steps / (time.perf_counter() - start), steps / max(time.process_time() - cpu, 1e-9)


def measure(game: str, players: int, args: argparse.Namespace, options: dict[str, Any]) -> list[dict[str, Any]]:
    """One table: every opponent of the game at this player count, rounds taken in turns."""
    envs = {}
    for opponent in OPPONENTS[game]:
        env = make(game, players, args.batch, options, opponent)
        env.reset()
        env.step(env.random_actions())  # compiles or loads the kernels
        envs[opponent] = env
    load_before = os.getloadavg()[0]
    rates: dict[str | None, list[float]] = {opponent: [] for opponent in envs}
    cpu_rates: dict[str | None, list[float]] = {opponent: [] for opponent in envs}
    for _ in range(args.rounds):
        for opponent, env in envs.items():
            wall, cpu = _rate(env, args.seconds)
            rates[opponent].append(wall)
            cpu_rates[opponent].append(cpu)
    load_after = os.getloadavg()[0]
    base = statistics.median(rates["random"])
    rows: list[dict[str, Any]] = []
    print(f"\n{game}, {players} players, batch {args.batch}, one thread, {args.rounds} x {args.seconds} s each, "
          f"load {load_before:.2f} -> {load_after:.2f}")
    print(f"{'opponent':<12}{'median steps/s':>16}{'min':>12}{'max':>12}{'vs random':>11}{'per CPU s':>12}")
    for opponent, runs in rates.items():
        name = opponent or "self-play"
        median = statistics.median(runs)
        cpu = statistics.median(cpu_rates[opponent])
        print(f"{name:<12}{median:>16,.0f}{min(runs):>12,.0f}{max(runs):>12,.0f}{median / base:>11.2f}{cpu:>12,.0f}")
        rows.append({"game": game, "players": players, "opponent": name, "median": median, "runs": runs,
                     "ratio_to_random": median / base, "median_per_cpu_second": cpu,
                     "runs_per_cpu_second": cpu_rates[opponent], "load": [load_before, load_after]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(OPPONENTS), default="geister")
    parser.add_argument("--players", type=int, action="append",
                        help="player counts of a card game, one table each (repeat it; default 3; Geister: 2)")
    parser.add_argument("--batch", type=int, default=1024, help="games stepped together")
    parser.add_argument("--rounds", type=int, default=5, help="timed runs of each opponent (the median is kept)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--options", default=None, help="the game's options (JSON; Geister's default: escape, "
                        "300 plies; the card games': their tables' defaults)")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()
    options = json.loads(args.options) if args.options else DEFAULT_OPTIONS[args.game]
    counts = [2] if args.game == "geister" else (args.players or [3])
    rows = [row for players in counts for row in measure(args.game, players, args, options)]
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "game": args.game, "batch": args.batch, "threads": 1, "rounds": args.rounds, "seconds": args.seconds,
            "options": options, "cpus": os.cpu_count(), "python": platform.python_version(),
            "unit": "learner steps a second (self-play: environment steps, each one seat's move)", "rows": rows,
        }, indent=2) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
