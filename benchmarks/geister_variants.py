"""Candidates for the Geister expert, as tournament plug-ins (docs/research/geister-expert.md):

    PYTHONPATH=src:. ghostgames tournament --game geister --games 20 --seed 9 --option exit=escape --workers 1 \\
        --bots benchmarks.geister_variants:corner_150000,runner-2

Each is the expert's search (`expert-run-on`: exploration 0.5, the shipped playout table) with another policy.
`run_on_1000` is the control: the expert itself built the same way, which must replay the `expert`'s games.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert import RunOnPolicy, exit_distance
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.playout_policy import shipped_table

# logit(p') = logit(p) + CORNER_SHIFT: the belief's chance for a ghost that has just stepped onto our exit corner
# with the enemy's last bad ghost left, calibrated on such moves against the sparring partners at seed 3 (the
# held-out `runner-3` not among them): benchmarks/corner_calibration.py.
CORNER_SHIFT = 1.96


class CornerPolicy(RunOnPolicy):
    """`RunOnPolicy` reading a ghost that has just stepped onto our exit corner, with the enemy's last bad ghost
    left, at the belief's chance shifted by `CORNER_SHIFT` instead of halfway to the even guess (the candidate of
    5 December 2026, afternoon, measured then at 1,000 iterations and here at `hard`'s budget)."""

    def arrival_chance(self, chance: float) -> float:
        p = self.picture
        g = self.arrival
        if g < 0 or p.captured[p.enemy]["bad"] < 3 or exit_distance(p.square[g], p.enemy) != 0:
            return super().arrival_chance(chance)
        return _shifted(chance, CORNER_SHIFT)


def _shifted(chance: float, shift: float) -> float:
    """`chance` moved by `shift` on the logit scale (0 and 1 stay where they are)."""
    if chance <= 0.0 or chance >= 1.0:
        return chance
    return 1.0 / (1.0 + math.exp(-(math.log(chance / (1.0 - chance)) + shift)))


def _variant(name: str, policy: type[RunOnPolicy], iterations: int) -> Callable[[], Bot]:
    def factory() -> Bot:
        bot = FastExpertBot(Budget(iterations=iterations), policy, exploration=0.5, playout_table=shipped_table())
        bot.name = name
        return bot

    return factory


corner_150000 = _variant("corner", CornerPolicy, 150000)
corner_1000 = _variant("corner", CornerPolicy, 1000)
run_on_1000 = _variant("run-on", RunOnPolicy, 1000)
