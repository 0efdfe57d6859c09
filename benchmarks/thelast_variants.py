"""Variants of The Last's expert that docs/bots.md measures, as tournament plug-ins:

    PYTHONPATH=src:. ghostgames tournament --game thelast --players 4 --games 192 --workers 1 --seed 101 \\
        --seconds-per-move 0.2 --bots expert,benchmarks.thelast_variants:expert_states,ismcts,rules

Each is `expert:4000` (exploration 0.5) with one setting changed: `uniform_playout` the expert before its
opponent-aware playouts, `expert_states` today's expert dealing its worlds the old way. The variants screened in
docs/research/thelast-multiplayer.md and not kept (`paranoid`, `opp_detect`, `belief`, ...) replay at commit
c30a82e: `git checkout c30a82e` then the research log's commands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.fast_tree import Tree, root_codes
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast import fast_search
from ghostgames.bots.thelast.fast_search import CHUNK
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import action_index
from ghostgames.jit import new_streams
from ghostgames.rules.contract import Action

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


class PerWorldPolicy(fast_search.TheLastExpertPolicy):
    """6 December 2026 (docs/research/thelast-multiplayer.md, "A tree for each world"): the expert searching `trees`
    worlds, each drawn once for the decision and searched by a tree of its own (every seat in that tree sees that
    world's cards), the root's visits summed over the trees. Where the expert's one tree lets each other seat
    choose by statistics averaged over worlds in which its own hand changes, here it plays its hand as dealt."""

    trees = 32

    def compiled_choice(self, legal: Sequence[Action], budget: Budget, exploration: float,
                        rng: random.Random) -> tuple[Action, int] | None:
        seat = self.knowledge.seat
        actions, root_actions = root_codes(legal, action_index)
        stream = new_streams(rng, 1)
        kind, tables, mix = self.playout_of_decision(), self.playout_tables(), self.opponent_mix()
        rows = self.knowledge.fast_worlds()
        worlds = np.empty((self.trees, fast.FIELDS), dtype=np.int64)
        rows.sample(rng, worlds)
        trees = [Tree(seat, CHUNK + 1) for _ in range(self.trees)]
        turn = [0]

        def run_chunk(_carrier: Tree, count: int) -> None:
            """`count` iterations into the next tree in turn, on its own world."""
            k = turn[0] % self.trees
            turn[0] += 1
            tree = trees[k]
            tree.room_for(count)
            fast_search.iterate(worlds[k:k + 1], count, root_actions, exploration, tree.nodes, tree.reward,
                                tree.size, stream, kind, self.rank_weight, self.penalty_scale, tables, mix)

        carrier = Tree(seat, 1)  # counts the budget's chunks; the trees above hold the search
        done = carrier.grow(budget, CHUNK, run_chunk)
        visits: dict[int, int] = {}
        for tree in trees:
            for code, n in tree.root_visits().items():
                visits[code] = visits.get(code, 0) + n
        return actions[max(sorted(actions), key=lambda code: visits.get(code, 0))], done


per_world = _variant("per_world", PerWorldPolicy)
