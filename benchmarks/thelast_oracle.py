"""A diagnostic that PEEKS, for the research log only: The Last's expert searching worlds in which every other
seat's hand and face-down pile are the true ones (docs/research/thelast-multiplayer.md, "How much the others'
cards are worth at 4 players"). It bounds what any belief over hands could give this search: only the points
pile (its order, and which cards are spare), unknown to every player, is dealt afresh in each world.

No table, tournament or test may use it; it reads the true state through `SeatKnowledge`'s private
attribute, which no bot of the product touches. As a plug-in of benchmarks/openspiel_cards.py:

    PYTHONPATH=src:. python benchmarks/openspiel_cards.py --game thelast --players 4 --seconds 0.2 --duplicate \\
        --games 60 --bots benchmarks.thelast_oracle:oracle,ismcts,rules,openspiel --seed 30000
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ghostgames.bots.base import Bot
from ghostgames.bots.budget import Budget
from ghostgames.bots.fast_tree import Tree, root_codes
from ghostgames.bots.ismcts import IsmctsBot
from ghostgames.bots.thelast import fast_search
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.encoding import action_index
from ghostgames.games.thelast.state import TheLastState
from ghostgames.jit import new_streams
from ghostgames.rules.contract import Action


def true_world(state: TheLastState, rng: random.Random) -> np.ndarray:
    """The true state as a compiled row, with the points pile redrawn from the pile and spare cards (which
    cards lie in the pile, in which order, is hidden from every seat)."""
    row = fast.from_state(state)
    unseen = list(state.points) + list(state.spare)
    rng.shuffle(unseen)
    size = len(state.points)
    for k in range(size):
        row[fast.POINTS + k] = unseen[k]
    spare = 0
    for card in unseen[size:]:
        spare |= 1 << card
    row[fast.SPARE] = spare
    return row


class OraclePolicy(fast_search.TheLastExpertPolicy):
    """Today's expert (its kernel, playouts, reward and clock) on true worlds (`true_world`)."""

    def compiled_choice(self, legal: Sequence[Action], budget: Budget, exploration: float,
                        rng: random.Random) -> tuple[Action, int] | None:
        seat = self.knowledge.seat
        actions, root_actions = root_codes(legal, action_index)
        stream = new_streams(rng, 1)
        kind, tables, mix = self.playout_of_decision(), self.playout_tables(), self.opponent_mix()
        state = self.knowledge._state  # the peek: the true state (diagnostic only)
        assert isinstance(state, TheLastState)

        def run_chunk(tree: Tree, count: int) -> None:
            pool = min(self.pool, count)
            worlds = np.empty((pool, fast.FIELDS), dtype=np.int64)
            for w in range(pool):
                worlds[w] = true_world(state, rng)
            fast_search.iterate(worlds, count, root_actions, exploration, tree.nodes, tree.reward, tree.size,
                                stream, kind, self.rank_weight, self.penalty_scale, tables, mix)

        tree = Tree(seat, fast_search.CHUNK + 1)
        done = tree.grow(budget, self.pool * self.reuse, run_chunk)
        self.last_tree = tree
        return tree.most_visited(actions), done


def oracle(seconds: float | None) -> Bot:
    """The plug-in (`seconds` required: the loader passes `--seconds-per-move` only to such a factory)."""
    budget = Budget(seconds=seconds) if seconds else Budget(iterations=4000)
    bot = IsmctsBot(budget, OraclePolicy, 0.5)
    bot.name = "oracle"
    return bot

