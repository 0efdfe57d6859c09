"""The plain search's Geister playouts on the compiled core: uniformly random moves to the end, as the
knowledge-free SearchPolicy plays them, about a hundred times faster than through the contract.

The playout plays the world the search sampled for its seat (a `sample_world`), so it knows no more
than the seat does; the random stream comes from the search's own rng, so a choice stays a pure function
of (knowledge, rng).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ghostgames.bots.policy import SearchPolicy
from ghostgames.games.geister import fast
from ghostgames.games.geister.encoding import SETUP_COUNT
from ghostgames.games.geister.state import GeisterState
from ghostgames.rules.contract import State

_NO_LOG = np.empty(0, dtype=np.int32)
# Rewards of a finished playout (SearchPolicy's rank rewards for two seats): winner 1, loser 0, draw 0.5.
_REWARDS = {0: [1.0, 0.0], 1: [0.0, 1.0], fast.DRAW: [0.5, 0.5]}


def play_out(world: GeisterState, rng: random.Random) -> list[float]:
    """Each seat's reward for playing `world` to its end with uniform setups and moves on the fast core."""
    row = fast.from_state(world)
    stream = np.array([rng.getrandbits(64)], dtype=np.uint64)
    for seat in (0, 1):  # a world still in the setup: uniform setups, as rollout_action would choose
        if not world.set_up[seat] and row[fast.WINNER] == fast.RUNNING:
            fast.apply_setup(row, seat, fast.random_below(stream, 0, SETUP_COUNT))
    if row[fast.WINNER] == fast.RUNNING:
        fast.random_playout(row, stream, 0, _NO_LOG)
    return list(_REWARDS[int(row[fast.WINNER])])


class GeisterFastPlayouts(SearchPolicy):
    """SearchPolicy with its Geister playouts (uniform setups and moves, to the end) on the fast core."""

    def playout(self, world: State[Any], rng: random.Random) -> list[float] | None:
        return play_out(world, rng) if isinstance(world, GeisterState) else None


def warm_up() -> None:
    """Load the compiled playout (or compile it, once per machine) by playing one playout of a new game,
    so that a bot worker pays that cost while the server starts, not in a player's first bot move."""
    from ghostgames.games import get_game

    world = get_game("geister").new(players=2, seed=0)
    assert isinstance(world, GeisterState)
    play_out(world, random.Random(0))
