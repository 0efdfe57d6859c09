"""Iterations a second of the Geister expert on the compiled core (`expert`) and of the same search in Python
(`expert-v2`), side by side on the same positions in one run (the shared machine swings by 2x: compare the
ratio, and read the load printed with it).

    .venv/bin/python benchmarks/fast_search_speed.py --positions 12 --seconds 0.9 --runs 3 \\
        --json benchmarks/results/fast-search-speed.json

Positions come from games between `rules` bots (escape rule, 300 plies), one every few plies of the play
phase where the expert searches (no winning move, no single answer of the exit guard).
Each engine gets `--seconds` per position (a time budget, as `hard` plays), the two engines in turn;
the table gives per position the median of `--runs` runs of each.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from ghostgames.bots import SeatKnowledge, get_bot
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.fast_search import warm_up
from ghostgames.games import get_game
from ghostgames.games.geister.state import GeisterState


def searches(state: GeisterState, seat: int) -> bool:
    """Whether the expert searches here (nothing forced, more than one move allowed)."""
    knowledge = SeatKnowledge(state, seat)
    policy = BeliefPolicy(knowledge)
    legal = knowledge.legal_actions()
    return len(legal) > 1 and policy.forced(legal, random.Random(0)) is None and len(policy.allowed(legal)) > 1


def positions(count: int, seed: int) -> list[tuple[GeisterState, int]]:
    """`count` play-phase positions (state, seat to move) from games between `rules` bots."""
    out: list[tuple[GeisterState, int]] = []
    rules = get_bot("rules")
    game_seed = seed
    while len(out) < count:
        state = get_game("geister").new(2, {"exit": "escape", "max_plies": 300}, seed=game_seed)
        assert isinstance(state, GeisterState)
        rng = random.Random(game_seed)
        ply = 0
        while state.to_act() and len(out) < count:
            seat = min(state.to_act())
            if all(state.set_up) and ply % 9 == 4 and searches(state, seat):
                out.append((state.clone(), seat))
            state.apply(seat, rules.choose(SeatKnowledge(state, seat), rng))
            ply += 1
        game_seed += 1
    return out


def iterations(bot_name: str, state: GeisterState, seat: int, seconds: float, seed: int) -> int:
    bot = get_bot(bot_name, seconds)
    bot.choose(SeatKnowledge(state, seat), random.Random(seed))
    return int(getattr(bot, "last_iterations"))  # noqa: B009 (both search bots count their iterations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=0.9)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    warm_up()
    load_before = os.getloadavg()
    started = time.time()
    rows: list[dict[str, Any]] = []
    print(f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; "
          f"{args.seconds} s a move, median of {args.runs} runs")
    print(f"{'position':>8} {'ply':>4} {'expert (fast)':>14} {'expert-v2 (python)':>19} {'ratio':>7}")
    for number, (state, seat) in enumerate(positions(args.positions, args.seed), start=1):
        fast_runs, python_runs = [], []
        for run in range(args.runs):
            fast_runs.append(iterations("expert", state, seat, args.seconds, run))
            python_runs.append(iterations("expert-v2", state, seat, args.seconds, run))
        fast_median, python_median = statistics.median(fast_runs), statistics.median(python_runs)
        ratio = fast_median / max(python_median, 1)
        rows.append({"position": number, "ply": state.ply, "seat": seat, "fast": fast_runs, "python": python_runs,
                     "fast_median": fast_median, "python_median": python_median, "ratio": ratio})
        print(f"{number:>8} {state.ply:>4} {fast_median:>14,.0f} {python_median:>19,.0f} {ratio:>7.1f}")
    fast_all = statistics.median(r["fast_median"] for r in rows)
    python_all = statistics.median(r["python_median"] for r in rows)
    ratio_all = statistics.median(r["ratio"] for r in rows)
    load_after = os.getloadavg()
    print(f"{'median':>8} {'':>4} {fast_all:>14,.0f} {python_all:>19,.0f} {ratio_all:>7.1f}")
    print(f"iterations a second: fast {fast_all / args.seconds:,.0f}, python {python_all / args.seconds:,.0f}; "
          f"load average after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "seconds": args.seconds, "runs": args.runs, "seed": args.seed, "load_before": load_before,
            "load_after": load_after, "wall_seconds": time.time() - started, "positions": rows,
            "median": {"fast": fast_all, "python": python_all, "ratio": ratio_all},
        }, indent=1) + "\n")


if __name__ == "__main__":
    main()
