"""The Last's compiled search (fast_search.py) playing its worlds as the belief (belief.py) weighs them:
measured at 3 players and not adopted (docs/research/thelast-multiplayer.md), kept to measure again.

Each chunk still deals its worlds uniformly within the certain deductions (`sample_world`); the belief then
decides how many of the chunk's iterations each world serves, in proportion to its weight (systematic
resampling, the iterations shuffled so that consecutive ones play different worlds). A world the belief finds
unlikely is played less, or not at all; the cost of a decision does not change.
"""

from __future__ import annotations

import functools
import random

import numpy as np

from ghostgames.bots.thelast.belief import Floats, load_weights, scores
from ghostgames.bots.thelast.fast_search import Ints, TheLastExpertPolicy
from ghostgames.games.thelast.state import TheLastState


@functools.cache
def _weights() -> tuple[float, ...]:
    return tuple(load_weights())


class BeliefExpertPolicy(TheLastExpertPolicy):
    """TheLastExpertPolicy whose worlds are weighted by the fitted belief (`strength` scales its weights)."""

    strength = 1.0
    pool = 32  # more worlds a chunk, fewer iterations each: the weights thin them out
    reuse = 4
    state_worlds = True  # world_order reads the worlds' hands
    _table: Floats | None = None

    def world_order(self, worlds: list[TheLastState], pool: int, count: int, rng: random.Random) -> Ints:
        seat = self.knowledge.seat
        if self._table is None:  # a policy serves one decision: read the view once
            self._table = scores(self.knowledge.view(), self.strength * np.array(_weights()))
        table = self._table
        log_weights = np.array([
            sum(float(table[p, c]) for p in range(len(table)) if p != seat for c in world.hands[p])
            for world in worlds
        ])
        weights = np.exp(log_weights - log_weights.max())
        edges = np.cumsum(weights / weights.sum())
        start = rng.random()
        picks = np.searchsorted(edges, (start + np.arange(count)) / count, side="right")
        order = [int(min(i, len(worlds) - 1)) for i in picks]
        rng.shuffle(order)
        return np.array(order, dtype=np.int64)
