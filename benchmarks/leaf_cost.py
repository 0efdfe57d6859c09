"""What each leaf evaluation costs the expert's search: iterations per second of CPU time with the hand evaluation
(`HAND`, as shipped), the learned value (`LEARNED`) and their mean (`BLEND`), each after the expert's 14-ply playouts,
the learned value with no playout (`learned-0`), the mean after 4 plies (`blend-4`) and the hand leaf with each node
started from the learned value counted as 4 visits, scored when the node is made (`prior-4`) or on its second visit
(`prior-4-late`), and with `--playout FILE` the hand leaf after playouts of the learned playout policy in FILE
(`playout`); and the shipped expert's search (`expert`) and the same search ending on `expert-learned`'s leaf, the
learned value of what the seat knows (`expert-learned`, here on `expert`'s guard); on the same positions (from games
between `rules` bots), the leaves in turn on each position, median of `--runs`. Prints a table of iterations in
`--seconds` and each leaf's cost per iteration relative to `hand`; writes JSON.

    .venv/bin/python benchmarks/leaf_cost.py --positions 12 --runs 3 --json /tmp/leaf-cost.json
    .venv/bin/python benchmarks/leaf_cost.py --positions 8 --runs 3 --only hand \\
        --playout benchmarks/results/playout-policy-20000.npz --json benchmarks/results/leaf-cost-learned-playout.json
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

from fast_search_speed import positions

from ghostgames.bots import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister import info_value
from ghostgames.bots.geister.fast_search import BLEND, INFO, LEARNED, FastExpertBot, warm_up
from ghostgames.bots.geister.playout_policy import PlayoutPolicy, shipped_table
from ghostgames.bots.search_bots import expert_policy

# leaf name -> how FastExpertBot differs from the shipped expert (the hand leaf after 14-ply playouts)
LEAVES: dict[str, dict[str, Any]] = {
    "hand": {}, "learned": {"evaluator": LEARNED}, "blend": {"evaluator": BLEND},
    "learned-0": {"evaluator": LEARNED, "rollout_limit": 0}, "blend-4": {"evaluator": BLEND, "rollout_limit": 4},
    "prior-4": {"prior_visits": 4.0}, "prior-4-late": {"prior_visits": 4.0, "prior_after": 1},
    "expert": {"playout_table": shipped_table()},
    "expert-learned": {"playout_table": shipped_table(), "evaluator": INFO, "value": info_value.shipped_arrays()},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=40_000, help="iterations of each timed search")
    parser.add_argument("--seconds", type=float, default=0.9, help="the move time the table reports for")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--playout", type=Path, help="a learned playout policy (.npz) to price as `playout`")
    parser.add_argument("--only", help="price only these leaves (comma-separated; hand is always priced)")
    args = parser.parse_args()
    leaves = dict(LEAVES)
    if args.only:
        unknown = set(args.only.split(",")) - set(LEAVES)
        if unknown:
            parser.error(f"--only: no leaf {', '.join(sorted(unknown))}; the leaves are {', '.join(LEAVES)}")
        leaves = {name: leaves[name] for name in LEAVES if name == "hand" or name in args.only.split(",")}
    if args.playout:
        leaves["playout"] = {"playout_table": PlayoutPolicy.load(args.playout).table}
    warm_up()
    load = os.getloadavg()
    rates: dict[str, list[float]] = {name: [] for name in leaves}
    for state, seat in positions(args.positions, 1):
        runs: dict[str, list[float]] = {name: [] for name in leaves}
        for _ in range(args.runs):
            for name, differences in leaves.items():
                how = dict(differences)
                policy = how.pop("policy", expert_policy)
                bot = FastExpertBot(Budget(iterations=args.iterations), policy, **how)
                start = time.process_time()
                bot.choose(SeatKnowledge(state, seat), random.Random(0))
                runs[name].append(bot.last_iterations / max(time.process_time() - start, 1e-9))
        for name in leaves:
            rates[name].append(statistics.median(runs[name]))
    hand = rates["hand"]
    print(f"load average {load[0]:.2f}; {args.positions} positions, median of {args.runs} runs each")
    print(f"{'leaf':<18} {'iterations in ' + str(args.seconds) + ' s':>22} {'cost per iteration / hand':>27}")
    result = {"load": load, "positions": args.positions, "runs": args.runs, "seconds": args.seconds, "rows": {}}
    for name, values in rates.items():
        ratio = statistics.median(h / v for h, v in zip(hand, values, strict=True))
        iterations = statistics.median(values) * args.seconds
        print(f"{name:<18} {iterations:>22,.0f} {ratio:>27.2f}")
        result["rows"][name] = {"iterations": iterations, "cost_ratio": ratio}  # type: ignore[index]
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
