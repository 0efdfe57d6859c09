"""`expert-memory`: the expert that remembers the opponent's setups across the games of a match (issue 39).

The bot keeps one `SetupMemory` (memory.py) for as long as a harness keeps the bot, and learns from every
finished game's final view it is handed (`Bot.game_over`). Its policy is an expert's (`SealedPolicy` for `expert`,
`RunOnPolicy` for `expert-memory`, the expert of 5 December 2026 kept so that its matches replay) with
the belief over the enemy's hidden colours multiplied by the memory's prior of the whole setup each
colouring implies (the colouring's good ghosts and the enemy ghosts already known good), renormalised: the
search deals its worlds from it and the guard reads its chances (`good_probability`). The belief's logit
scores were fitted with every setup equally likely, so the prior multiplies in as Bayes' rule says.

With no game remembered, or setups that vary (the memory's prior is then uniform), the belief is left as it
is, not renormalised: the bot plays exactly as `expert`, move for move at an iteration budget.
"""

from __future__ import annotations

from typing import Any

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.geister.expert import RunOnPolicy, SealedPolicy
from ghostgames.bots.geister.fast_search import FastExpertBot
from ghostgames.bots.geister.memory import SetupMemory
from ghostgames.bots.geister.picture import GOOD
from ghostgames.bots.policy import SearchPolicy


class MemoryPolicy(RunOnPolicy):
    """`RunOnPolicy` reading the belief times the memory's prior of the enemy's setup (`expert-memory`)."""

    def __init__(self, knowledge: SeatKnowledge, memory: SetupMemory) -> None:
        super().__init__(knowledge)
        if not memory.informative() or not self.belief.hidden:
            return
        p = self.picture
        known = frozenset(g & 7 for g in range(p.enemy * 8, p.enemy * 8 + 8) if p.colour[g] == GOOD)
        a = memory.concentration()
        factors = [memory.chance(known | {g & 7 for g in colouring}, a) for colouring in self.belief.colourings]
        self.belief = self.belief.times(factors)
        self.good_probability = self.belief.good_probability()


class SealedMemoryPolicy(MemoryPolicy, SealedPolicy):
    """The expert's policy (`SealedPolicy`) reading the belief times the memory's prior of the enemy's setup."""


class MemoryExpertBot(FastExpertBot):
    """`expert` holding a `SetupMemory` that `game_over` fills from each finished Geister game's final view.
    In the other games it is `expert` (its policy is theirs, and it remembers nothing)."""

    name = "expert-memory"
    remembers = frozenset({"geister"})

    def __init__(self, budget: Budget, memory: SetupMemory | None = None,
                 policy: type[MemoryPolicy] = SealedMemoryPolicy, **search: Any) -> None:
        self.memory = memory if memory is not None else SetupMemory()
        self.memory_policy = policy
        super().__init__(budget, self.policy_for, **search)

    def policy_for(self, knowledge: SeatKnowledge) -> SearchPolicy:
        if knowledge.game.name != "geister":
            from ghostgames.bots.search_bots import expert_policy

            return expert_policy(knowledge)
        return self.memory_policy(knowledge, self.memory)

    def game_over(self, knowledge: SeatKnowledge) -> None:
        """Remember the opponent's setup when the final view shows it whole (memory.py says which games count)."""
        if knowledge.game.name == "geister":
            self.memory.learn(knowledge.view())
