"""For measuring only: today's `expert` (`HalfwayPolicy`) whose belief mixes a fourth model, the learned
runners fitted on games of `runner` AND `runner-2` (benchmarks/belief_across_runners.py; the weights and
repeat rates of its results file), shared as `expert-belief2` shares `belief.LEARNED_MODELS`. Nothing here
is shipped: the bot is seated by its factory's path,

    ghostgames tournament --game geister --bots benchmarks.belief_runners_bot:two_runners_1000,runner-3 ...
"""

from __future__ import annotations

import json
from pathlib import Path

from ghostgames.bots import Bot, Budget
from ghostgames.bots.geister.belief import LEARNED_MODELS, RUNNER_WEIGHTS, SEARCH_WEIGHTS, WEIGHTS, Model, Models
from ghostgames.bots.geister.expert import HalfwayPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.playout_policy import shipped_table

RESULTS = Path(__file__).parent / "results" / "belief-across-runners.json"
FITTED = "fitted on runner + runner-2"


def two_runner_models() -> Models:
    """belief.LEARNED_MODELS with the two-runner fit in the learned runners' place."""
    held = json.loads(RESULTS.read_text())
    name = next(key for key in held["weights"] if key.startswith(FITTED))
    rates = held["repeats"][name]
    repeats = round(sum(rates.values()) / len(rates), 2)
    return (Model(0.1, RUNNER_WEIGHTS, 0.95), Model(0.1, held["weights"][name], repeats),
            Model(0.1, WEIGHTS, 0.56), Model(0.7, SEARCH_WEIGHTS, 0.38))


class TwoRunnerBeliefPolicy(HalfwayPolicy):
    belief_models: Models | None = two_runner_models()


def two_runners_1000(seconds: float | None = None) -> Bot:
    """The bot at 1,000 iterations a move, whatever `seconds` says (a fixed budget, as the tables use)."""
    bot = FastExpertBot(Budget(iterations=1000), TwoRunnerBeliefPolicy, exploration=0.5,
                        playout_table=shipped_table())
    bot.name = "expert-two-runners"
    return bot


class OneRunnerBeliefPolicy(HalfwayPolicy):
    belief_models: Models | None = LEARNED_MODELS


def one_runner_1000(seconds: float | None = None) -> Bot:
    """The same with the shipped learned-runner model (fitted on `runner` and `rush`): `expert-belief2`'s belief
    on today's expert."""
    bot = FastExpertBot(Budget(iterations=1000), OneRunnerBeliefPolicy, exploration=0.5,
                        playout_table=shipped_table())
    bot.name = "expert-one-runner"
    return bot
