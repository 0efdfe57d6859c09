"""Does the fast expert play better with shorter playouts at equal time? Measures each rollout limit's
iterations in `--seconds` of CPU time on the same positions, then plays the limits against the default (14 plies) with
the iteration budgets each gets in that time (so the load does not change the games), seats alternating,
games appended as they end.

    .venv/bin/python benchmarks/rollout_limit.py --limits 4 --seconds 0.2 --games 40 \\
        --out benchmarks/results/fast-expert-rollout-limit4.jsonl
    .venv/bin/python benchmarks/how_games_end.py benchmarks/results/fast-expert-rollout-limit4.jsonl

The bots are named `expert-r<limit>:<iterations>` in the file (`expert-r14` is `expert` as shipped). With
`--learned` the shorter limits score their leaves with the value learned by self-play (`value.py`) instead of
the hand evaluation, and are named `expert-v<limit>` (the default stays the shipped hand evaluation):

    .venv/bin/python benchmarks/rollout_limit.py --learned --limits 0,4 --seconds 0.2 --games 40 \\
        --out benchmarks/results/fast-expert-learned-leaf.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

from fast_search_speed import positions

from ghostgames.bots import BOTS, SeatKnowledge
from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.fast_search import HAND, LEARNED, FastExpertBot, warm_up
from ghostgames.bots.search_bots import expert_policy
from ghostgames.tournament import TournamentSpec
from ghostgames.tournament.runner import play_game

DEFAULT_LIMIT = 14


def variant(limit: int, budget: Budget, learned: bool = False) -> FastExpertBot:
    bot = FastExpertBot(budget, expert_policy, rollout_limit=limit, evaluator=LEARNED if learned else HAND)
    bot.name = f"expert-{'v' if learned else 'r'}{limit}"
    return bot


def register(limit: int, iterations: int, learned: bool = False) -> str:
    name = f"expert-{'v' if learned else 'r'}{limit}:{iterations}"

    def make(seconds: float | None) -> Bot:
        return variant(limit, Budget(iterations=iterations), learned)

    BOTS[name] = make
    return name


def rate(limit: int, seconds: float, count: int, learned: bool = False) -> float:
    """Median iterations in `seconds` of CPU time over `count` positions: the budgets are measured on the
    process's CPU clock, which a busy machine slows far less than the wall clock."""
    runs = []
    for state, seat in positions(count, 1):
        bot = variant(limit, Budget(iterations=4096), learned)
        start = time.process_time()
        bot.choose(SeatKnowledge(state, seat), random.Random(0))
        runs.append(bot.last_iterations * seconds / max(time.process_time() - start, 1e-6))
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limits", default="0,4", help="rollout limits to play against 14")
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--learned", action="store_true", help="the shorter limits score with the learned value")
    args = parser.parse_args()
    warm_up()
    limits = [int(x) for x in args.limits.split(",")]
    rates = {limit: rate(limit, args.seconds, args.positions, args.learned and limit != DEFAULT_LIMIT)
             for limit in [DEFAULT_LIMIT, *limits]}
    load = os.getloadavg()
    print(f"iterations in {args.seconds} s of CPU (median of {args.positions} positions, load {load[0]:.2f}):")
    for limit, iterations in rates.items():
        print(f"  rollout limit {limit:>2}: {iterations:>9,.0f}")
    default = register(DEFAULT_LIMIT, int(rates[DEFAULT_LIMIT]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as out:
        out.write(json.dumps({"rates": {str(k): v for k, v in rates.items()}, "seconds": args.seconds,
                              "learned": args.learned, "load": load}) + "\n")
        for limit in limits:
            other = register(limit, int(rates[limit]), args.learned)
            spec = TournamentSpec("geister", (other, default), args.games, 2, None, args.seed, {})
            out.write(json.dumps({"spec": spec.to_json()}) + "\n")
            for index in range(args.games):
                out.write(json.dumps(play_game(spec, index).to_json()) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
