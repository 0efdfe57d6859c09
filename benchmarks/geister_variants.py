"""Variants of the Geister expert that the research log measures (docs/research/geister-expert.md), as tournament
plug-ins at fixed iteration budgets, so that a game replays move for move and two bots that differ in a rule play
the same game wherever the rule does not fire:

    PYTHONPATH=src:. ghostgames tournament --game geister --games 400 --workers 1 --seed 3 --option exit=escape \\
        --bots benchmarks.geister_variants:sealed_1000,runner-3

`sealed_N` is `expert:N` (the memory over `CornerPolicy`, exploration 0.5, the shipped playouts) whose guard reads a
corner held by our last bad ghost as sealed (`expert.SealedPolicy`); N 1000 or 150000 (`hard`'s budget).
`sealed_evaluation_N` also scores the search's leaves with only the open exits (`Heuristic.sealed_exits`).
"""

from __future__ import annotations

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert import SealedPolicy
from ghostgames.bots.geister.expert_memory import MemoryExpertBot, MemoryPolicy
from ghostgames.bots.geister.heuristic import HEURISTIC
from ghostgames.bots.geister.playout_policy import shipped_table


class SealedMemoryPolicy(MemoryPolicy, SealedPolicy):
    """`SealedPolicy` reading the belief times the memory's prior of the enemy's setup, as `expert` does."""


def _sealed(iterations: int) -> Bot:
    bot = MemoryExpertBot(Budget(iterations=iterations), policy=SealedMemoryPolicy, exploration=0.5,
                          playout_table=shipped_table())
    bot.name = f"sealed:{iterations}"
    return bot


def sealed_1000() -> Bot:
    return _sealed(1000)


def sealed_150000() -> Bot:
    return _sealed(150000)


class SealedEvaluationPolicy(SealedMemoryPolicy):
    """`SealedMemoryPolicy` whose hand evaluation also counts only open exits (`Heuristic.sealed_exits`): a seat's
    good ghosts are not near an exit where the enemy's last bad ghost stands, so the search sees what parking our
    last bad ghost on the corner a runner walks to is worth."""

    heuristic = HEURISTIC._replace(sealed_exits=1.0)


def _sealed_evaluation(iterations: int) -> Bot:
    bot = MemoryExpertBot(Budget(iterations=iterations), policy=SealedEvaluationPolicy, exploration=0.5,
                          playout_table=shipped_table())
    bot.name = f"sealed-evaluation:{iterations}"
    return bot


def sealed_evaluation_1000() -> Bot:
    return _sealed_evaluation(1000)


def sealed_evaluation_150000() -> Bot:
    return _sealed_evaluation(150000)
