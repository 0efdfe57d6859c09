"""stream_tournament.py with one more bot, `expert-v3`: the expert with the belief weights fitted before
the refit on games between search bots (belief.WEIGHTS of 2622c2f), so that the two can play each other."""

import runpy
import sys

from ghostgames import bots
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.belief import Model
from ghostgames.bots.geister.expert import BeliefPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot

BEFORE = {
    "forward": 0.689, "backward": -0.400, "sideways": -0.366, "captures": -0.380, "exposed": -1.302,
    "fled": 0.055, "never_moved": 0.007, "distance": -0.001, "attacked": -0.310, "share": 0.686,
}


class BeliefBefore(BeliefPolicy):
    belief_models = (Model(1.0, BEFORE),)


make_search = bots._make_search


def _make_search(name: str, budget: Budget) -> bots.Bot:
    if name == "expert-v3":
        bot = FastExpertBot(budget, BeliefBefore, exploration=0.5)
        bot.name = "expert-v3"
        return bot
    return make_search(name, budget)


bots._make_search = _make_search
bots.BOTS["expert-v3"] = bots._search("expert-v3")
bots.DEFAULT_ITERATIONS["expert-v3"] = 400
sys.argv[0] = "benchmarks/stream_tournament.py"
runpy.run_path("benchmarks/stream_tournament.py", run_name="__main__")
