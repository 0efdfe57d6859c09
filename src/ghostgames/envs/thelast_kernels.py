"""TheLastVectorEnv's kernels (envs/thelast_vector.py): a batch of matches on The Last's compiled core, stepped
by envs/card_kernels.py's loop with The Last's hooks, compiled, in one call on the calling thread. The other
seats play uniformly random actions, the `rules` bot compiled (bots/thelast/fast_rules.py), a Python callable
(asked by the environment between calls) or nobody (self-play). A game is a match of rounds; every seat
reaches its turn in each, so a new match never ends before its learner acts.
"""

from __future__ import annotations

import sys

import numpy as np
from numpy.typing import NDArray

from ghostgames.bots.thelast import fast_rules
from ghostgames.bots.thelast.fast_rules import rules_action
from ghostgames.envs import batched, card_kernels, card_vector
from ghostgames.envs.card_kernels import Outputs, play_batch
from ghostgames.games.thelast import fast
from ghostgames.games.thelast.fast import PLAYERS, TOTAL
from ghostgames.jit import Rng, compiled, forget_stale_kernels

Row = NDArray[np.int64]


@compiled
def _start(s: Row, rng: Rng, i: int, table: NDArray[np.int64]) -> None:
    """A new match: table = (players, colours, values, cards a hand, rounds)."""
    fast.new_game(s, table[0], table[1], table[2], table[3], table[4])
    fast.random_deal(s, rng, i)


@compiled
def _rules(s: Row, scratch: NDArray[np.int64]) -> int:
    """The `rules` bot's action (it needs no scratch room)."""
    return rules_action(s)


@compiled
def _ended(s: Row, results: NDArray[np.int64], scores: NDArray[np.int64], ranks: NDArray[np.int64]) -> bool:
    """Once the match is over: per seat its result, and its total penalty as its score."""
    if not fast.outcome(s, results, ranks):
        return False
    for p in range(s[PLAYERS]):
        scores[p] = s[TOTAL + p]
    return True


@compiled
def batch_play(states: Row, rng: Rng, actions: NDArray[np.int64], kind: int, learners: NDArray[np.int8],
               table: NDArray[np.int64], outputs: Outputs) -> None:
    """card_kernels.play_batch for The Last: a game is a match, its scores the seats' total penalties."""
    play_batch(_start, fast.step, fast.seat_to_act, fast.random_action, _rules, _ended, fast.encode,
               fast.legal_mask, np.empty(table[0], dtype=np.int64),
               states, rng, actions, kind, learners, table, outputs)


@compiled
def batch_random_actions(states: Row, rng: Rng, out: NDArray[np.int64]) -> None:
    """random_action for every game of the batch (stream i of `rng` for game i)."""
    for i in range(states.shape[0]):
        out[i] = fast.random_action(states[i], rng, i)


KERNELS = (_start, _rules, _ended, batch_play, batch_random_actions)
# numba checks a cached kernel against its own file only: compile afresh when what they inline changes
forget_stale_kernels(sys.modules[__name__], KERNELS, inlined=(fast, fast_rules, batched, card_vector, card_kernels))
