"""GhooostVectorEnv's kernels (envs/ghooost_vector.py): a batch of Ghooost! games on the compiled core, stepped
by envs/card_kernels.py's loop with Ghooost!'s hooks, compiled, in one call on the calling thread. The other
seats play uniformly random actions, the `rules` bot compiled (bots/ghooost/fast_rules.py), a Python callable
(asked by the environment between calls) or nobody (self-play). A game is a round, or a match of rounds; one
may end before its learner acts (a very short `max_turns`), and is then dealt again without a report.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.ghooost import fast_rules
from ghostgames.bots.ghooost.fast_rules import rules_action
from ghostgames.envs import batched, card_kernels, card_vector
from ghostgames.envs.card_kernels import Outputs, play_batch
from ghostgames.games.ghooost import fast
from ghostgames.games.ghooost.fast import OVER, PLAYERS, RANK, RESULT, STATUS
from ghostgames.jit import Rng, compiled, forget_stale_kernels

Row = NDArray[np.int32]


@compiled
def _start(s: Row, rng: Rng, i: int, table: NDArray[np.int64]) -> None:
    """A new game: table = (players, deck, may_decline, match_on, max_turns, max_rounds, first or -1)."""
    fast.new_game(s, table[0], table[1], table[2], table[3], table[4], table[5], table[6])
    fast.deal_random(s, rng, i)


@compiled
def _ended(s: Row, results: NDArray[np.int64], scores: NDArray[np.int64], legal: NDArray[np.int32]) -> bool:
    """Once the game is over: per seat its result, and its rank as its score."""
    if s[STATUS] != OVER:
        return False
    for p in range(s[PLAYERS]):
        results[p] = s[RESULT + p]
        scores[p] = s[RANK + p]
    return True


@compiled
def batch_play(states: Row, rng: Rng, actions: NDArray[np.int64], kind: int, learners: NDArray[np.int8],
               table: NDArray[np.int64], outputs: Outputs) -> None:
    """card_kernels.play_batch for Ghooost!: a game is a round or a match of rounds, its scores the seats' ranks;
    the `rules` bot's scratch room holds the legal actions."""
    play_batch(_start, fast.apply, fast.seat_to_act, fast.random_action, rules_action, _ended, fast.encode,
               fast.legal_mask, np.empty(fast.MAX_ACTIONS, dtype=np.int32),
               states, rng, actions, kind, learners, table, outputs)


@compiled
def batch_random_actions(states: Row, rng: Rng, out: NDArray[np.int64]) -> None:
    """random_action for every game of the batch (stream i of `rng` for game i)."""
    for i in range(states.shape[0]):
        out[i] = fast.random_action(states[i], rng, i)


KERNELS = (_start, _ended, batch_play, batch_random_actions)
# numba checks a cached kernel against its own file only: compile afresh when what they inline changes
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, fast_rules, batched, card_vector, card_kernels))
