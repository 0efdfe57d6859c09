"""The search bots by game: `ismcts` (generic ISMCTS, plain playouts; Geister plays them on its compiled
core) and `expert` (ISMCTS with a game's own knowledge: Geister's fitted belief, exit guard, playouts drawn
from the packaged learned policy (`geister.playout_policy`) and evaluation, searched on the compiled core by
`geister.fast_search`; the card games use the same policy as `ismcts`, which already needs their playout and
reward shaping to be sensible). Kept for measuring: `expert-hand`, the same search with the hand playout
(the expert until the learned playout had played every target row, docs/research/geister-expert.md),
`expert-v2`, the Geister knowledge searched in Python, and `expert-v1`, the expert before it (hand-set
belief weights, no exit guard)."""

from __future__ import annotations

import importlib

from ghostgames.bots.base import SeatKnowledge
from ghostgames.bots.budget import Budget
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.policy import SearchPolicy

# game name -> "module:Class" of the policy each bot uses (missing: the plain SearchPolicy)
PLAIN_POLICIES: dict[str, str] = {
    "geister": "ghostgames.bots.geister.playout:GeisterFastPlayouts",  # the same playouts, on the compiled core
    "ghooost": "ghostgames.bots.ghooost.search:GhooostPolicy",
    "thelast": "ghostgames.bots.thelast.search:TheLastPolicy",
}
EXPERT_POLICIES: dict[str, str] = {
    "geister": "ghostgames.bots.geister.expert:BeliefPolicy",
}
# The previous expert, kept so that every gain is measured against it (`expert-v1`).
EXPERT_V1_POLICIES: dict[str, str] = {
    "geister": "ghostgames.bots.geister.search:GeisterPolicy",
}


def _load(spec: str) -> type[SearchPolicy]:
    module, name = spec.split(":")
    policy: type[SearchPolicy] = getattr(importlib.import_module(module), name)
    return policy


def plain_policy(knowledge: SeatKnowledge) -> SearchPolicy:
    spec = PLAIN_POLICIES.get(knowledge.game.name)
    return (_load(spec) if spec else SearchPolicy)(knowledge)


def expert_policy(knowledge: SeatKnowledge) -> SearchPolicy:
    spec = EXPERT_POLICIES.get(knowledge.game.name) or PLAIN_POLICIES.get(knowledge.game.name)
    return (_load(spec) if spec else SearchPolicy)(knowledge)


def expert_v1_policy(knowledge: SeatKnowledge) -> SearchPolicy:
    spec = EXPERT_V1_POLICIES.get(knowledge.game.name) or PLAIN_POLICIES.get(knowledge.game.name)
    return (_load(spec) if spec else SearchPolicy)(knowledge)


def ismcts(budget: Budget) -> IsmctsBot:
    return IsmctsBot(budget, plain_policy)


def expert(budget: Budget) -> IsmctsBot:
    from ghostgames.bots.geister.fast_search import FastExpertBot
    from ghostgames.bots.geister.playout_policy import shipped_table

    return FastExpertBot(budget, expert_policy, exploration=0.5, playout_table=shipped_table())


def expert_hand(budget: Budget) -> IsmctsBot:
    from ghostgames.bots.geister.fast_search import FastExpertBot

    bot = FastExpertBot(budget, expert_policy, exploration=0.5)
    bot.name = "expert-hand"
    return bot


def expert_v2(budget: Budget) -> IsmctsBot:
    bot = IsmctsBot(budget, expert_policy, exploration=0.5)
    bot.name = "expert-v2"
    return bot


def expert_v1(budget: Budget) -> IsmctsBot:
    bot = IsmctsBot(budget, expert_v1_policy, exploration=0.5)
    bot.name = "expert-v1"
    return bot
