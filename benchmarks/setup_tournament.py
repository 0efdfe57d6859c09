"""stream_tournament.py with one more bot: `expert-setup:N`, the expert (N iterations) choosing its setups
among the best quarter by a learned value (`bots/geister/setups.py`, `BeliefPolicy.learned_setups`); the
expert as shipped sets up uniformly. `--value FILE` scores the setups with other weights than the packaged
ones (`search-value-weights.npz`, the same bytes as `benchmarks/results/value-search-tuned-2400.npz`);
`--keep K` keeps the best K setups instead of a quarter. Both are written into the output file's first line
next to the spec.

    .venv/bin/python benchmarks/setup_tournament.py --value benchmarks/results/value-search-tuned-2400.npz \
        --bots expert-setup:4000,expert:4000 --games 1000 --seed 1 --out setup-screen.jsonl
"""

from __future__ import annotations

import argparse
import sys

from stream_tournament import main

from ghostgames.bots import BOTS, Bot, Budget
from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.setups import KEEP
from ghostgames.bots.policy import SearchPolicy
from ghostgames.bots.search_bots import expert_policy


def register(name: str, weights: str | None, keep: int) -> None:
    """Make `name` (expert-setup:N) a bot the tournament can seat."""
    count = name.partition(":")[2]

    class Policy(BeliefPolicy):
        learned_setups = True
        setup_weights = weights
        setup_keep = keep

    def policy(knowledge: SeatKnowledge) -> SearchPolicy:
        return Policy(knowledge) if knowledge.game.name == "geister" else expert_policy(knowledge)

    def make(seconds: float | None) -> Bot:
        bot = FastExpertBot(Budget(iterations=int(count)), policy, exploration=0.5)
        bot.name = "expert-setup"
        return bot

    BOTS[name] = make


if __name__ == "__main__":
    own = argparse.ArgumentParser(add_help=False)
    own.add_argument("--value", default=None)
    own.add_argument("--keep", type=int, default=KEEP)
    own.add_argument("--bots", required=True)
    args, rest = own.parse_known_args()
    sys.argv = [sys.argv[0], "--bots", args.bots, *rest]
    for bot_name in args.bots.split(","):
        if bot_name.startswith("expert-setup:"):
            register(bot_name, args.value, args.keep)
    main({"value": args.value, "keep": args.keep})
