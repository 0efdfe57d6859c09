"""Sparring partners with one Geister style each (`charge`, `defender`, `rush`, the learned
`runner` and its held-out twins `runner-2`, ..., and `mixture` of several); in the other games they play
like `rules`, so any table can seat them."""

from __future__ import annotations

import importlib
import random

from ghostgames.bots.base import Bot, SeatKnowledge
from ghostgames.bots.geister.runner import NETWORKS
from ghostgames.bots.rules_bot import RulesBot
from ghostgames.rules.contract import Action

# style name -> module with `choose(knowledge, rng)` for Geister
GEISTER_STYLES: dict[str, str] = {
    "charge": "ghostgames.bots.geister.charge",
    "defender": "ghostgames.bots.geister.defender",
    "rush": "ghostgames.bots.geister.rush",
    **{name: "ghostgames.bots.geister.runner" for name in NETWORKS},  # one module, a network per name
    "mixture": "ghostgames.bots.geister.mixture",
}


class GeisterStyleBot(Bot):
    def __init__(self, name: str) -> None:
        self.name = name
        self._module = GEISTER_STYLES[name]
        self._elsewhere = RulesBot()

    def choose(self, knowledge: SeatKnowledge, rng: random.Random) -> Action:
        if knowledge.game.name != "geister":
            return self._elsewhere.choose(knowledge, rng)
        module = importlib.import_module(self._module)
        action: Action = module.choose(knowledge, rng, self.name) if self.name in NETWORKS else module.choose(
            knowledge, rng)
        return action
