"""stream_tournament.py with the expert's candidate leaves as bots: `expert-blend:N` scores a cut-short
playout by the mean of the hand evaluation and the learned value (`fast_search.BLEND`), `expert-learned:N` by
the learned value alone (`LEARNED`); N iterations, everything else as `expert`. The games are those of
stream_tournament.py with the same arguments.

    .venv/bin/python benchmarks/leaf_tournament.py --bots expert-blend:190000,expert-v1:9000 --games 100 \\
        --seed 1 --out benchmarks/results/issue13-blend-hard-expertv1.jsonl
"""

from __future__ import annotations

import sys

from stream_tournament import main

from ghostgames.bots import BOTS, Bot, Budget
from ghostgames.bots.geister.fast_search import BLEND, LEARNED, FastExpertBot
from ghostgames.bots.search_bots import expert_policy

LEAVES = {"expert-blend": BLEND, "expert-learned": LEARNED}


def register(name: str) -> None:
    """Make `name` (e.g. expert-blend:190000) a bot the tournament can seat."""
    base, _, count = name.partition(":")
    evaluator, iterations = LEAVES[base], int(count)

    def make(seconds: float | None) -> Bot:
        bot = FastExpertBot(Budget(iterations=iterations), expert_policy, exploration=0.5, evaluator=evaluator)
        bot.name = base
        return bot

    BOTS[name] = make


if __name__ == "__main__":
    bots = sys.argv[sys.argv.index("--bots") + 1]
    for name in bots.split(","):
        if name.partition(":")[0] in LEAVES:
            register(name)
    main()
