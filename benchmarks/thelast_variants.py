"""Variants of The Last's expert that the research log measures (docs/research/thelast-multiplayer.md and the
tables of docs/research/card-games-strength.md), as tournament plug-ins:

    PYTHONPATH=src:. ghostgames tournament --game thelast --players 4 --games 192 --workers 1 --seed 101 \\
        --seconds-per-move 0.2 --bots expert,benchmarks.thelast_variants:expert_states,ismcts,rules

Each is `expert:4000` (exploration 0.5) with one setting changed: `uniform_playout` the expert before its
opponent-aware playouts, `expert_states` today's expert dealing its worlds the old way. The variants screened in
docs/research/thelast-multiplayer.md and not kept (`paranoid`, `opp_detect`, `belief`, ...) replay at commit
c30a82e: `git checkout c30a82e` then the research log's commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast import fast_search

ITERATIONS = 4000


def _variant(name: str, base: type[fast_search.TheLastExpertPolicy] = fast_search.UniformPlayoutPolicy,
             exploration: float = 0.5, **settings: Any) -> Callable[[float | None], Bot]:
    policy = type(name, (base,), settings)

    # `seconds` without a default: the plug-in loader passes `--seconds-per-move` only to a factory whose
    # parameter is required (with a default it calls it with nothing, and the variant ran 4,000 iterations)
    def factory(seconds: float | None) -> Bot:
        budget = Budget(seconds=seconds) if seconds else Budget(iterations=ITERATIONS)
        bot = IsmctsBot(budget, policy, exploration)
        bot.name = name
        return bot

    return factory


uniform_playout = _variant("uniform_playout")  # the expert before the opponent-aware playouts (from 4 players)
# 5 December 2026, after "The worlds dealt in the compiled core": the shipped expert (`expert`, the opponent-aware
# playouts from 4 players) dealing its worlds as states converted one by one (`state_worlds`), the path before
# WorldRows
expert_states = _variant("expert_states", fast_search.TheLastExpertPolicy, state_worlds=True)
