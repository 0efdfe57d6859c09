"""The rule-of-thumb player: one small hand-written strategy per game, each reading only the view."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.rules.contract import Action

Strategy = Callable[[SeatKnowledge, random.Random], Action]

# game name -> module with `choose(knowledge, rng)`
STRATEGIES: dict[str, str] = {
    "geister": "ghostgames.bots.geister.rules",
    "ghooost": "ghostgames.bots.ghooost.rules",
    "thelast": "ghostgames.bots.thelast.rules",
}


def strategy_for(game: str) -> Strategy:
    module = importlib.import_module(STRATEGIES[game])
    strategy: Strategy = module.choose
    return strategy


class RulesBot(Bot):
    name = "rules"

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        return strategy_for(knowledge.game.name)(knowledge, rng)
