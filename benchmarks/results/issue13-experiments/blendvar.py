"""stream_tournament.py with `expert` scoring its leaves by the evaluator given first (2: BLEND; needs
risk.diff for expert-v3 and blend.diff applied)."""

import runpy
import sys

from ghostgames.bots import search_bots
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister import fast_search
from ghostgames.bots.ismcts import IsmctsBot

evaluator = int(sys.argv.pop(1))


def expert(budget: Budget) -> IsmctsBot:
    return fast_search.FastExpertBot(budget, search_bots.expert_v3_policy, exploration=0.5,  # type: ignore[attr-defined]
                                     evaluator=evaluator)


search_bots.expert = expert
sys.argv[0] = "benchmarks/stream_tournament.py"
runpy.run_path("benchmarks/stream_tournament.py", run_name="__main__")
