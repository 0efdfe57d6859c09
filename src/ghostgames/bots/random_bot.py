"""The baseline: a uniformly random legal action."""

from __future__ import annotations

import random

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.rules.contract import Action


class RandomBot(Bot):
    name = "random"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        return rng.choice(knowledge.legal_actions())
