"""Variants of the Geister expert screened in docs/research/geister-expert.md, as tournament plug-ins:

    PYTHONPATH=src:. ghostgames tournament --game geister --games 100 --seed 1 --option exit=escape \\
        --bots benchmarks.geister_variants:corner_1000,runner-2

Each is the expert's search (`expert-run-on`: exploration 0.5, the learned playout table) with another policy, at
1,000 iterations (`corner_1000`) or `hard`'s 150,000 (`corner_150000`).
"""

from __future__ import annotations

from collections.abc import Callable

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert import CornerPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.playout_policy import shipped_table


def _variant(name: str, policy: type[CornerPolicy], iterations: int) -> Callable[[], Bot]:
    def factory() -> Bot:
        bot = FastExpertBot(Budget(iterations=iterations), policy, exploration=0.5, playout_table=shipped_table())
        bot.name = name
        return bot

    return factory


corner_1000 = _variant("corner", CornerPolicy, 1000)
corner_150000 = _variant("corner", CornerPolicy, 150000)
