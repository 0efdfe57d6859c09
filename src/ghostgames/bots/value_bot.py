"""The `value` bot: Geister by one ply of look-ahead on the learned value (`bots/geister/greedy.py`);
in the card games it plays like `rules`, so any table can seat it."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.bots.rules_bot import RulesBot
from ghostgames.rules.contract import Action

if TYPE_CHECKING:  # the model module imports numba: only when a Geister game needs it
    from ghostgames.bots.geister.value import GeisterValue


class ValueBot(Bot):
    name = "value"

    def __init__(self, model: GeisterValue | None = None, worlds: int | None = None) -> None:
        self.model = model  # None: the weights shipped with the package, read on first use
        self.worlds = worlds
        self._elsewhere = RulesBot()

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        if knowledge.game.name != "geister":
            return self._elsewhere.choose(knowledge, rng)
        from ghostgames.bots.geister import greedy, value

        model = self.model or value.shipped()
        return greedy.choose(knowledge, rng, model, self.worlds or greedy.WORLDS)
