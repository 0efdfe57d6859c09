"""The runners' games of `benchmarks/belief_on_runner.py` (the bot against rules, defender, charge and twice
`expert:1000`, seats and exit rules alternated), kept whole: every 3 plies the public view of the seat facing
the runner and, as labels, the true colours of the enemy's hidden ghosts. `benchmarks/belief_kinds.py` reads
them to try features the belief's `FEATURES` do not hold (the start square, the order the ghosts set off, ...).

    python benchmarks/kinds_games.py --bots runner runner-2 runner-3 --games 300 --seed 21 --out /tmp/gs-kinds
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from ghostgames.learn.geister.kinds_fit import runner_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["runner", "runner-2", "runner-3"])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--out", type=Path, default=Path("/tmp/gs-kinds"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for bot in args.bots:
        started = time.perf_counter()
        games = [runner_game(bot, index, args.seed) for index in range(args.games)]
        with gzip.open(args.out / f"{bot}-{args.seed}-{args.games}.json.gz", "wt") as f:
            json.dump(games, f)
        print(f"{bot}: {args.games} games in {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
