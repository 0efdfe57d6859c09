"""Iterations a CPU second of The Last's `expert` and its playout variants (`benchmarks/thelast_variants.py`)
on the same positions in one run, at a fixed iteration budget (CPU time, so other processes on the shared
machine matter less; still compare within one run and read the load printed with it).

    PYTHONPATH=src:. .venv/bin/python benchmarks/thelast_playout_speed.py --variants uniform_playout --json OUT.json

`expert` is the shipped one (since 5 December 2026 it plays the opponent-aware playouts from 4 players);
`uniform_playout` the expert before. The playout variants of the cited runs (`opp_rules`, `opp_learned`, `opp_mix`,
`opp_detect`) replay at commit c30a82e: `git checkout c30a82e` then
`... --variants uniform_playout opp_rules opp_learned opp_mix opp_detect`.
benchmarks/results/thelast-playout-speed.json was written before the opponent-aware playouts, when `expert` meant
`uniform_playout`. thelast-playout-speed-before-cheap.json and
thelast-playout-speed-cheap.json are the code before and after the learned move was made cheap (`--positions 12`).
`expert_states` is the expert converting whole sampled states into rows, as before `fast_worlds.WorldRows` (the same
worlds and decisions); `--seconds 0.2` adds the mean iterations a decision at that time:

    PYTHONPATH=src:. .venv/bin/python benchmarks/thelast_playout_speed.py --variants expert_states \
        --players 3 4 5 --kernel-share --seconds 0.2 --json OUT.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from benchmarks import thelast_variants
from benchmarks.card_search_speed import positions

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast import fast_search
from ghostgames.bots.thelast.fast_search import TheLastExpertPolicy


class KernelClock:
    """CPU seconds spent inside the compiled kernel (`fast_search.iterate`): the rest of a decision is Python,
    mostly dealing the worlds (`sample_world`) and converting them (`fast.from_state`)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._kernel = fast_search.iterate

    def __call__(self, *args: object) -> None:
        start = time.process_time()
        self._kernel(*args)  # type: ignore[arg-type]
        self.seconds += time.process_time() - start


class StateWorldsPolicy(TheLastExpertPolicy):
    """The expert dealing its worlds as states and converting each (`fast.from_state`): how it was before
    `fast_worlds.WorldRows`, which gives the same worlds from the same draws (so the same decisions)."""

    state_worlds = True


def make(name: str, iterations: int, seconds: float | None = None) -> Bot:
    budget = Budget(seconds=seconds) if seconds else Budget(iterations=iterations)
    if name in ("expert", "expert_states"):
        return IsmctsBot(budget, TheLastExpertPolicy if name == "expert" else StateWorldsPolicy, 0.5)
    bot: Bot = getattr(thelast_variants, name)(None)
    assert isinstance(bot, IsmctsBot) and bot.budget.iterations == iterations, "variants run 4,000 iterations"
    return bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=["uniform_playout"])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--kernel-share", action="store_true",
                        help="also print the share of each bot's CPU time spent inside the compiled kernel")
    parser.add_argument("--seconds", type=float, default=None,
                        help="also print the mean iterations a decision of each bot at this many seconds a decision")
    args = parser.parse_args()
    kernel = KernelClock()
    if args.kernel_share:
        fast_search.iterate = kernel  # type: ignore[assignment]  # timed; compiled_choice looks it up per chunk
    iterations = thelast_variants.ITERATIONS
    names = ["expert", *args.variants]
    rows = []
    print(f"load {os.getloadavg()[0]:.1f}; {iterations} iterations a decision, {args.positions} positions a count")
    print(f"{'players':>7} " + " ".join(f"{n:>12}" for n in names))
    for players in args.players:
        spots = positions("thelast", players, args.positions, seed=0)
        rates, shares, timed = {}, {}, {}
        for name in names:
            bot = make(name, iterations)
            bot.choose(SeatKnowledge(*spots[0]), random.Random(0))  # compiles, warms the caches
            kernel.seconds = 0.0
            start = time.process_time()
            for state, seat in spots:
                bot.choose(SeatKnowledge(state, seat), random.Random(1))
            spent = time.process_time() - start
            rates[name] = len(spots) * iterations / spent
            shares[name] = kernel.seconds / spent
            if args.seconds:
                bot = make(name, iterations, args.seconds)
                done = []
                for state, seat in spots:
                    bot.choose(SeatKnowledge(state, seat), random.Random(1))
                    assert isinstance(bot, IsmctsBot)
                    done.append(bot.last_iterations)
                timed[name] = sum(done) / len(done)
        row: dict[str, object] = {"players": players, "iterations_per_cpu_second": rates}
        print(f"{players:>7} " + " ".join(f"{rates[n]:>12,.0f}" for n in names))
        if args.kernel_share:
            row["kernel_share"] = shares
            print(f"{'kernel':>7} " + " ".join(f"{shares[n]:>12.2f}" for n in names))
        if args.seconds:
            row["iterations_at_seconds"] = timed
            print(f"{'at ' + str(args.seconds) + 's':>7} " + " ".join(f"{timed[n]:>12,.0f}" for n in names))
        rows.append(row)
    if args.json:
        args.json.write_text(json.dumps({"load": os.getloadavg()[0], "iterations": iterations,
                                         "seconds": args.seconds, "rows": rows},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
